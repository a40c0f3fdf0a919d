"""engine.pseudonymize.word_lists: the leak check's word lists, loaded before a Submit."""

import importlib

from engine.detectors import ordinary
from engine.pseudonymize import subtypes, word_lists


def test_loading_fills_every_list_the_leak_check_reads():
    word_lists.load_word_lists()
    assert ordinary._gazetteer.cache_info().currsize == 1
    assert subtypes._gazetteers.cache_info().currsize == 1
    assert ordinary.is_ordinary.cache_info().currsize >= 1


def test_the_web_application_loads_them_at_start(monkeypatch):
    import anonreview.wsgi

    calls = []
    monkeypatch.setattr(word_lists, "load_word_lists", lambda: calls.append(1))
    importlib.reload(anonreview.wsgi)
    assert calls == [1]
    assert anonreview.wsgi.application is not None
