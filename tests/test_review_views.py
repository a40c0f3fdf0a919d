"""Review page and its htmx actions: fragments, fallbacks, permissions and conflicts."""

import html
import json
import re

import pytest
from django.urls import reverse

from annotations.models import Span
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript, make_user
from tests.test_review_locking import group_version_of
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
    assert f'<li class="ent st-undecided" id="e-{quill.entity_id}" data-ref="{ref}"' in body
    assert "0</strong> / 10 decided" in body


def test_pseudonymized_pane_replaces_with_tags_and_keeps_rejected_text(client, annotator, rt):
    from annotations.services import review as rs

    rs.span_reject(span=span_at(rt, "Alden"), actor=annotator)
    client.force_login(annotator)
    body = client.get(page_url(rt)).content.decode()
    pseudo = body[body.index('id="pseudonymized"') : body.index('class="rv-side"')]
    assert "[PERSON_" in pseudo and "Calvin" not in pseudo
    alden = span_at(rt, "Alden")
    # Rejected: not replaced, but visibly a decision (not like text nobody detected).
    assert f'Commissioner <span class="kept" id="k-{alden.pk}"' in pseudo
    assert f'id="p-{alden.pk}"' not in pseudo
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


def test_htmx_accept_returns_only_oob_fragments_with_the_span_alone(client, annotator, rt):
    client.force_login(annotator)
    span = span_at(rt, "Calvin")
    response = client.post(
        action_url(rt, "accept"), {"span": span.pk, "version": span.version, "loaded": "0"}, **HX
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "<html" not in body
    # The span's extent did not change: its new attributes, not its line.
    patch = re.search(
        r"<div id=\"span-patch\" hidden hx-swap-oob=\"true\" data-spans='([^']*)'", body
    )
    rows = json.loads(html.unescape(patch.group(1)))
    assert [r[0] for r in rows] == [span.pk] and rows[0][1:3] == ["PERSON", "accepted"]
    assert rows[0][4] == span.entity.ref and rows[0][5] == f"[{span.entity.ref}]"
    assert 'class="utt"' not in body
    assert '<div id="progress"' in body and "1</strong> / 10 decided" in body
    # Only what changed: the group's entity row and its label's header, not the list.
    assert '<nav id="entities"' not in body and 'id="review-queue"' not in body
    assert f'id="e-{span.entity_id}" data-ref="{span.entity.ref}"' in body
    assert body.count('<li class="ent') == 1 and 'id="eh-PERSON"' in body
    assert 'id="queue-patch"' in body and 'id="inspector"' not in body
    assert 'id="toast"' in body and "Accepted" in body
    assert re.fullmatch(r"app;dur=\d+\.\d", response["Server-Timing"])  # bench_review


def test_htmx_resize_sends_the_whole_touched_line_in_both_panes(client, annotator, rt):
    client.force_login(annotator)
    span = span_at(rt, "Fresno")
    response = client.post(
        action_url(rt, "resize"),
        {"span": span.pk, "version": span.version, "edge": "right", "loaded": "0"},
        **HX,
    )
    assert response.status_code == 200, response.content
    body = response.content.decode()
    line = rt.utterances.get(start__lte=span.start, end__gt=span.start)
    assert (
        f'id="uo-{line.index}" data-utt="{line.index}" data-page="{line.page}" hx-swap-oob="true"'
        in body
    )
    assert f'id="up-{line.index}"' in body
    assert "data-spans='[]'" in body
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
        {
            "source": dana.entity.ref,
            "target": quill.entity.ref,
            "span": dana.pk,
            "loaded": "0",
            "group_version": [
                f"{dana.entity.ref}:{group_version_of(rt, dana.entity_id)}",
                f"{quill.entity.ref}:{group_version_of(rt, quill.entity_id)}",
            ],
        },
        **HX,
    )
    assert response.status_code == 200
    body = response.content.decode()
    patch = json.loads(html.unescape(re.search(r"data-spans='([^']*)'", body).group(1)))
    rows = {r[0]: r for r in patch}  # the moved mention's new ref and tag, as attributes
    assert rows[dana.pk][4] == quill.entity.ref and rows[dana.pk][5] == f"[{quill.entity.ref}]"
    response = client.post(action_url(rt, "undo"), {"loaded": "0"}, **HX)
    assert response.status_code == 200 and "Undid merge" in response.content.decode()
    assert span_at(rt, "Dana").entity_id == dana.entity_id
    quill = span_at(rt, "Quill")
    response = client.post(
        action_url(rt, "split"),
        {"span": quill.pk, "version": quill.version, "loaded": "0"},
        **HX,
    )
    assert response.status_code == 200
    assert span_at(rt, "Quill").entity_id != quill.entity_id


def test_accept_all_above_the_threshold_needs_confirmation_without_htmx(
    client, annotator, rt, monkeypatch
):
    from annotations.services import review as review_services

    monkeypatch.setattr(review_services, "CONFIRM_ABOVE", 3)  # rt has 7 PERSON suggestions
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


def test_window_endpoint_swaps_only_the_pseudonymized_section_out_of_band(client, annotator, rt):
    # Its lines are the section's content, not fragments of their own: a line marked out
    # of band had no target on the page yet and was left out, so the section came empty.
    client.force_login(annotator)
    response = client.get(reverse("annotations:review-window", args=[rt.pk, 0]), **HX)
    body = response.content.decode()
    assert body.count('id="up-') == rt.utterances.count() > 0
    assert body.count("hx-swap-oob") == 1


def test_inspector_shows_provenance(client, annotator, rt):
    client.force_login(annotator)
    span = span_at(rt, "Calvin")
    response = client.get(
        reverse("annotations:review-inspector", args=[rt.pk]), {"span": span.pk}, **HX
    )
    body = response.content.decode()
    assert "spacy" in body and "0.88" in body and "presidio" in body


def test_long_transcript_page_renders_one_window_and_placeholders(client, lead):
    from annotations.benchmarks.review_transcript import build_review_transcript

    transcript = build_review_transcript(seed=3, words=3000, max_spans=300)
    client.force_login(lead)
    body = client.get(page_url(transcript)).content.decode()
    assert body.count('class="win loaded"') == 2  # window 0 in both panes
    assert body.count('data-url="/transcripts/') >= 1  # the rest load as they near the view
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


# --- An action's label is no filter; counts; merge preview; styles ------------


@pytest.mark.parametrize(
    "action, data",
    [
        ("relabel", {"label": "ORGANIZATION"}),
        ("add", {"label": "TIME"}),
        ("accept_all", {"label": "DATE", "confirm": "yes"}),
    ],
)
def test_an_actions_label_is_not_read_as_the_label_filter(client, annotator, rt, action, data):
    client.force_login(annotator)
    span = span_at(rt, "Calvin")
    if action == "add":
        start, end = at(rt.text, "morning")
        data = {**data, "start": start, "end": end}
    else:
        data = {**data, "span": span.pk, "version": span.version}
    response = client.post(action_url(rt, action), {**data, "loaded": "0"}, **HX)
    assert response.status_code == 200, response.content.decode()[-300:]
    body = response.content.decode()
    assert " dim" not in body  # no mark of another label is dimmed as filtered out
    # Only groups left without mentions are removed, not other labels' groups.
    for gone in re.findall(r'id="e-(\d+)" hx-swap-oob="delete"', body):
        assert not Span.objects.filter(entity_id=int(gone)).exists()
    assert '<section id="eg-' not in body
    # A filter in the query string still applies (and only there).
    response = client.post(
        action_url(rt, "accept") + "?label=LOCATION",
        {"span": span_at(rt, "Quill").pk, "version": 1, "loaded": "0"},
        **HX,
    )
    assert "dim" in response.content.decode()


def test_suggest_at_all_occurrences_counts_only_occurrences_without_a_span(client, annotator):
    text = "INMATE QUILL: Tulare. I grew up in Tulare.\nATTORNEY VANCE: Tulare County, Tulare."
    transcript = make_transcript(text, assignees=[annotator])
    from annotations.services import review as rs

    first = rs.span_add(transcript=transcript, actor=annotator, label="LOCATION",
                        start=text.index("Tulare"), end=text.index("Tulare") + 6)[0]  # fmt: skip
    second = text.index("Tulare", text.index("Tulare") + 1)
    rs.span_add(transcript=transcript, actor=annotator, label="LOCATION",
                start=second, end=second + 6)  # fmt: skip
    client.force_login(annotator)
    inspector = reverse("annotations:review-inspector", args=[transcript.pk])
    body = client.get(inspector, {"span": first.pk}, **HX).content.decode()
    assert "Suggest at all occurrences (2)" in body  # 4 occurrences, 2 already spans
    first.refresh_from_db()
    client.post(
        action_url(transcript, "apply_all"), {"span": first.pk, "version": first.version}, **HX
    )
    body = client.get(inspector, {"span": first.pk}, **HX).content.decode()
    assert re.search(r'id="apply-all" disabled[^>]*>Suggest at all occurrences \(0\)', body)


def test_merge_preview_shows_both_groups_surface_forms(client, annotator, rt):
    client.force_login(annotator)
    dana, quill = span_at(rt, "Dana").entity, span_at(rt, "Quill").entity
    response = client.get(
        reverse("annotations:review-merge-preview", args=[rt.pk]),
        {"source": dana.ref, "target": quill.ref},
        **HX,
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert dana.ref in body and quill.ref in body
    assert "“Dana” ×1" in body and "“Quill” ×4" in body
    assert span_at(rt, "Dana").entity_id == dana.pk  # asking merges nothing


def test_inspector_names_merge_targets_and_offers_to_split_a_spelling_variant(client, annotator):
    text = (
        "PRESIDING COMMISSIONER ALDEN: Mr. Walker, good morning. Mr. Walkor, yes.\n"
        "INMATE WALKER: Yes. Walker is my name, and Walkor is how they spelled it."
    )
    transcript = make_transcript(text, assignees=[annotator])
    from annotations.services import review as rs

    for needle, nth in (("Walker", 0), ("Walkor", 0), ("Walker", 1), ("Walkor", 1)):
        start, end = at(text, needle, nth)
        Span.objects.create(transcript=transcript, start=start, end=end, label="PERSON")
    start, end = at(text, "ALDEN")
    Span.objects.create(transcript=transcript, start=start, end=end, label="PERSON")
    rs.review_assign_entities(transcript=transcript)
    walker, walkor = span_at(transcript, "Walker"), span_at(transcript, "Walkor")
    client.force_login(annotator)
    inspector = reverse("annotations:review-inspector", args=[transcript.pk])
    body = client.get(inspector, {"span": walker.pk}, **HX).content.decode()
    if walker.entity_id != walkor.entity_id:
        # Two groups: the other is proposed as the same person, and targets show names.
        assert f'data-merge-target="{walkor.entity.ref}"' in body
        assert f"{walkor.entity.ref} — Walkor" not in body  # the targets load on demand
        targets = reverse("annotations:review-merge-targets", args=[transcript.pk])
        assert (
            f"{walkor.entity.ref} — Walkor"
            in client.get(targets, {"span": walker.pk}, **HX).content.decode()
        )
        rs.entity_merge(transcript=transcript, source=walkor.entity.ref,
                        target=walker.entity.ref, actor=annotator)  # fmt: skip
        body = client.get(inspector, {"span": walker.pk}, **HX).content.decode()
    # One group with two spellings: the variant can be split out at once.
    assert 'data-split-form="Walkor"' in body
    walker.refresh_from_db()
    group = f"{walker.entity.ref}:{group_version_of(transcript, walker.entity_id)}"
    assert f'name="group_version" value="{group}"' in body  # the split form carries it
    response = client.post(
        action_url(transcript, "split"),
        {
            "span": walker.pk,
            "version": walker.version,
            "form": "Walkor",
            "group_version": group,
            "loaded": "0",
        },
        **HX,
    )
    assert response.status_code == 200
    walkors = Span.objects.filter(
        transcript=transcript, start__in=[at(text, "Walkor", n)[0] for n in (0, 1)]
    )
    assert len({s.entity_id for s in walkors}) == 1
    assert walkors[0].entity_id != span_at(transcript, "Walker").entity_id


def test_lone_safety_net_finds_are_marked_as_possible_misses(client, annotator, rt):
    span = span_at(rt, "Alden")
    span.provenance = [{"detector": "safety_net", "score": 0.3}]
    span.save(update_fields=["provenance"])
    client.force_login(annotator)
    body = client.get(page_url(rt)).content.decode()
    assert re.search(rf'<mark id="s-{span.pk}" class="[^"]*\bmiss\b', body)
    calvin = span_at(rt, "Calvin")
    assert not re.search(rf'<mark id="s-{calvin.pk}" class="[^"]*\bmiss\b', body)
    body = client.get(page_url(rt), {"detector": "safety_net"}).content.decode()
    assert "Possible misses (safety_net)" in body


def test_a_span_can_be_flagged_for_the_lead_with_a_comment(client, annotator, rt):
    client.force_login(annotator)
    span = span_at(rt, "Calvin")
    response = client.post(
        action_url(rt, "flag"),
        {
            "span": span.pk,
            "version": span.version,
            "flagged": "1",
            "note": "Same man?",
            "loaded": "0",
        },
        **HX,
    )
    assert response.status_code == 200
    span.refresh_from_db()
    assert span.flagged and span.lead_note == "Same man?" and span.version == 1
    patch = re.search(r"data-spans='([^']*)'", response.content.decode()).group(1)
    (row,) = json.loads(html.unescape(patch))
    assert row[0] == span.pk and "flagged" in row[6].split()
    assert AuditEvent.objects.filter(event_type="review_note.flag", span=span).count() == 1
    body = client.get(
        reverse("annotations:review-inspector", args=[rt.pk]), {"span": span.pk}, **HX
    )
    assert 'value="Same man?"' in body.content.decode()
    # A flag is not a decision: undo leaves it alone (nothing to undo here).
    response = client.post(action_url(rt, "undo"), {"loaded": "0"}, **HX)
    assert "Nothing to undo" in response.content.decode()
    assert Span.objects.get(pk=span.pk).flagged


def test_reading_mode_shows_the_release_text_and_highlights_what_still_reads_as_a_name(
    client, annotator, rt
):
    from annotations.services import review as rs

    quill = span_at(rt, "Quill")
    rs.span_accept(span=quill, actor=annotator)  # "Quill" replaced; its other mentions leak
    client.force_login(annotator)
    body = client.get(reverse("annotations:review-reading", args=[rt.pk])).content.decode()
    text = body[body.index('id="reading-text"') :]
    assert f'data-span-id="{quill.pk}"' in text and "[PERSON_" in text
    assert '<mark class="leak' in text and ">Quill</a></mark>" in text
    assert 'id="original"' not in body  # the pseudonymized text alone


def test_the_inspector_answers_the_page_in_about_5_kb_on_a_long_hearing(client, annotator):
    import statistics

    from annotations.benchmarks.review_transcript import build_review_transcript

    transcript = build_review_transcript(seed=7, words=15000, max_spans=1500, assignees=[annotator])
    client.force_login(annotator)
    url = reverse("annotations:review-inspector", args=[transcript.pk])
    sizes = [
        len(client.get(url, {"span": s.pk}, **HX).content)
        # every 20th span: a sparser sample's median moves with which spans it meets
        # (every 100th read 5,083 bytes where every 10th reads 4,668)
        for s in Span.objects.filter(transcript=transcript).order_by("start")[::20]
    ]
    assert statistics.median(sizes) <= 5000, sizes  # 25-31 KB with per-form tokens and indentation
    assert max(sizes) <= 6000, sizes
