"""Text encodings and line endings: every way a text export arrives gives the same import."""

import pytest

from engine.importing import parse_text
from engine.importing.errors import EmptyFile, NotSupported
from engine.importing.sources import decode_text

HEARING = (
    "PRESIDING COMMISSIONER ALDEN: Good morning. Señor Quill, please state your name.\n"
    "INCARCERATED PERSON QUILL: Jonah Quill, Q-U-I-L-L. I was born in Mérida.\n"
    "PRESIDING COMMISSIONER ALDEN: Thank you.\n"
)


def _encodings():
    crlf = HEARING.replace("\n", "\r\n")
    cr = HEARING.replace("\n", "\r")
    return {
        "utf-8": HEARING.encode("utf-8"),
        "utf-8 BOM": b"\xef\xbb\xbf" + HEARING.encode("utf-8"),
        "utf-16 LE BOM": b"\xff\xfe" + HEARING.encode("utf-16-le"),
        "utf-16 BE BOM": b"\xfe\xff" + HEARING.encode("utf-16-be"),
        "utf-16 LE without BOM": HEARING.encode("utf-16-le"),
        "latin-1": HEARING.encode("latin-1"),
        "windows-1252 CRLF": crlf.encode("cp1252"),
        "utf-8 CR only": cr.encode("utf-8"),
        "utf-8 CRLF": crlf.encode("utf-8"),
    }


@pytest.mark.parametrize("name", list(_encodings()))
def test_every_encoding_and_line_ending_gives_the_same_text(name):
    parsed = parse_text(_encodings()[name])
    assert parsed.text == HEARING.strip()
    assert [u.speaker for u in parsed.utterances] == [
        "PRESIDING COMMISSIONER ALDEN",
        "INCARCERATED PERSON QUILL",
        "PRESIDING COMMISSIONER ALDEN",
    ]


def test_decode_text_names_the_encoding_it_used():
    assert decode_text(b"\xff\xfe" + "a\r\nb".encode("utf-16-le")) == ("a\nb", "utf-16-le (BOM)")
    assert decode_text("é".encode("latin-1"))[1] == "windows-1252"
    assert decode_text("é\r".encode())[0] == "é\n"


def test_empty_and_binary_files_are_refused_in_words():
    with pytest.raises(EmptyFile):
        decode_text(b"\xef\xbb\xbf  \r\n")
    with pytest.raises(NotSupported, match="neither a PDF nor a text file"):
        decode_text(bytes(range(256)) * 4)
