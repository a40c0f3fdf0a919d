"""Invisible characters are removed at import, and the import says so."""

import sys
import unicodedata

from engine.importing.invisible import FORMAT_RANGES, SOFT_HYPHEN, remove_invisible
from engine.importing.textfile import parse_text

HEARING = (
    "PRESIDING COMMISSIONER ALDEN: Good morning, Mr. Gr\u200been.\n"
    "INMATE GREEN: Good morning. I lived with Dana\u00ad Gr\u2060een in Fres\ufeffno.\n"
)


def test_every_format_character_is_removed():
    covered = {c for a, b in FORMAT_RANGES for c in range(a, b + 1)}
    expected = {c for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)) == "Cf"}
    assert covered == expected - {SOFT_HYPHEN}  # the layout's: "-\u00ad" is a double dash
    assert remove_invisible("Gr\u200be\u200den\u202e") == ("Green", 3)
    assert remove_invisible("plain text") == ("plain text", 0)


def test_a_name_split_by_a_zero_width_space_is_whole_after_import_and_a_notice_says_so():
    parsed = parse_text(HEARING.encode("utf-8"))
    assert "Mr. Green." in parsed.text and "Dana Green in Fresno" in parsed.text
    assert not any(unicodedata.category(c) == "Cf" for c in parsed.text)
    [notice] = [n for n in parsed.notices if "invisible" in n]
    assert notice.startswith("3 invisible characters were removed")  # the soft hyphen: layout


def test_no_notice_when_there_is_nothing_invisible():
    parsed = parse_text(HEARING.replace("\u200b", "").replace("\u00ad", "").replace(
        "\u2060", "").replace("\ufeff", "").encode("utf-8"))  # fmt: skip
    assert not any("invisible" in n for n in parsed.notices)
