"""transcript_title (transcripts/services/titles.py): the kind of proceeding and a short
hash, never a name or a date. Files are generated."""

import pytest

from engine.synthetic.families import family_document
from engine.synthetic.family_render import render_pdf, render_text
from transcripts.services.importing import transcript_import

KINDS = [
    ("grand_jury", "Grand jury"),
    ("deposition", "Deposition"),
    ("federal", "Trial"),
    ("appellate", "Appeal"),
    ("bph2009", "Hearing"),
]


@pytest.mark.parametrize(("family", "kind"), KINDS)
def test_the_title_names_the_kind_of_proceeding_and_no_date(db, family, kind):
    doc = family_document(4, family, words=600)
    t = transcript_import(name=f"{family}.txt", data=render_text(doc).encode(), annotate=False)
    assert t.title == f"{kind} · {t.sha256[:8]}"
    year = doc.metadata["hearing_date"][:4]
    assert year not in t.title


def test_a_pdf_of_a_grand_jury_volume_is_titled_grand_jury(db):
    doc = family_document(5, "grand_jury", words=600)
    t = transcript_import(name="volume.pdf", data=render_pdf(doc), annotate=False)
    assert t.title.startswith("Grand jury · ")


def test_a_text_that_does_not_say_its_kind_is_a_transcript(db):
    data = b"PRESIDING COMMISSIONER ALDEN: Good morning.\nATTORNEY VANCE: Good morning.\n"
    t = transcript_import(name="plain.txt", data=data, annotate=False)
    assert t.title == f"Transcript · {t.sha256[:8]}"


def test_a_heading_in_capitals_before_the_first_turn_names_the_kind_without_a_cover(db):
    data = b"GRAND JURY PROCEEDINGS\nMS. DOE: Good morning.\nTHE FOREPERSON: Good morning.\n"
    t = transcript_import(name="gj.txt", data=data, annotate=False)
    assert t.title.startswith("Grand jury · ")
