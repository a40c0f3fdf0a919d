"""Review page and its htmx actions: fragments, fallbacks, permissions and conflicts."""

import re

import pytest
from django.urls import reverse

from annotations.models import Span
from anonreview.core.models import AuditEvent
from tests.factories import make_user
from tests.test_review_services import at, make_review_transcript, span_at
from transcripts.models import Transcript

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def rt(annotator):
    return make_review_transcript(assignees=[annotator])


def page_url(t):
    return reverse("annotations:review", args=[t.pk])


def action_url(t, name):
    return reverse("annotations:review-action", args=[t.pk, name])


def test_review_page_url_is_the_design_contract(rt):
    assert page_url(rt) == f"/transcripts/{rt.pk}/review/"


def test_page_has_the_three_regions_and_dom_hooks(client, annotator, rt):
    client.force_login(annotator)
    body = client.get(page_url(rt)).content.decode()
    for hook in ('id="original"', 'id="pseudonymized"', 'id="entities"', 'id="progress"'):
        assert hook in body
    quill = span_at(rt, "Quill")
    ref = quill.entity.ref
    mark = re.search(rf'<mark id="s-{quill.pk}"[^>]*>', body).group(0)
    assert f'data-span-id="{quill.pk}"' in mark and f'data-ref="{ref}"' in mark
    assert 'data-label="PERSON"' in mark and 'data-status="suggested"' in mark
    assert re.search(
        rf'<span class="rep[^"]*" id="p-{quill.pk}" data-span-id="{quill.pk}" data-ref="{ref}"',
        body,
    )
    assert f'<li class="ent st-undecided" id="e-{ref}" data-ref="{ref}"' in body
    assert "0</strong> / 10 decided" in body


def test_pseudonymized_pane_replaces_with_tags_and_keeps_rejected_text(client, annotator, rt):
    from annotations.services import review as rs

    rs.span_reject(span=span_at(rt, "Alden"), actor=annotator)
    client.force_login(annotator)
    body = client.get(page_url(rt)).content.decode()
    pseudo = body[body.index('id="pseudonymized"') : body.index('class="rv-side"')]
    assert "[PERSON_" in pseudo and "Calvin" not in pseudo
    assert "Commissioner Alden" in pseudo  # rejected: not replaced
    assert "[MONTH] [DAY], [YEAR]" in pseudo


def test_original_line_text_is_exactly_the_canonical_text(client, annotator, rt):
    client.force_login(annotator)
    body = client.get(page_url(rt)).content.decode()
    utterance = rt.utterances.order_by("index").first()
    inner = re.search(r'<div class="ut" data-start="0">(.*?)</div>', body).group(1)
    import html

    assert html.unescape(re.sub(r"<[^>]+>", "", inner)) == rt.text[utterance.start : utterance.end]


def test_annotator_cannot_open_someone_elses_transcript(client, other_annotator, rt):
    client.force_login(other_annotator)
    assert client.get(page_url(rt)).status_code == 404
    span = span_at(rt, "Calvin")
    response = client.post(action_url(rt, "accept"), {"span": span.pk, "version": 1}, **HX)
    assert response.status_code == 404
    assert span_at(rt, "Calvin").status == "suggested"


def test_htmx_accept_returns_only_oob_fragments(client, annotator, rt):
    client.force_login(annotator)
    span = span_at(rt, "Calvin")
    response = client.post(
        action_url(rt, "accept"), {"span": span.pk, "version": span.version, "loaded": "0"}, **HX
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body
    line = rt.utterances.get(start__lte=span.start, end__gt=span.start)
    assert f'id="uo-{line.index}" data-utt="{line.index}" data-page="1" hx-swap-oob="true"' in body
    assert f'id="up-{line.index}"' in body
    assert re.search(rf'<mark id="s-{span.pk}"[^>]*data-status="accepted"', body)
    assert '<div id="progress"' in body and "1</strong> / 10 decided" in body
    assert '<nav id="entities"' in body and 'id="review-queue"' in body
    assert 'id="toast"' in body and "Accepted" in body
    # Lines that did not change are not sent.
    assert body.count('class="utt"') == 2


def test_plain_form_post_redirects_back_to_the_page(client, annotator, rt):
    client.force_login(annotator)
    span = span_at(rt, "Calvin")
    response = client.post(action_url(rt, "reject"), {"span": span.pk, "version": span.version})
    assert response.status_code == 302 and response["Location"].startswith(page_url(rt))
    assert span_at(rt, "Calvin").status == "rejected"


def test_stale_version_answers_409_with_message_and_refreshed_fragment(client, annotator, rt):
    from annotations.services import review as rs

    other = make_user("ann3", role="annotator")
    rt.assignees.add(other)
    span = span_at(rt, "Calvin")
    rs.span_accept(span=span, actor=other, version=span.version)
    client.force_login(annotator)
    response = client.post(
        action_url(rt, "reject"), {"span": span.pk, "version": span.version, "loaded": "0"}, **HX
    )
    assert response.status_code == 409
    body = response.content.decode()
    assert "changed by ann3" in body
    assert re.search(
        rf'<mark id="s-{span.pk}"[^>]*data-status="accepted"[^>]*data-version="2"', body
    )
    assert span_at(rt, "Calvin").status == "accepted"


def test_refused_action_answers_403_with_message(client, annotator):
    transcript = make_review_transcript(assignees=[annotator], state=Transcript.State.APPROVED)
    client.force_login(annotator)
    span = span_at(transcript, "Calvin")
    response = client.post(action_url(transcript, "accept"), {"span": span.pk, "version": 1}, **HX)
    assert response.status_code == 403
    assert "read-only" in response.content.decode()
    body = client.get(page_url(transcript)).content.decode()
    assert 'data-can-edit="0"' in body and "read-only" in body


def test_returned_transcript_shows_resume_and_resume_reopens_it(client, annotator):
    transcript = make_review_transcript(assignees=[annotator], state=Transcript.State.RETURNED)
    client.force_login(annotator)
    body = client.get(page_url(transcript)).content.decode()
    assert "Resume review" in body
    client.post(action_url(transcript, "resume"))
    transcript.refresh_from_db()
    assert transcript.state == Transcript.State.IN_REVIEW


@pytest.mark.parametrize(
    "action, needle, data, check",
    [
        ("relabel", "Calvin", {"label": "ORGANIZATION"}, lambda s: s.label == "ORGANIZATION"),
        ("resize", "Calvin", {"edge": "left"}, lambda s: s.end - s.start > len("Calvin")),
        ("apply_all", "Fresno", {}, lambda s: Span.objects.filter(label="LOCATION").count() == 3),
        ("delete", "Calvin", {}, lambda s: s is None),
    ],
)
def test_span_actions_through_htmx(client, annotator, rt, action, needle, data, check):
    client.force_login(annotator)
    span = span_at(rt, needle)
    response = client.post(
        action_url(rt, action),
        {"span": span.pk, "version": span.version, "loaded": "0", **data},
        **HX,
    )
    assert response.status_code == 200, response.content.decode()[-300:]
    assert check(Span.objects.filter(pk=span.pk).first())
    assert AuditEvent.objects.filter(event_type=f"review.{action}").count() == 1


def test_add_from_selection_offsets(client, annotator, rt):
    client.force_login(annotator)
    start, end = at(rt.text, "morning")
    response = client.post(
        action_url(rt, "add"), {"start": start, "end": end, "label": "TIME", "loaded": "0"}, **HX
    )
    assert response.status_code == 200
    new = Span.objects.get(transcript=rt, start=start, end=end)
    assert new.status == "added" and new.label == "TIME"
    assert f'id="s-{new.pk}"' in response.content.decode()


def test_merge_split_and_undo_through_htmx(client, annotator, rt):
    client.force_login(annotator)
    dana, quill = span_at(rt, "Dana"), span_at(rt, "Quill")
    response = client.post(
        action_url(rt, "merge"),
        {"source": dana.entity.ref, "target": quill.entity.ref, "span": dana.pk, "loaded": "0"},
        **HX,
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert re.search(
        rf'<span class="rep[^"]*" id="p-{dana.pk}"[^>]*data-ref="{quill.entity.ref}"', body
    )
    response = client.post(action_url(rt, "undo"), {"loaded": "0"}, **HX)
    assert response.status_code == 200 and "Undid merge" in response.content.decode()
    assert span_at(rt, "Dana").entity_id == dana.entity_id
    response = client.post(action_url(rt, "split"), {"span": quill.pk, "loaded": "0"}, **HX)
    assert response.status_code == 200
    assert span_at(rt, "Quill").entity_id != quill.entity_id


def test_accept_all_needs_confirmation_without_htmx(client, annotator, rt):
    client.force_login(annotator)
    response = client.post(action_url(rt, "accept_all"), {"label": "PERSON"})
    assert response.status_code == 200 and b"Confirm" in response.content
    assert span_at(rt, "Calvin").status == "suggested"
    response = client.post(action_url(rt, "accept_all"), {"label": "PERSON", "confirm": "yes"})
    assert response.status_code == 302
    assert set(
        Span.objects.filter(transcript=rt, label="PERSON").values_list("status", flat=True)
    ) == {"accepted"}


def test_filters_dim_non_matching_spans_and_narrow_the_queue(client, annotator, rt):
    client.force_login(annotator)
    body = client.get(page_url(rt), {"label": "LOCATION", "order": "score"}).content.decode()
    calvin = span_at(rt, "Calvin")
    assert re.search(rf'<mark id="s-{calvin.pk}" class="[^"]*\bdim\b', body)
    queue = re.search(r'id="review-queue" hidden data-queue="([^"]*)"', body).group(1)
    import html
    import json

    ids = [row[0] for row in json.loads(html.unescape(queue))]
    fresno = [span_at(rt, "Fresno", 0).pk, span_at(rt, "Fresno", 1).pk]
    assert ids == [fresno[1], fresno[0]]  # scores 0.70 < 0.72: lowest first


def test_window_endpoint_returns_both_panes(client, annotator, rt):
    client.force_login(annotator)
    response = client.get(reverse("annotations:review-window", args=[rt.pk, 0]), **HX)
    body = response.content.decode()
    assert body.startswith('<section class="win loaded" id="wo-0"')
    assert 'id="wp-0" data-window="0" hx-swap-oob="true"' in body


def test_inspector_shows_provenance(client, annotator, rt):
    client.force_login(annotator)
    span = span_at(rt, "Calvin")
    response = client.get(
        reverse("annotations:review-inspector", args=[rt.pk]), {"span": span.pk}, **HX
    )
    body = response.content.decode()
    assert "spacy" in body and "0.88" in body and "presidio" in body


def test_long_transcript_page_renders_one_window_and_placeholders(client, lead):
    from annotations.management.commands.bench_review import build_review_transcript

    transcript = build_review_transcript(seed=3, words=3000, max_spans=300)
    client.force_login(lead)
    body = client.get(page_url(transcript)).content.decode()
    assert body.count('class="win loaded"') == 2  # window 0 in both panes
    assert 'hx-trigger="intersect once, loadnow once"' in body
    assert body.count("<mark ") < Span.objects.filter(transcript=transcript).count()


def test_submit_button_appears_when_every_span_is_decided(client, annotator, rt):
    from annotations.services import review as rs

    rs.spans_accept_all(transcript=rt, actor=annotator, label="PERSON")
    client.force_login(annotator)
    assert 'id="submit-button"' not in client.get(page_url(rt)).content.decode()
    for label in ("LOCATION", "DATE"):
        rs.spans_accept_all(transcript=rt, actor=annotator, label=label)
    body = client.get(page_url(rt)).content.decode()
    assert 'id="submit-button"' in body
    assert f'action="{reverse("annotations:submit", args=[rt.pk])}"' in body
