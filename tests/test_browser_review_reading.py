"""Reading mode in Chromium: the count of places still readable opens a
list of them, each with a link to the review page at its span or line, and a marked word
in the text leads there too."""

import os
from pathlib import Path

import pytest
from django.urls import reverse

from annotations.benchmarks.review_transcript import build_review_transcript
from annotations.models import Span
from annotations.selectors.reading import READING_PLACES_MAX
from annotations.services import review as rs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots"))


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def hearing(annotator):
    """A generated hearing, half of its PERSON mentions accepted: the other mentions of
    the accepted names still read in the release text."""
    transcript = build_review_transcript(seed=11, words=1200, max_spans=150, assignees=[annotator])
    persons = Span.objects.filter(transcript=transcript, label="PERSON").order_by("start")
    for span in list(persons)[::2]:
        rs.span_accept(span=span.pk, actor=annotator, version=span.version)
    return transcript


def test_the_count_opens_the_list_and_its_links_and_marks_lead_to_the_review(
    login_page, live_server, annotator, hearing
):
    page = login_page(annotator)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(live_server.url + reverse("annotations:review-reading", args=[hearing.pk]))
    places = page.locator("#reading-places")
    assert not places.evaluate("el => el.open")
    page.locator("#leak-count-link").click()
    page.wait_for_function("() => document.getElementById('reading-places').open")
    first = places.locator("li").first
    first.wait_for(state="visible")
    count = places.locator("li").count()
    marks = page.locator("#reading-text mark.leak").count()
    # every place is marked in the text; the list holds the first READING_PLACES_MAX
    assert count == min(marks, READING_PLACES_MAX) > 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "reading-places-1280x720.png"))
    # "Show" scrolls to the mark in the text
    n = first.get_attribute("data-leak")
    first.locator("a.show").click()
    page.wait_for_function(f"() => location.hash === '#leak-{n}'")
    # An undecided suggestion's place opens the review focused on it
    decide = places.locator("a.go", has_text="Decide in the review").first
    href = decide.get_attribute("href")
    span_id = int(href.split("span=")[1])
    decide.click()
    page.wait_for_selector("#review[data-ready='1']")
    page.wait_for_function(
        f"() => document.getElementById('inspector').dataset.focus === '{span_id}'"
    )
    # A marked word in the text leads to the review as well
    page.go_back()
    mark = page.locator("#reading-text mark.leak a").first
    target = mark.get_attribute("href")
    assert target.startswith(reverse("annotations:review", args=[hearing.pk]))
    mark.click()
    page.wait_for_selector("#review[data-ready='1']")
    assert target.split("#")[0] in page.url
