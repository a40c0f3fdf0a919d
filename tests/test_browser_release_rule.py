"""The release rule in Debian's Chromium: a lead's Undo on a transcript that was
submitted meanwhile is refused, and the page says why."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from annotations.benchmarks.review_transcript import build_review_transcript
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


def test_not_a_leak_here_with_a_reason_then_submit_and_the_lead_sees_it(
    login_page, live_server, annotator, lead, artifacts_dir
):
    """The facilitator is Jonathon Good (made-up): "Good evening" is reported at Submit;
    the annotator marks each greeting "Not a leak here" (ordinary word), and the last
    answer submits."""
    from tests.test_review_exceptions import hearing

    t = hearing(assignees=[annotator])
    page = login_page(annotator)
    page.goto(live_server.url + reverse("annotations:detail", args=[t.pk]))
    page.locator("#submit-review").click()
    rows = page.locator("tr.leak")
    assert rows.count() == 2
    page.screenshot(path=str(artifacts_dir / "release-rule-not-a-leak.png"), full_page=True)
    for last in (False, True):  # the list stays open, swapped with its count; the last
        row = page.locator("tr.leak").first  # answer submits without a second press
        row.locator("select[name=reason]").select_option("ordinary_word")
        row.get_by_role("button", name="Not a leak here").click()
        if not last:
            expect(page.locator("#leak-count")).to_have_attribute("data-count", "1")
    page.wait_for_selector(".msg-success:has-text('submitted for approval')")
    assert Transcript.objects.get(pk=t.pk).state == Transcript.State.SUBMITTED
    assert set(t.leak_exceptions.values_list("reason", flat=True)) == {"ordinary_word"}
    lead_page = login_page(lead)
    lead_page.goto(live_server.url + reverse("annotations:detail", args=[t.pk]))
    exceptions = lead_page.locator("#exceptions li")
    assert exceptions.count() == 2
    assert "Ordinary word" in exceptions.first.inner_text()


def test_the_lead_approves_on_one_screen_that_shows_what_was_decided(
    login_page, live_server, annotator, lead, artifacts_dir
):
    """A generated hearing reviewed through the services (two ages rejected one by one, a
    height deleted, a nationality relabelled, a flag, the rest accepted per label in bulk)
    and submitted; the lead reads the summary at 1440×900 and approves."""
    from annotations.services import review as rs
    from annotations.services import workflow as wf
    from anonreview.core.models import AuditEvent

    t = build_review_transcript(seed=3, words=3000, max_spans=None, assignees=[annotator])

    def first(label, nth=0):
        return Span.objects.filter(transcript=t, label=label, status="suggested").order_by("start")[
            nth
        ]

    rs.span_reject(span=first("AGE"), actor=annotator)
    rs.span_reject(span=first("AGE"), actor=annotator)
    rs.span_delete(span=first("HEIGHT"), actor=annotator)
    rs.span_relabel(span=first("NRP"), actor=annotator, label="ORGANIZATION")
    rs.span_flag(span=first("PERSON"), actor=annotator, flagged=True, note="Twin brother?")
    for label in sorted(set(t.spans.filter(status="suggested").values_list("label", flat=True))):
        rs.spans_accept_all(transcript=t, actor=annotator, label=label)
    wf.transcript_submit(transcript=t, actor=annotator)
    page = login_page(lead)
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(live_server.url + reverse("annotations:detail", args=[t.pk]))
    summary = page.locator("#review-summary")
    summary.wait_for()
    assert summary.locator("td[data-category=rejected]").inner_text() == "2"
    assert summary.locator("td[data-category=deleted]").inner_text() == "1"
    assert summary.locator("td[data-category=relabelled]").inner_text() == "1"
    assert "4 spans decided one by one" in summary.locator("#summary-bulk").inner_text()
    assert "accept all of a label" in summary.locator("#summary-bulk").inner_text()
    assert "Twin brother?" in summary.locator("#flags").inner_text()
    assert "ann" in summary.locator("#summary-actors").inner_text()
    summary.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "approval-summary-1440x900.png"))
    page.locator("#approve").click()
    page.wait_for_selector(".msg-success")
    assert Transcript.objects.get(pk=t.pk).state == Transcript.State.APPROVED
    stored = AuditEvent.objects.get(transcript=t, after__state="approved").after["summary"]
    assert stored["decisions"]["rejected"] == {"AGE": 2} and stored["flags"]
