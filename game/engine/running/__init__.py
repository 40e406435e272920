"""TODO running"""
