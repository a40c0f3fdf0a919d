"""Django-free detection core: the Detector interface, recognizers, merging.

Nothing in this package imports Django models; it runs as plain Python, in
tests and inside workers. See base.py for the interface.
"""
