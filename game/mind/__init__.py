"""mind"""
