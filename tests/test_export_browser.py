import pytest

from annotations.models import Span
from annotations.services.entities import entities_assign
from tests.factories import make_transcript

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_lead_reaches_export_page_from_nav_and_annotator_does_not_see_it(
    login_page, live_server, lead, annotator
):
    t = make_transcript("Mr. Quill spoke.", state="approved")
    Span.objects.create(transcript=t, start=4, end=9, label="PERSON", status="accepted")
    entities_assign(transcript=t)
    unreviewed = [make_transcript(f"Mr. Quill spoke {s}.", state=s) for s in ("ready", "returned")]
    page = login_page(lead)
    page.goto(live_server.url + "/transcripts/")
    page.click("#nav-export")
    row = page.locator(f'#export-transcripts tr[data-transcript-id="{t.pk}"]')
    assert row.count() == 1
    # Only approved or released transcripts are offered.
    assert page.locator("#export-transcripts tr[data-transcript-id]").count() == 1
    for other in unreviewed:
        assert page.locator(f'tr[data-transcript-id="{other.pk}"]').count() == 0
    assert "Quill" not in page.content()
    with page.expect_download() as info:
        row.get_by_role("button", name="text").click()
    download = info.value
    assert download.suggested_filename == f"transcript-{t.pk}.txt"
    assert open(download.path()).read() == "Mr. [PERSON_1] spoke."

    other = login_page(annotator)
    other.goto(live_server.url + "/transcripts/")
    assert other.locator("#nav-export").count() == 0
