"""The leak list at Submit in Chromium: the annotator presses Submit,
sees the name nobody annotated with a link to its place, adds the span from the list and
submits again."""

import pytest
from django.urls import reverse

from annotations.models import Span
from tests.factories import make_transcript
from transcripts.models import Transcript

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good morning, everyone.\n"
    "INCARCERATED PERSON QUILLFEATHER: Good morning.\n"
)


def test_submit_shows_the_leak_list_and_the_annotator_adds_the_span_from_it(
    login_page, live_server, annotator
):
    t = make_transcript(TEXT, assignees=[annotator], state=Transcript.State.IN_REVIEW)
    start = TEXT.index("ALDEN")
    Span.objects.create(transcript=t, start=start, end=start + 5, label="PERSON", status="accepted")
    page = login_page(annotator)
    page.goto(live_server.url + reverse("annotations:review", args=[t.pk]))
    page.click("#submit-button")
    report = page.locator("#leak-report")
    assert "QUILLFEATHER" in report.inner_text()
    link = report.locator("a.leak-place").first
    assert link.get_attribute("href") == f"/transcripts/{t.pk}/review/?page=1#uo-1"
    report.get_by_role("button", name="Add as PERSON").click()
    page.wait_for_url(f"**/transcripts/{t.pk}/review/**")
    added = Span.objects.get(transcript=t, status="added")
    assert TEXT[added.start : added.end] == "QUILLFEATHER"
    page.click("#submit-button")
    page.wait_for_url(f"**{reverse('transcripts:list')}")
    assert Transcript.objects.get(pk=t.pk).state == Transcript.State.SUBMITTED
