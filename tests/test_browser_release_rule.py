"""The release rule in Debian's Chromium (issue 20): a lead's Undo on a transcript that was
submitted meanwhile is refused, and the page says why."""

import pytest
from django.urls import reverse

from annotations.management.commands.bench_review import build_review_transcript
from annotations.models import Span
from transcripts.models import Transcript

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def settle(page):
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request')"
        " && !(window.__reviewBusy && window.__reviewBusy())"
    )


def test_undo_of_a_lead_is_refused_once_the_transcript_is_submitted(
    login_page, live_server, annotator, lead, artifacts_dir
):
    hearing = build_review_transcript(seed=5, words=600, max_spans=40, assignees=[annotator])
    page = login_page(lead)
    page.goto(live_server.url + reverse("annotations:review", args=[hearing.pk]))
    page.wait_for_selector("#review[data-ready='1']")
    page.keyboard.press("j")
    span_id = page.locator("#original mark.current").get_attribute("data-span-id")
    page.keyboard.press("a")
    page.wait_for_selector(f'#s-{span_id}[data-status="accepted"]')
    settle(page)
    # Meanwhile the annotator decides the rest and submits (its state is what matters here).
    Span.objects.filter(transcript=hearing, status="suggested").update(status="accepted")
    Transcript.objects.filter(pk=hearing.pk).update(state=Transcript.State.SUBMITTED)
    page.keyboard.press("u")
    page.wait_for_selector("#toast.toast-error.show")
    assert "submitted" in page.locator("#toast").inner_text()
    page.screenshot(path=str(artifacts_dir / "release-rule-undo-refused.png"))
    assert Span.objects.get(pk=span_id).status == "accepted"
    assert Span.objects.get(pk=span_id).reviewer == lead
    # Reloaded, the page offers no Undo and says how to get a change made.
    page.reload()
    page.wait_for_selector("#review[data-ready='1']")
    assert page.locator("#undo-button").count() == 0
    assert "returns it first" in page.locator(".rv-banner").inner_text()
