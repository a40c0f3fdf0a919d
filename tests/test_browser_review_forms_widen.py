"""Widening a mention cut short by a word, from the surface-form table, in Chromium, typed
without waits: ``[``/``]`` on the focused row (or the row's "◂ word" button) widen its open
mention where the annotator reads its context, with no focusing click in the review; the
widened form's row appears beside the old one; ``u`` undoes it."""

import pytest

from annotations.models import Span
from anonreview.core.models import AuditEvent
from tests.test_browser_review_bulk import forms_idle
from tests.test_browser_review_forms_occurrences import _open_table
from tests.test_review_forms_widen import MENTIONS, TEXT

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def _transcript(annotator):
    from tests.factories import make_transcript_with_mentions

    return make_transcript_with_mentions(TEXT, MENTIONS, annotator)


def _texts(transcript, label):
    return [
        (transcript.text[s.start : s.end], s.status)
        for s in Span.objects.filter(transcript=transcript, label=label).order_by("start")
    ]


def test_the_bracket_key_widens_the_focused_rows_mention_and_u_undoes_it(
    login_page, live_server, annotator
):
    transcript = _transcript(annotator)
    page = login_page(annotator)
    _open_table(page, live_server, transcript, "LOCATION")
    row = page.locator("li.fm-row[data-form=ardenne] .fm-ctx")
    row.click()  # the row, not a button
    page.keyboard.press("]")  # "Ardenne" → "Ardenne County"; the focus moves on
    page.keyboard.press("u")
    row.click()
    page.keyboard.press("]")
    forms_idle(page)
    assert ("Ardenne County", "accepted") in _texts(transcript, "LOCATION")
    assert AuditEvent.objects.filter(event_type="review.undo").count() == 1
    rows = page.eval_on_selector_all("li.fm-row", "rs => rs.map(r => r.dataset.form)")
    assert rows.count("ardenne county") == 1
    assert rows.index("ardenne county") == rows.index("ardenne") + 1


def test_the_rows_word_button_widens_it_in_one_click(login_page, live_server, annotator):
    transcript = _transcript(annotator)
    page = login_page(annotator)
    _open_table(page, live_server, transcript, "ORGANIZATION")
    page.locator("li.fm-row[data-form='state prison'] .fm-widen").click()
    forms_idle(page)
    assert _texts(transcript, "ORGANIZATION") == [("Corvane State Prison", "accepted")]
    assert "now “Corvane State Prison”" in page.inner_text("li.fm-row[data-form='state prison']")
    page.wait_for_selector("li.fm-row[data-form='corvane state prison']")
