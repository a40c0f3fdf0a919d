"""The batch a page sends as it goes (annotations/views/review_batch.py): anything but a
list of actions with named values is refused with 400 and a sentence, never a 500."""

import json

import pytest
from django.urls import reverse

from annotations.models import Span
from tests.factories import make_suggestion, make_transcript

TEXT = "COMMISSIONER ALDEN: Good morning, Mr. Quill.\nINMATE QUILL: Good morning.\n"


@pytest.fixture
def bt(annotator):
    transcript = make_transcript(TEXT, assignees=[annotator])
    start = TEXT.index("Quill")
    make_suggestion(transcript, start, start + 5, "PERSON")
    return transcript


def _post(client, transcript, body):
    return client.post(
        reverse("annotations:review-batch", args=[transcript.pk]),
        body if isinstance(body, str) else json.dumps(body),
        content_type="application/json",
    )


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("{not json", "not JSON"),
        ([1], "expected"),
        ({"actions": {"a": 1}}, "expected"),
        ({"actions": "accept"}, "expected"),
        ({"actions": [1]}, "Action 1"),
        ({"actions": ["x"]}, "Action 1"),
        ({"actions": [None]}, "Action 1"),
        ({"actions": [{"action": 5}]}, "Action 1"),
        ({"actions": [{"action": "accept", "values": [1, 2]}]}, "values of action 1"),
        ({"actions": [{"action": "accept", "values": "span=1"}]}, "values of action 1"),
        ({"actions": [{"action": "accept", "values": {"span": {"id": 1}}}]}, "'span'"),
        ({"actions": [{"action": "accept", "values": {"note": [{"a": 1}]}}]}, "'note'"),
        ({"actions": [{"action": "accept", "values": {"span": "abc", "version": 1}}]}, "span id"),
        ({"actions": [{"action": "accept", "values": {"span": "1e3", "version": 1}}]}, "span id"),
        ({"actions": [{"action": "accept", "values": {"span": True, "version": 1}}]}, "span id"),
        (
            {"actions": [{"action": "accept", "values": {"span": 10**30, "version": 1}}]},
            "span id",
        ),
        (
            {"actions": [{"action": "reject", "values": {"span": "x", "version_after": 1}}]},
            "span id",
        ),
    ],
)
def test_a_malformed_batch_answers_400_with_a_sentence_and_changes_nothing(
    client, annotator, bt, body, says
):
    client.force_login(annotator)
    response = _post(client, bt, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert says in error and error.endswith(".")
    assert set(Span.objects.filter(transcript=bt).values_list("status", flat=True)) == {"suggested"}


def test_a_well_formed_batch_with_a_numeric_text_span_id_still_runs(client, annotator, bt):
    client.force_login(annotator)
    span = Span.objects.get(transcript=bt)
    response = _post(
        client,
        bt,
        {"actions": [{"action": "accept", "values": {"span": str(span.pk), "version": 1}}]},
    )
    assert response.status_code == 200
    assert [r["status"] for r in response.json()["results"]] == [200]
    span.refresh_from_db()
    assert span.status == "accepted"
