"""The leak list at Submit in Chromium: the annotator presses Submit,
sees the name nobody annotated with a link to its place, adds the span from the list and
submits again."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

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


def test_decisions_at_submit_keep_the_list_open_and_update_its_count(
    login_page, live_server, annotator
):
    """Three greetings of the facilitator Jonathon Good (made-up) are found at Submit: one
    "Not a leak here" for one place swaps the list in place with its count; then one for
    every identical finding answers its last places, and the Submit goes through without
    a second press."""
    from annotations.services.review import review_assign_entities
    from tests.test_review_exceptions import META, TEXT

    text = TEXT + "PRESIDING COMMISSIONER ALDEN: Good evening again.\n"
    t = make_transcript(
        text, assignees=[annotator], state=Transcript.State.IN_REVIEW, metadata=META
    )
    for word in ("ALDEN", "QUILL", "Jonathon"):
        for at in [i for i in range(len(text)) if text.startswith(word, i)]:
            Span.objects.create(transcript=t, start=at, end=at + len(word), label="PERSON",
                                status="accepted")  # fmt: skip
    review_assign_entities(transcript=t)
    page = login_page(annotator)
    page.goto(live_server.url + reverse("annotations:detail", args=[t.pk]))
    page.locator("#submit-review").click()
    count = page.locator("#leak-count")
    expect(count).to_have_attribute("data-count", "3")
    report_url = page.url
    page.locator("tr.leak").nth(1).get_by_role("button", name="Not a leak here").click()
    expect(count).to_have_attribute("data-count", "2")
    assert page.url == report_url  # no trip back to the overview
    row = page.locator("tr.leak").first
    row.locator("select[name=reason]").select_option("public_role")
    row.get_by_role("button", name="Not a leak at all 2 places").click()
    page.wait_for_url(f"**{reverse('transcripts:list')}")
    assert sorted(t.leak_exceptions.values_list("reason", flat=True)) == [
        "ordinary_word", "public_role", "public_role"
    ]  # fmt: skip
    assert Transcript.objects.get(pk=t.pk).state == Transcript.State.SUBMITTED
    assert "submitted for approval" in page.inner_text("body")


@pytest.mark.slow
def test_role_word_surnames_from_import_to_release(login_page, live_server, annotator, settings):
    """A deposition whose people are George Foreman, Owen Judge, Carla Justice and Nora
    Speaker (made-up) is imported through the service and annotated; the annotator accepts
    the suggestions in the review page and submits, a second lead approves, and the
    release holds none of those surnames in clear."""
    import re

    from annotations.services.export import release_text
    from tests.factories import make_user
    from tests.role_deposition import DEPOSITION
    from transcripts.services.importing import transcript_import

    settings.DETECTORS = [
        {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
        {"NAME": "engine.detectors.patterns.PatternDetector", "OPTIONS": {}},
        {"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}},
    ]
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"
    lead, other_lead = make_user("lead-a", role="lead"), make_user("lead-b", role="lead")
    t = transcript_import(name="deposition.txt", data=DEPOSITION, user=lead, assignees=[annotator])
    t.refresh_from_db()
    assert t.state == Transcript.State.READY and t.spans.exists()
    page = login_page(annotator)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(live_server.url + reverse("annotations:detail", args=[t.pk]))
    page.locator("#start-review").click()
    page.wait_for_url(f"**/transcripts/{t.pk}/review/**")
    accept = page.locator("button[data-accept-all-label]")
    while accept.count():
        left = Span.objects.filter(transcript=t, status="suggested").count()
        accept.first.click()
        page.wait_for_function(
            "n => document.querySelectorAll('button[data-accept-all-label]').length < n "
            "|| !document.querySelector('button[data-accept-all-label]')",
            arg=accept.count(),
        )
        assert Span.objects.filter(transcript=t, status="suggested").count() < left
    page.locator("#submit-button").click()
    page.wait_for_url(f"**{reverse('transcripts:list')}")
    assert Transcript.objects.get(pk=t.pk).state == Transcript.State.SUBMITTED
    lead_page = login_page(other_lead)
    lead_page.goto(live_server.url + reverse("annotations:detail", args=[t.pk]))
    lead_page.locator("#approve").click()
    lead_page.wait_for_selector(".msg-success:has-text('approved')")
    released = release_text(transcript=Transcript.objects.get(pk=t.pk))
    assert not re.search(r"JUDGE|Justice|FOREMAN|Foreman|SPEAKER", released), released
    assert "The Judge who heard" in released and "a fair trial" in released
