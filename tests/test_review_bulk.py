"""Bulk review actions at any size, on SQLite and PostgreSQL: 5,000 spans decided in one
action, its answer drawn from what the database holds, and undone in one step."""

import hashlib
import json

import pytest
from django.urls import reverse

from annotations import selectors
from annotations.models import Span
from annotations.services import review as rs
from anonreview.core.models import AuditEvent
from transcripts.models import Transcript, Utterance

HX = {"HTTP_HX_REQUEST": "true"}
FORMS = [
    f"{a}{b}" for a in ("Vel", "Mor", "Tal", "Quen", "Dar") for b in ("ix", "ane", "ost", "un")
]


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def make_bulk_transcript(*, assignees=(), spans: int = 5000, per_line: int = 5, per_page: int = 25):
    """A synthetic transcript whose every line holds ``per_line`` suggested PERSON names
    (20 surface forms), ``spans`` in all, ``per_page`` lines a page."""
    lines, extents = [], []
    offset = 0
    for i in range(spans // per_line):
        prefix = "WITNESS: "
        words = [FORMS[(i * per_line + k) % len(FORMS)] for k in range(per_line)]
        line = prefix + " and ".join(words) + "."
        pos = offset + len(prefix)
        for w in words:
            extents.append((pos, pos + len(w)))
            pos += len(w) + len(" and ")
        lines.append(line)
        offset += len(line) + 1
    text = "\n".join(lines)
    transcript = Transcript.objects.create(
        title="Synthetic bulk hearing",
        text=text,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        state=Transcript.State.READY,
        page_count=(len(lines) + per_page - 1) // per_page,
    )
    utterances, offset = [], 0
    for index, line in enumerate(lines):
        utterances.append(
            Utterance(
                transcript=transcript,
                index=index,
                speaker="WITNESS",
                page=index // per_page + 1,
                start=offset,
                end=offset + len(line),
            )  # fmt: skip
        )
        offset += len(line) + 1
    Utterance.objects.bulk_create(utterances)
    Span.objects.bulk_create(
        Span(
            transcript=transcript,
            start=s,
            end=e,
            label="PERSON",
            score=0.9,
            provenance=[{"detector": "cover", "score": 0.9}],
        )  # fmt: skip
        for s, e in extents
    )
    transcript.assignees.set(assignees)
    rs.review_assign_entities(transcript=transcript)
    return transcript


def _all_windows(transcript) -> str:
    return ",".join(str(w.index) for w in selectors.review_windows(transcript=transcript))


@pytest.fixture
def bulk(annotator):
    return make_bulk_transcript(assignees=[annotator])


def test_utterances_containing_thousands_of_offsets_is_one_bounded_query(bulk):
    offsets = list(Span.objects.filter(transcript=bulk).values_list("start", flat=True))
    assert len(offsets) == 5000
    found = selectors.review_utterances(transcript=bulk, containing=offsets)
    assert len(found) == 1000


def test_answer_rows_of_five_thousand_spans_are_read(bulk):
    ids = set(Span.objects.filter(transcript=bulk).values_list("id", flat=True))
    utterances = selectors.review_utterances(transcript=bulk, pages=[1, 2, 3])
    rows = selectors.review_answer_rows(
        transcript=bulk, spans=ids, entities=set(), utterances=utterances
    )
    assert {r.id for r in rows} == ids


@pytest.mark.django_db(transaction=True)
def test_accepting_five_thousand_spans_of_a_label_in_one_action_answers_200_and_undoes(
    client, annotator, bulk
):
    client.force_login(annotator)
    url = reverse("annotations:review-action", args=[bulk.pk, "accept_all"])
    response = client.post(
        url, {"label": "PERSON", "confirm": "yes", "loaded": _all_windows(bulk)}, **HX
    )
    assert response.status_code == 200, response.content[:300]
    assert Span.objects.filter(transcript=bulk, status="accepted").count() == 5000
    body = response.content.decode()
    assert 'data-decided="5000"' in body
    event = AuditEvent.objects.get(event_type="review.accept_all")
    assert event.after["bulk"] == "label" and event.after["count"] == 5000
    response = client.post(
        reverse("annotations:review-action", args=[bulk.pk, "undo"]),
        {"loaded": _all_windows(bulk)},
        **HX,
    )
    assert response.status_code == 200, response.content[:300]
    assert Span.objects.filter(transcript=bulk, status="suggested").count() == 5000
    assert 'data-decided="0"' in response.content.decode()


def _form_mentions(transcript, form):
    text = transcript.text
    return [s for s in Span.objects.filter(transcript=transcript) if text[s.start : s.end] == form]


def test_rejecting_a_surface_form_rejects_every_mention_in_one_undo_step(bulk, annotator):
    mentions = _form_mentions(bulk, "Velix")
    assert len(mentions) == 250
    Span.objects.filter(pk=mentions[0].pk).update(status="accepted")  # decided ones too
    spans = rs.spans_reject_form(transcript=bulk, actor=annotator, label="PERSON", form="velix")
    assert len(spans) == 250
    assert {s.status for s in _form_mentions(bulk, "Velix")} == {"rejected"}
    assert Span.objects.filter(transcript=bulk, status="rejected").count() == 250
    event = AuditEvent.objects.get(event_type="review.reject_form")
    assert (event.after["bulk"], event.after["count"]) == ("form", 250)
    # the audit row keeps ids, never the transcript's text
    assert "velix" not in json.dumps([event.before, event.after]).lower()
    rs.review_undo(transcript=bulk, actor=annotator)
    statuses = sorted(s.status for s in _form_mentions(bulk, "Velix"))
    assert statuses == ["accepted"] + ["suggested"] * 249


def test_accepting_a_surface_form_leaves_other_forms_and_labels_alone(bulk, annotator):
    spans = rs.spans_accept_form(transcript=bulk, actor=annotator, label="PERSON", form="Morane")
    assert len(spans) == 250 and {s.status for s in spans} == {"accepted"}
    assert Span.objects.filter(transcript=bulk, status="accepted").count() == 250
    event = AuditEvent.objects.get(event_type="review.accept_form")
    assert (event.after["bulk"], event.after["count"]) == ("form", 250)
    rs.review_undo(transcript=bulk, actor=annotator)
    assert not Span.objects.filter(transcript=bulk, status="accepted").exists()
    rs.spans_accept_form(transcript=bulk, actor=annotator, label="PERSON", form="Morane")
    with pytest.raises(rs.ReviewError):
        rs.spans_accept_form(transcript=bulk, actor=annotator, label="LOCATION", form="Morane")


def test_rejecting_all_of_a_group_is_one_event_with_bulk_group(bulk, annotator):
    span = _form_mentions(bulk, "Talost")[0]
    spans = rs.spans_reject_all(transcript=bulk, actor=annotator, entity=span.entity_id)
    assert len(spans) == Span.objects.filter(entity_id=span.entity_id).count() == 250
    assert {s.status for s in Span.objects.filter(entity_id=span.entity_id)} == {"rejected"}
    event = AuditEvent.objects.get(event_type="review.reject_all")
    assert (event.after["bulk"], event.after["count"]) == ("group", 250)
    rs.review_undo(transcript=bulk, actor=annotator)
    assert not Span.objects.filter(transcript=bulk, status="rejected").exists()


def test_accepting_the_rest_of_a_page_leaves_decided_spans_and_other_pages_alone(bulk, annotator):
    on_page_2 = selectors.review_utterances(transcript=bulk, pages=[2])
    first = Span.objects.filter(transcript=bulk, start__gte=on_page_2[0].start).order_by("start")[0]
    rs.span_reject(span=first, actor=annotator, version=first.version)
    spans = rs.spans_accept_page(transcript=bulk, actor=annotator, page=2)
    assert len(spans) == 25 * 5 - 1
    low, high = on_page_2[0].start, on_page_2[-1].end
    inside = Span.objects.filter(transcript=bulk, start__gte=low, start__lt=high)
    assert sorted(inside.values_list("status", flat=True)).count("accepted") == 124
    assert Span.objects.filter(transcript=bulk, status="accepted").count() == 124
    event = AuditEvent.objects.get(event_type="review.accept_page")
    assert (event.after["bulk"], event.after["count"], event.after["page"]) == ("page", 124, 2)


def test_accept_all_of_a_group_marks_its_event_bulk_group(bulk, annotator):
    span = _form_mentions(bulk, "Darun")[0]
    rs.spans_accept_all(transcript=bulk, actor=annotator, entity=span.entity_id)
    event = AuditEvent.objects.get(event_type="review.accept_all")
    assert (event.after["bulk"], event.after["count"]) == ("group", 250)


def test_bulk_actions_refuse_a_reader_who_may_not_edit(bulk, other_annotator):
    with pytest.raises(rs.ReviewPermissionError):
        rs.spans_reject_form(transcript=bulk, actor=other_annotator, label="PERSON", form="Velix")
    assert not Span.objects.filter(transcript=bulk).exclude(status="suggested").exists()


def test_a_bulk_action_of_at_most_200_spans_needs_no_confirmation(client, annotator, bulk):
    client.force_login(annotator)
    url = reverse("annotations:review-action", args=[bulk.pk, "accept_page"])
    response = client.post(url, {"page": "1"})  # plain form, 125 spans: done at once
    assert response.status_code == 302
    assert Span.objects.filter(transcript=bulk, status="accepted").count() == 125
    url = reverse("annotations:review-action", args=[bulk.pk, "reject_form"])
    response = client.post(url, {"label": "PERSON", "form": "Quenost"})  # 250: asks first
    assert response.status_code == 200 and b'name="confirm"' in response.content
    assert not Span.objects.filter(transcript=bulk, status="rejected").exists()


def test_an_answer_that_fails_after_the_save_reloads_instead_of_claiming_nothing_changed(
    client, annotator, bulk, monkeypatch
):
    from annotations.views import review as review_view

    def broken(*args, **kwargs):
        raise RuntimeError("answer failed")

    monkeypatch.setattr(review_view, "answer_context", broken)
    client.force_login(annotator)
    url = reverse("annotations:review-action", args=[bulk.pk, "accept_page"])
    response = client.post(url, {"page": "3", "loaded": "0"}, **HX)
    assert response.status_code == 200 and response["HX-Refresh"] == "true"
    assert Span.objects.filter(transcript=bulk, status="accepted").count() == 125
