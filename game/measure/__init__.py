"""Measuring the town: interviews, who knows what, relationships, attendance, reports, benchmarks.

This package sits beside ``game.engine``: it reads saves and live engines/minds and never imports
Textual (the frame-render benchmark imports the UI lazily, inside the benchmark function).
"""
