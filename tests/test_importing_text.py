"""Odd text files: UTF-16 with a BOM imports, control characters
anywhere are removed (or the file refused as binary), and a line of megabytes is split
into utterances at its speaker tags or refused with a sentence."""

import pytest

from engine.importing.errors import NotSupported
from engine.importing.sources import decode_text as _decode
from engine.importing.text import MAX_LINE_CHARS, clean_text
from engine.importing.textfile import parse_text


def decode_text(data: bytes) -> str:
    """What the parser reads of a text file: decoded (sources), then cleaned (text)."""
    text, _encoding = _decode(data)
    return clean_text(text)


HEARING = (
    "PRESIDING COMMISSIONER ALDEN: Good morning. We are on the record.\n"
    "INCARCERATED PERSON QUILL: Good morning.\n"
)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_text_with_a_byte_order_mark_imports(encoding):
    data = HEARING.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):
        data = ("\ufeff" + HEARING).encode(encoding)
    assert decode_text(data) == HEARING
    parsed = parse_text(data)
    assert [u.speaker for u in parsed.utterances] == [
        "PRESIDING COMMISSIONER ALDEN",
        "INCARCERATED PERSON QUILL",
    ]


def test_control_characters_anywhere_are_removed():
    padding = "PRESIDING COMMISSIONER ALDEN: " + "word " * 2000 + "\n"  # past the first 4 KB
    data = (padding + "INCARCERATED PERSON QUILL: Good\x00 morn\x1bing.\x07\n").encode()
    text = decode_text(data)
    assert "\x00" not in text and "\x1b" not in text and "\x07" not in text
    assert text.endswith("INCARCERATED PERSON QUILL: Good morning.\n")
    assert "\x00" not in parse_text(data).text


def test_tabs_form_feeds_and_line_ends_are_kept():
    assert clean_text("A: one\ttwo\r\n\fB: three\n") == "A: one\ttwo\r\n\fB: three\n"


def test_binary_data_is_refused_with_a_sentence():
    data = bytes(range(256)) * 64
    with pytest.raises(NotSupported, match="binary data"):
        decode_text(data)


def test_a_megabyte_line_is_split_into_utterances_at_its_speaker_tags():
    turns = [
        f"PRESIDING COMMISSIONER ALDEN: {'Question about the record. ' * 800}"
        if i % 2 == 0
        else f"INCARCERATED PERSON QUILL: {'Answer about the record. ' * 800}"
        for i in range(100)
    ]
    line = " ".join(turns)
    assert len(line) > 2_000_000
    parsed = parse_text(line.encode())
    assert len(parsed.utterances) == 100
    longest = max(u.end - u.start for u in parsed.utterances)
    assert longest <= MAX_LINE_CHARS


def test_a_megabyte_line_without_speaker_tags_is_refused_with_a_sentence():
    data = ("blah " * 400_000).encode()
    with pytest.raises(NotSupported, match="characters long"):
        decode_text(data)
