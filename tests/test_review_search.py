"""The review page's search over the whole text (``annotations.selectors.search`` and
``GET .../review/search/``): every match, marked or not, with its place and its spans,
bounded, and the query kept out of the logs."""

import logging

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.models import Span
from annotations.selectors.search import review_search
from anonreview.logs import PrivacyFormatter
from tests.factories import make_suggestion, make_transcript

pytestmark = pytest.mark.django_db

TEXT = "\n".join(
    [
        "Q: Did you see Vantrell at the depot?",
        "WITNESS: Yes, vantrell and Mr. Vantrellson both. VANTRELL waved.",
        "Q: Nothing else?",
    ]
)


@pytest.fixture
def hearing(annotator):
    transcript = make_transcript(TEXT, assignees=[annotator])
    start = TEXT.index("Vantrell")
    make_suggestion(transcript, start, start + 8, "PERSON")
    return transcript


def test_search_lists_every_match_case_insensitive_with_its_place_and_no_span(hearing):
    result = review_search(transcript=hearing, query="vantrell")
    assert result.total == 4
    assert [m.text for m in result.matches] == ["Vantrell", "vantrell", "Vantrell", "VANTRELL"]
    first, second = result.matches[:2]
    assert (first.utterance, first.page) == (0, 1)
    assert [s.label for s in first.spans] == ["PERSON"] and first.covered
    assert second.utterance == 1 and not second.spans and not second.covered
    assert second.before == "WITNESS: Yes, " and second.after.startswith(" and Mr.")
    assert result.unmarked == 3


def test_whole_word_search_leaves_out_a_longer_word(hearing):
    result = review_search(transcript=hearing, query="Vantrell", whole_word=True)
    assert [m.text for m in result.matches] == ["Vantrell", "vantrell", "VANTRELL"]


def test_a_rejected_span_leaves_its_match_with_no_span_kept(hearing):
    Span.objects.filter(transcript=hearing).update(status=Span.Status.REJECTED)
    first = review_search(transcript=hearing, query="vantrell").matches[0]
    assert [s.status for s in first.spans] == ["rejected"] and not first.covered


def test_search_lists_the_first_matches_counts_the_rest_in_two_queries(annotator):
    text = "\n".join(f"Q: Line {i} names Orsolo again." for i in range(300))
    transcript = make_transcript(text, assignees=[annotator])
    with CaptureQueriesContext(connection) as queries:
        result = review_search(transcript=transcript, query="orsolo", limit=200)
    assert (len(result.matches), result.total, result.more) == (200, 300, 100)
    assert len(queries) == 2  # the utterances and the spans, whatever the matches
    assert result.matches[-1].utterance == 199


def test_a_query_of_one_letter_lists_nothing(hearing):
    assert review_search(transcript=hearing, query=" v ").total == 0


def test_search_view_lists_matches_links_their_place_and_keeps_the_query_out_of_the_log(
    client, annotator, hearing, caplog
):
    client.force_login(annotator)
    url = reverse("annotations:review-search", args=[hearing.pk])
    with caplog.at_level(logging.DEBUG):
        response = client.get(url, {"find": "Vantrell", "word": "1"})
        missing = client.get(
            reverse("annotations:review-search", args=[hearing.pk + 999]), {"find": "Vantrell"}
        )
    assert response.status_code == 200 and missing.status_code == 404
    html = response.content.decode()
    assert html.count('class="sr-hit') == 3
    assert html.count('class="sr-none">no span') == 2
    assert 'href="?page=1#uo-1"' in html
    formatter = PrivacyFormatter("%(message)s")
    assert caplog.records  # the 404 is logged, without its query string
    assert all("Vantrell" not in formatter.format(r) for r in caplog.records)


def test_review_page_offers_the_search_url(client, annotator, hearing):
    client.force_login(annotator)
    page = client.get(reverse("annotations:review", args=[hearing.pk])).content.decode()
    assert reverse("annotations:review-search", args=[hearing.pk]) in page
