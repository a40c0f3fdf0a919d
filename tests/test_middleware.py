"""Bad input answers 400 with a sentence, never 500: a NUL byte in
each query string or form field the issue lists, and an absurd audit date."""

import pytest
from django.test import Client
from django.urls import reverse

from annotations.models import AllowListTerm, Span
from anonreview.middleware import NUL_MESSAGE
from tests.test_review_services import make_review_transcript, span_at

pytestmark = pytest.mark.django_db
NUL = "\x00"


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def lead_client(lead):
    client = Client(raise_request_exception=False)
    client.force_login(lead)
    return client


def _answer_is_a_sentence(response):
    assert response.status_code == 400, response.status_code
    assert response.content.decode() == NUL_MESSAGE


@pytest.mark.parametrize("field", ["assignee", "state", "page"])
def test_queue_filter_with_a_nul(lead_client, field):
    _answer_is_a_sentence(lead_client.get("/transcripts/", {field: NUL}))


@pytest.mark.parametrize("field", ["user", "action", "from", "to"])
def test_audit_filter_with_a_nul(lead_client, annotator, field):
    t = make_review_transcript(assignees=[annotator])
    _answer_is_a_sentence(lead_client.get(reverse("transcripts:audit-all"), {field: NUL}))
    url = reverse("transcripts:audit", args=[t.pk])
    _answer_is_a_sentence(lead_client.get(url, {field: f"x{NUL}"}))


def test_allow_list_term_with_a_nul(lead_client):
    before = AllowListTerm.objects.count()
    response = lead_client.post(reverse("annotations:allowlist"), {"term": f"Grace{NUL}"})
    _answer_is_a_sentence(response)
    assert AllowListTerm.objects.count() == before


def test_flag_note_with_a_nul(client, annotator):
    t = make_review_transcript(assignees=[annotator])
    span = span_at(t, "Calvin")
    client.force_login(annotator)
    url = reverse("annotations:review-action", args=[t.pk, "flag"])
    response = client.post(
        url, {"span": span.pk, "version": span.version, "flagged": "1", "note": f"a{NUL}b"}
    )
    _answer_is_a_sentence(response)
    assert not Span.objects.get(pk=span.pk).flagged


def test_accept_all_entity_with_a_nul(client, annotator):
    t = make_review_transcript(assignees=[annotator])
    client.force_login(annotator)
    url = reverse("annotations:review-action", args=[t.pk, "accept_all"])
    _answer_is_a_sentence(client.post(url, {"entity": f"PERSON_1{NUL}", "confirm": "yes"}))


def test_merge_ref_with_a_nul(client, annotator):
    t = make_review_transcript(assignees=[annotator])
    client.force_login(annotator)
    url = reverse("annotations:review-action", args=[t.pk, "merge"])
    _answer_is_a_sentence(
        client.post(url, {"source": NUL, "target": "PERSON_1", "group_version": f"{NUL}:1"})
    )


def test_assign_username_with_a_nul(lead_client, annotator):
    t = make_review_transcript(assignees=[annotator])
    url = reverse("transcripts:assign", args=[t.pk])
    _answer_is_a_sentence(lead_client.post(url, {"annotator": f"ann{NUL}"}))
    assert list(t.assignees.all()) == [annotator]


def test_a_nul_in_a_field_name_is_refused_too(lead_client):
    _answer_is_a_sentence(lead_client.get("/transcripts/", {f"a{NUL}": "1"}))


@pytest.mark.parametrize(
    ("value", "sentence"),
    [
        ("9999-12-31", "Give a date between 1900-01-01 and 2199-12-31."),
        ("0001-01-01", "Give a date between 1900-01-01 and 2199-12-31."),
        ("2024-13-45", "Write dates as YYYY-MM-DD, for example 2024-05-13."),
    ],
)
@pytest.mark.parametrize("field", ["from", "to"])
def test_an_absurd_audit_date_is_a_400_with_a_sentence(lead_client, field, value, sentence):
    response = lead_client.get(reverse("transcripts:audit-all"), {field: value})
    assert response.status_code == 400
    assert response.content.decode() == sentence


def test_an_ordinary_audit_date_still_filters(lead_client):
    response = lead_client.get(reverse("transcripts:audit-all"), {"from": "2024-01-01"})
    assert response.status_code == 200
