"""Decisions where the annotator sees them, in Chromium, typed
without waits: one occurrence of a form decided alone from the form's list, by key and by
mouse, each its own undo step; a label menu on every row relabels a form without a focus
click first. Screenshots at 1280×720 under /tmp/shots/."""

from pathlib import Path

import pytest
from django.urls import reverse

from annotations.models import Span
from anonreview.core.models import AuditEvent
from tests.test_browser_review_bulk import forms_idle, um_transcript

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/tmp/shots")


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def _ums(transcript):
    text = transcript.text
    return [
        s
        for s in Span.objects.filter(transcript=transcript).order_by("start")
        if text[s.start : s.end].casefold() == "um"
    ]


def _open_table(page, live_server, transcript, label):
    url = reverse("annotations:review-forms", args=[transcript.pk]) + f"?label={label}"
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(live_server.url + url)
    page.wait_for_selector("#forms-page[data-ready='1']")


def test_keys_decide_one_occurrence_at_a_time_and_u_undoes_the_last_one_only(
    login_page, live_server, annotator
):
    transcript = um_transcript(annotator)
    page = login_page(annotator)
    _open_table(page, live_server, transcript, "PERSON")
    assert page.get_attribute("li.fm-row.current", "data-form") == "um"
    page.keyboard.press("o")
    page.wait_for_selector("li.fm-row.current li.fm-o.current")  # the list has loaded
    page.keyboard.press("x")  # the 1st "Um" is not a name here
    page.keyboard.press("a")  # the 2nd is kept
    page.keyboard.press("ArrowDown")  # past the 3rd
    page.keyboard.press("5")  # the 4th is relabelled LOCATION
    page.keyboard.press("9")  # the 5th AGE ...
    page.keyboard.press("u")  # ... undone: one step
    forms_idle(page)
    ums = _ums(transcript)
    assert [(s.label, s.status) for s in ums[:6]] == [
        ("PERSON", "rejected"),
        ("PERSON", "accepted"),
        ("PERSON", "suggested"),
        ("LOCATION", "accepted"),
        ("PERSON", "suggested"),
        ("PERSON", "suggested"),
    ]
    assert {s.status for s in ums[6:]} == {"suggested"}
    assert AuditEvent.objects.filter(event_type="review.undo").count() == 1
    # the list stayed open through every answer, the mark on the undone occurrence's
    # neighbour; Esc closes the list and keeps the page
    assert page.locator("li.fm-row.current .fm-occ li.fm-o").count() == 11
    page.screenshot(path=str(SHOTS / "forms-occurrences-keys-1280x720.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("li.fm-row.current .fm-occ[hidden]", state="attached")
    assert "/forms/" in page.url


def test_the_mouse_decides_one_occurrence_and_relabels_another_from_its_label_menu(
    login_page, live_server, annotator
):
    transcript = um_transcript(annotator)
    page = login_page(annotator)
    _open_table(page, live_server, transcript, "PERSON")
    page.locator("li.fm-row[data-form=um] .fm-more").click()
    items = page.locator("li.fm-row[data-form=um] li.fm-o")
    items.nth(2).wait_for()
    page.screenshot(path=str(SHOTS / "forms-occurrences-1280x720.png"))
    items.nth(1).get_by_role("button", name="Reject").click()
    items.nth(2).locator(".fm-pick").click()
    page.wait_for_selector("#fm-picker:not([hidden])")
    page.screenshot(path=str(SHOTS / "forms-occurrence-label-menu-1280x720.png"))
    page.locator("#fm-picker button[data-to=DATE]").click()
    forms_idle(page)
    ums = _ums(transcript)
    assert [(s.label, s.status) for s in ums[:4]] == [
        ("PERSON", "suggested"),
        ("PERSON", "rejected"),
        ("DATE", "accepted"),
        ("PERSON", "suggested"),
    ]
    assert page.locator("li.fm-row[data-form=um] li.fm-o").count() == 11
    assert page.locator("li.fm-row[data-form=um] li.fm-o.st-rejected").count() == 1


def test_a_rows_label_menu_relabels_that_form_without_focusing_it_first(
    login_page, live_server, annotator
):
    transcript = um_transcript(annotator)
    page = login_page(annotator)
    _open_table(page, live_server, transcript, "PERSON")
    assert page.get_attribute("li.fm-row.current", "data-form") == "um"
    page.locator("li.fm-row[data-form=kell] .fm-actions .fm-pick").click()
    page.locator("#fm-picker button[data-to=LOCATION]").click()
    forms_idle(page)
    text = transcript.text
    labels = {(text[s.start : s.end], s.label) for s in Span.objects.filter(transcript=transcript)}
    assert ("Kell", "LOCATION") in labels and ("Kell", "PERSON") not in labels
    assert {lab for word, lab in labels if word.casefold() == "um"} == {"PERSON"}
    # the menu also answers to a label's key: 7 is DATE
    page.locator("li.fm-row[data-form=darrow] .fm-actions .fm-pick").click()
    page.wait_for_selector("#fm-picker:not([hidden])")
    page.keyboard.press("7")
    forms_idle(page)
    assert {
        s.label
        for s in Span.objects.filter(transcript=transcript)
        if text[s.start : s.end] == "Darrow"
    } == {"DATE"}


def test_the_table_returns_to_the_review_at_the_reviews_address(login_page, live_server, annotator):
    transcript = um_transcript(annotator)
    Span.objects.filter(transcript=transcript, label="PERSON").update(status="accepted")
    page = login_page(annotator)
    _open_table(page, live_server, transcript, "LOCATION")
    page.keyboard.press("a")  # the last open form: the table goes back to the review
    page.wait_for_selector("#review[data-ready='1']")
    review = reverse("annotations:review", args=[transcript.pk])
    assert page.evaluate("() => location.pathname + location.search") == review
