"""Measurements researchers publish (Django-free): agreement between annotators,
reviewer effort, corpus statistics, and server-side SVG plots.

The Django side (``annotations.services.measurements``) collects the rows and calls
these functions; they take plain values so they test as plain Python.
"""
