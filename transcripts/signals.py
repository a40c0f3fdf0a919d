"""Signals other apps listen to (so that ``transcripts`` never imports them).

``transcript_approved``: sent once an approval is committed, with ``transcript`` and
``actor``. The annotations app recomputes the measurement dashboard as a job on it.
"""

from django.dispatch import Signal

transcript_approved = Signal()
