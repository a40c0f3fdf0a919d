"""Court-filing stamps on every page: removed wherever they land (also glued into a
sentence), pages numbered as filed, the certificate's margin numbers removed; the file
is the generator's filed copy (``engine.synthetic.filed``)."""

import re

import pytest

from engine.importing import parse_text
from engine.importing.filing import find_stamp
from engine.synthetic.filed import filed_document, filed_pages, render_filed

LEFT = re.compile(r"PageID|Document #|Filed:|\bPage \d+ of\b")


@pytest.mark.parametrize("seed", [3, 4])
def test_a_filed_copy_imports_as_its_gold_with_every_stamp_removed(seed):
    doc = filed_document(seed, "federal", words=900)
    parsed = parse_text(render_filed(doc).encode())
    assert not LEFT.search(parsed.text)
    assert parsed.text == doc.gold.text


@pytest.mark.parametrize("seed", [3, 4])
def test_a_filed_copy_is_numbered_by_its_filed_pages(seed):
    doc = filed_document(seed, "federal", words=900)
    parsed = parse_text(render_filed(doc, first_page=3).encode())
    assert [u.page for u in parsed.utterances] == filed_pages(doc, first_page=3)
    assert parsed.page_count == filed_pages(doc, first_page=3)[-1]


def test_the_certificate_page_loses_its_margin_numbers():
    doc = filed_document(5, "federal", words=700)
    parsed = parse_text(render_filed(doc).encode())
    certificate = [
        parsed.text[u.start : u.end] for u in parsed.utterances if u.section == "certification"
    ]
    assert certificate[0] == "CERTIFICATE OF OFFICIAL REPORTER"
    assert not any(re.search(r"(?:^|\s)\d{1,2}(?:\s|$)", line) for line in certificate[1:2])
    assert certificate == doc.gold.text.split("\n")[-len(certificate) :]


@pytest.mark.parametrize(
    "stamp, page",
    [
        ("Case 1:19-cv-01234-ABC-DEF Document 57 Filed 03/04/19 Page 5 of 90 PageID #: 1234", 5),
        ("Case: 1:19-cv-01234 Document #: 57 Filed: 03/04/19 Page 5 of 90 PageID #:1234", 5),
        ("Case 2:19-cr-00123-JAD-VCF Document 57-2 Filed 03/04/19 Page 5 of 90", 5),
        ("Case 3:19-cv-01234 Document 57 Filed 03/04/19 Page 5 of 90 Page ID #:1234", 5),
        ("USCA11 Case: 19-12345 Date Filed: 03/04/2019 Page: 5 of 90", 5),
        ("Appellate Case: 19-1234 Document: 010110123456 Date Filed: 03/04/2019 Page: 5", 5),
        ("Case 19-1234, Document 57, 03/04/2019, 2512345, Page5 of 90", 5),
        ("Case: 19-1234 Document: 00117712345 Page: 5 Date Filed: 03/04/2019 Entry ID: 6543210", 5),
        ("USCA4 Appeal: 19-1234 Doc: 57 Filed: 03/04/2019 Pg: 5 of 90", 5),
    ],
)
def test_filing_systems_stamps_are_found_with_their_page(stamp, page):
    found = find_stamp(f"and he said {stamp} that it was over")
    assert found is not None and found.page == page
    assert found.text == stamp


def test_an_ordinary_sentence_about_a_case_is_no_stamp():
    assert find_stamp("In that case, Document 5 was filed on page 3 of the binder.") is None
    assert find_stamp("Case 12 was on page 4 of 9.") is None


def test_stamps_are_removed_on_pages_split_by_form_feeds_and_number_them():
    pages = []
    for n in range(7, 11):
        stamp = f"Case: 1:19-cv-01234 Document #: 57 Filed: 03/04/19 Page {n} of 90 PageID #:{n}"
        pages.append(f"{stamp}\nTHE COURT: Page {n} goes on\nto its end.")
    parsed = parse_text("\f".join(pages).encode())
    assert "PageID" not in parsed.text and "Document #" not in parsed.text
    assert [u.page for u in parsed.utterances] == [7, 8, 9, 10]


def test_state_e_filing_headers_are_removed():
    header = (
        "FILED: NEW YORK COUNTY CLERK 03/04/2019 09:15 AM INDEX NO. 123456/2019\n"
        "NYSCEF DOC. NO. 57 RECEIVED NYSCEF: 03/04/2019\n"
    )
    text = "".join(f"{header}THE COURT: Part {n} of the day.\n" for n in range(4))
    parsed = parse_text(text.encode())
    assert "NYSCEF" not in parsed.text and "COUNTY CLERK" not in parsed.text
    assert [parsed.text[u.start : u.end] for u in parsed.utterances] == [
        f"THE COURT: Part {n} of the day." for n in range(4)
    ]


def test_a_certificate_page_without_stamps_loses_its_margin_numbers():
    # pages marked only by their own numbers: the certificate's bare margin number after
    # the page's number ("7" then "8") is no page number
    doc = filed_document(5, "federal", words=700)
    parsed = parse_text(render_filed(doc, stamps=False).encode())
    assert parsed.text == doc.gold.text


def test_a_stamp_row_with_a_speck_beside_it_goes_and_numbers_its_page():
    from types import SimpleNamespace

    from engine.importing.filing import strip_rows

    stamp = "Case 5:23-cv-00182-ZNR Document 147 Filed 05/02/19 Page 7 of 7 PageID #: 4007"
    rows = [SimpleNamespace(text=", " + stamp), SimpleNamespace(text="1 A. I grew up there.")]
    assert strip_rows([rows]) == [7]
    assert [r.text for r in rows] == ["1 A. I grew up there."]
