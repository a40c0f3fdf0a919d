"""A place or body cut short by a word, widened from the surface-form table: the row
offers the capitalised word that stands right before (or after) its one open mention, and
one input widens it where the annotator reads it, without a focusing click in the review."""

import re

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.selectors.forms import form_widenings, review_form_table
from anonreview.core.models import AuditEvent

HX = {"HTTP_HX_REQUEST": "true"}
# generated-like lines: a prison cut short by its first word, a town after a sentence's
# start or a lower-case word, a county cut short at its end, a name part
TEXT = "\n".join(
    [
        "MR. PARK: Where were you held?",
        "WITNESS: At Corvane State Prison, for two years.",
        "WITNESS: Yes. Delmar is where my aunt lives.",
        "WITNESS: We drove to Delmar on Sunday.",
        "WITNESS: The fire was in Ardenne County last spring.",
        "WITNESS: I called Dana Quill about it.",
        "MR. PARK: Which county? WITNESS: Yes. St. Lucie County.",
    ]
)
MENTIONS = (
    ("State Prison", "ORGANIZATION"),
    ("Delmar", "LOCATION"),
    ("Ardenne", "LOCATION"),
    ("Dana", "PERSON"),
    ("Quill", "PERSON"),
    ("Lucie County", "LOCATION"),
)


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def wt(annotator):
    from tests.factories import make_transcript_with_mentions

    return make_transcript_with_mentions(TEXT, MENTIONS, annotator)


def _rows(transcript) -> dict:
    table = review_form_table(transcript=transcript)
    form_widenings(transcript=transcript, table=table)
    return {f.form: f for forms in table.values() for f in forms}


def test_a_form_cut_short_offers_the_capitalised_word_beside_it(wt):
    rows = _rows(wt)
    prison = rows["State Prison"]
    assert (prison.widen_left, prison.widen_right) == ("Corvane", "")
    assert prison.widen_span == prison.occurrences[0].span_id
    assert rows["Ardenne"].widen_right == "County" and not rows["Ardenne"].widen_left
    assert rows["Lucie County"].widen_left == "St."  # a saint's abbreviation, even first


def test_no_widening_after_a_sentences_start_a_lower_case_word_or_for_a_name_part(wt):
    rows = _rows(wt)
    # "Yes. Delmar" begins a sentence, "to Delmar" is lower case; two open mentions
    assert not rows["Delmar"].widen_left and not rows["Delmar"].widen_right
    # a name's parts are spans of their own: "Dana" before "Quill" is no widening
    assert not rows["Quill"].widen_left and not rows["Dana"].widen_right


def test_the_row_widens_its_mention_in_one_input_and_draws_the_widened_form_beside_it(
    client, annotator, wt
):
    client.force_login(annotator)
    page = client.get(
        reverse("annotations:review-forms", args=[wt.pk]), {"label": "ORGANIZATION"}
    ).content.decode()
    row = re.search(r'<li class="fm-row[^>]*data-form="state prison".*?</li>', page, re.S).group()
    assert 'data-form-action="widen"' in row and "◂ Corvane" in row
    span = Span.objects.get(transcript=wt, label="ORGANIZATION")
    url = reverse("annotations:review-forms-action", args=[wt.pk, "resize"])
    answer = client.post(
        url + "?label=ORGANIZATION",
        {"span": span.pk, "version": span.version, "edge": "left", "open": ""},
        **HX,
    ).content.decode()
    span.refresh_from_db()
    assert (wt.text[span.start : span.end], span.status) == ("Corvane State Prison", "accepted")
    assert AuditEvent.objects.filter(event_type="review.resize").count() == 1
    old = re.search(r'<li class="fm-row[^>]*data-form="state prison".*?</li>', answer, re.S)
    assert old and "now “Corvane State Prison”" in old.group()
    old_id = re.search(r'id="(f-[0-9a-f]+)"', old.group()).group(1)
    # the widened form is a row the page never had: drawn right after the old one
    new = re.search(
        rf'<div hx-swap-oob="afterend:#{old_id}"><li class="fm-row[^>]*'
        r'data-form="corvane state prison"',
        answer,
    )
    assert new
    # undone: the old form's row redraws in place, the widened one as gone
    undo = client.post(
        reverse("annotations:review-forms-action", args=[wt.pk, "undo"]) + "?label=ORGANIZATION",
        {},
        **HX,
    ).content.decode()
    assert "afterend:" not in undo
    assert re.search(r'data-form="state prison" data-open="1"', undo)
