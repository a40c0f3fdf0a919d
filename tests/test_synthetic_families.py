"""The generator's layout families import cleanly, as text and as PDF, and as a scan (OCR)."""

import re

import pytest

from engine.importing import parse_pdf, parse_text
from engine.synthetic.families import FAMILIES, family_document
from engine.synthetic.family_render import render_pdf, render_text

CLEAN = re.compile(r"PageID|\b\d{2}:\d{2}:\d{2}\b|\b\d{1,3}:\d{1,2},\d")


def _parse(doc, kind):
    return parse_text(render_text(doc).encode()) if kind == "txt" else parse_pdf(render_pdf(doc))


@pytest.mark.parametrize("kind", ["txt", "pdf"])
@pytest.mark.parametrize("family", [f for f in FAMILIES if f != "bph"])
def test_family_imports_one_utterance_per_turn_with_its_metadata(family, kind):
    doc = family_document(3, family, words=700)
    parsed = _parse(doc, kind)
    turns = [(u.speaker, parsed.text[u.start : u.end]) for u in parsed.utterances if u.speaker]
    assert [s for s, _ in turns] == [s for s, _ in doc.turns]
    assert [t for _, t in turns] == [f"{s}: {t}" for s, t in doc.turns]
    for key, value in doc.metadata.items():
        assert parsed.metadata.get(key) == value, key
    assert not CLEAN.search(parsed.text)
    if doc.header:
        assert doc.header not in parsed.text
    if doc.footer:
        assert doc.footer not in parsed.text


def test_bph2009_text_export_uses_cr_line_endings_and_number_blocks():
    text = render_text(family_document(4, "bph2009", words=700))
    assert "\n" not in text and "\r1 2 3 4 5 6 7 8 9\r10\r" in text


def test_appellate_word_index_and_contents_are_left_out_and_reported():
    doc = family_document(5, "appellate", words=700)
    parsed = parse_pdf(render_pdf(doc))
    assert parsed.layout["word_index_pages"] and parsed.layout["index_pages"] == [2]
    assert "C O N T E N T S" not in parsed.text and "CONTENTS" not in parsed.text
    assert any("word-index" in n for n in parsed.notices)


def test_unknown_family_is_refused():
    with pytest.raises(ValueError, match="unknown layout family"):
        family_document(1, "tabloid")
