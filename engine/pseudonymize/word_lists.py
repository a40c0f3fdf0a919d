"""The word lists the leak check reads, loaded ahead of the first Submit. Django-free.

The leak check asks whether a word is ordinary (word frequencies), a given name (a name
list) or a place (place and country gazetteers). Each list loads on its first question:
about 3 s in a fresh process at load 5, which an annotator's first Submit after the web
server started paid in full (`bench_review --lead`'s Submit 1.3 s on a 24,000-word
transcript against 0.1 s once loaded). A web server loads them once at start
(``anonreview/wsgi.py``; with gunicorn's ``--preload`` its workers share them).
"""

from __future__ import annotations


def load_word_lists() -> None:
    """Load every list the leak check reads (each loads once per process)."""
    from engine.detectors.names import is_given_name
    from engine.detectors.ordinary import is_name_word, is_ordinary, zipf
    from engine.pseudonymize.subtypes import rule_subtype

    is_ordinary("hearing")
    zipf("hearing")
    is_name_word("Hearing")
    is_given_name("Anna")
    rule_subtype("LOCATION", "Fresno")
