"""The approval screen's review summary: machine proposal vs
decisions, bulk vs one by one, exceptions, flags, non-blocking findings named, who did
what; the approval stores it (counts and ids, no text) in its audit row."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.models import AllowListTerm, Span
from annotations.services import allowlist
from annotations.services import review as rs
from annotations.services import workflow as wf
from annotations.summary import review_summary
from anonreview.core.audit import audit_record
from anonreview.core.models import AuditEvent
from tests.factories import make_suggestion, make_transcript, make_user
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db
S = Transcript.State
TEXT = (
    "PRESIDING COMMISSIONER ALDEN: Good evening, Mr. Quill. Um, you lived in Fresno?\n"
    "INMATE QUILL: Yes, on Larkspur Lane with Dana Quill since May 13, 1980. Um yes.\n"
)


META = {"participants": [{"name": "Jonathon Good", "role": "facilitator"}]}  # made-up


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def at(t, word, nth=0):
    start = -1
    for _ in range(nth + 1):
        start = t.text.index(word, start + 1)
    return start, start + len(word)


def reviewed(annotator, lead):
    """A hearing the annotator reviewed with every kind of decision, then submitted."""
    t = make_transcript(TEXT, state=S.READY, assignees=[annotator], metadata=META)
    proposed = {}
    for word, label, nth in [
        ("ALDEN", "PERSON", 0), ("Quill", "PERSON", 0), ("QUILL", "PERSON", 0),
        ("Um", "PERSON", 0), ("Fresno", "PERSON", 0), ("Larkspur", "LOCATION", 0),
        ("Dana", "PERSON", 0), ("Quill", "PERSON", 1), ("May 13", "DATE", 0),
        ("Good", "PERSON", 0),
    ]:  # fmt: skip
        proposed[(word, nth)] = make_suggestion(t, *at(t, word, nth), label)
    rs.review_assign_entities(transcript=t)

    def fresh(key):
        return Span.objects.get(pk=proposed[key].pk)

    rs.span_accept(span=fresh(("ALDEN", 0)), actor=annotator)  # as proposed, one by one
    rs.span_reject(span=fresh(("Um", 0)), actor=annotator)
    rs.span_reject(span=fresh(("Good", 0)), actor=annotator)
    rs.span_relabel(span=fresh(("Fresno", 0)), actor=annotator, label="LOCATION")
    rs.span_resize(span=fresh(("Larkspur", 0)), actor=annotator, edge="right")  # + "Lane"
    rs.span_resize(span=fresh(("May 13", 0)), actor=annotator, edge="right")  # + ", 1980"
    rs.span_delete(span=fresh(("Dana", 0)), actor=annotator)
    rs.span_add(transcript=t, actor=annotator, start=at(t, "Dana")[0], end=at(t, "Dana")[1],
                label="PERSON")  # fmt: skip
    rs.spans_accept_all(transcript=t, actor=annotator, label="PERSON")  # bulk: the Quills
    audit_record(  # a bulk action of engineer i21's kind: ``after.bulk``
        actor=annotator, event_type="review.reject_form", transcript=t,
        after={"bulk": "form", "spans": [{"id": 1}, {"id": 2}]},
    )  # fmt: skip
    rs.span_flag(span=fresh(("Quill", 1)), actor=annotator, flagged=True, note="Which Quill?")
    allowlist.allowlist_term_add(term="Larkspur Gardens", user=lead)
    rs.leak_exception_add(  # "Good evening": the cover's surname Good, as a greeting
        transcript=t, actor=annotator, start=at(t, "Good")[0], end=at(t, "Good")[1],
        reason="ordinary_word",
    )  # fmt: skip
    wf.transcript_submit(transcript=t, actor=annotator)
    return t


def test_the_summary_counts_each_kind_of_decision_per_label(annotator, lead):
    summary = review_summary(transcript=reviewed(annotator, lead))
    assert summary.proposed == 10
    assert summary.counts["accepted"] == {"PERSON": 4}  # ALDEN; Quill, QUILL, Quill in bulk
    assert summary.counts["rejected"] == {"PERSON": 2}
    assert summary.counts["relabelled"] == {"LOCATION": 1}
    assert summary.counts["resized"] == {"LOCATION": 1, "DATE": 1}
    assert summary.counts["added"] == {"PERSON": 1}
    assert summary.counts["deleted"] == {"PERSON": 1}
    assert "undecided" not in summary.counts
    # two single-span rejects: no form decision, listed apart
    assert summary.rejected_forms == []
    assert [(f.text, f.count) for f in summary.rejected_spans] == [("Good", 1), ("Um", 1)]
    assert [f.text for f in summary.added_forms] == ["Dana"]
    assert summary.rejected_spans[1].url.endswith(
        f"?span={Span.objects.get(transcript_id=summary.transcript_id, status='rejected', start=TEXT.index('Um')).pk}"
    )


def test_bulk_is_told_apart_from_one_by_one(annotator, lead):
    summary = review_summary(transcript=reviewed(annotator, lead))
    assert summary.bulk == {"accept all of a label": 3, "reject form (form)": 2}
    assert summary.one_by_one == 8  # accept, 2 rejects, relabel, 2 resizes, delete, add
    [person] = summary.actors
    assert person.username == "ann" and person.bulk == 5 and person.one_by_one == 8


def test_exceptions_flags_allow_list_terms_and_findings_are_listed(annotator, lead):
    summary = review_summary(transcript=reviewed(annotator, lead))
    assert [(e["text"], e["reason"]) for e in summary.exceptions] == [
        ("Good", "Ordinary word here")
    ]
    assert [(f["text"], f["note"]) for f in summary.flags] == [("Quill", "Which Quill?")]
    assert [a["term"] for a in summary.allowlist_added] == ["Larkspur Gardens"]
    assert summary.blocking == 0
    assert summary.findings == {"Marked “not a leak here”": 1}


def test_the_approval_stores_the_summary_counts_and_ids_without_text(annotator, lead):
    t = reviewed(annotator, lead)
    second = make_user("lead2", role="lead")
    wf.transcript_approve(transcript=t, actor=second)
    event = AuditEvent.objects.get(transcript=t, after__state=S.APPROVED)
    stored = event.after["summary"]
    assert stored["decisions"]["rejected"] == {"PERSON": 2}
    assert stored["bulk"] == {"accept all of a label": 3, "reject form (form)": 2}
    assert stored["exceptions"] and stored["flags"] and stored["allowlist_added"]
    dumped = json.dumps(event.after)
    for word in ("Quill", "QUILL", "Dana", "Fresno", "Larkspur", "Um", "Good", "Which"):
        assert word not in dumped, word


def test_the_summary_is_a_fixed_number_of_queries(annotator, lead):
    t = reviewed(annotator, lead)
    leaks = []
    with CaptureQueriesContext(connection) as small:
        review_summary(transcript=t, leaks=leaks)
    more = make_transcript(TEXT * 30, state=S.IN_REVIEW, assignees=[annotator])
    for i in range(30):
        start = i * len(TEXT) + TEXT.index("Quill")
        span = make_suggestion(more, start, start + 5, "PERSON")
        if i % 2:
            rs.span_reject(span=span, actor=annotator)
    with CaptureQueriesContext(connection) as large:
        review_summary(transcript=more, leaks=leaks)
    assert len(large.captured_queries) <= len(small.captured_queries)


def test_the_lead_sees_the_summary_on_the_overview(client, annotator, lead):
    t = reviewed(annotator, lead)
    client.force_login(lead)
    body = client.get(reverse("annotations:detail", args=[t.pk])).content.decode()
    assert 'id="review-summary"' in body and "Which Quill?" in body
    assert 'data-total="2"' in body and "Ordinary word here" in body
    client.force_login(annotator)
    body = client.get(reverse("annotations:detail", args=[t.pk])).content.decode()
    assert 'id="review-summary"' not in body


def test_reading_mode_names_non_blocking_findings_not_undecided_suggestions(client, annotator):
    t = make_transcript("INMATE QUILL: I met rose there. Rose said so.\n", state=S.SUBMITTED,
                        assignees=[annotator])  # fmt: skip
    for word in ("QUILL", "Rose"):
        start = t.text.index(word)
        Span.objects.create(transcript=t, start=start, end=start + len(word), label="PERSON",
                            status="accepted")  # fmt: skip
    client.force_login(annotator)
    body = client.get(reverse("annotations:review-reading", args=[t.pk])).content.decode()
    assert "undecided suggestions" not in body
    assert "1 non-blocking finding" in body
    assert not AllowListTerm.objects.filter(term="rose").exists()


def test_the_scripted_demo_reviewer_counts_as_bulk_with_its_spans(annotator):
    t = make_transcript(TEXT, state=S.SUBMITTED, assignees=[annotator])
    audit_record(actor=annotator, event_type="review.scripted", transcript=t,
                 after={"accepted": 5, "rejected": 2, "added": 1})  # fmt: skip
    summary = review_summary(transcript=t, leaks=[])
    assert summary.bulk == {"the scripted demo reviewer": 8} and summary.one_by_one == 0


def test_the_changes_view_lists_each_difference_from_the_proposal_in_context(
    client, annotator, lead
):
    from annotations.summary import review_changes

    t = reviewed(annotator, lead)
    kinds = [(c.kind, c.text) for c in review_changes(transcript=t)]
    assert kinds == [
        ("rejected", "Good"), ("rejected", "Um"), ("relabelled", "Fresno"),
        ("resized", "Larkspur Lane"), ("added", "Dana"), ("deleted", "Dana"),
        ("resized", "May 13, 1980"),
    ]  # fmt: skip
    client.force_login(lead)
    body = client.get(reverse("annotations:changes", args=[t.pk])).content.decode()
    assert body.count('class="change change-') == 7 and "PERSON “Fresno”" in body
    client.force_login(annotator)
    assert client.get(reverse("annotations:changes", args=[t.pk])).status_code == 403


def test_a_form_rejected_at_every_mention_is_a_rejected_form_and_a_single_reject_is_not(
    annotator, lead
):
    t = make_transcript(
        "WITNESS: Um, Mr. Quill. Um, yes.\nQ: Good. Um, Fresno?", assignees=[annotator]
    )
    for word in ("Um", "Good", "Quill"):
        for start in [i for i in range(len(t.text)) if t.text.startswith(word, i)]:
            Span.objects.create(transcript=t, start=start, end=start + len(word), label="PERSON")
    rs.review_assign_entities(transcript=t)
    rs.spans_reject_form(transcript=t, actor=annotator, label="PERSON", form="um")
    rs.span_reject(span=Span.objects.get(transcript=t, start=t.text.index("Good")), actor=annotator)
    summary = review_summary(transcript=t)
    assert [(f.text, f.count) for f in summary.rejected_forms] == [("Um", 3)]
    assert [f.text for f in summary.rejected_spans] == ["Good"]


def test_proposals_an_add_over_them_swallowed_are_replaced_by_a_wider_span_not_deleted(
    client, annotator, lead
):
    from annotations.summary import review_changes

    t = make_transcript(TEXT, state=S.IN_REVIEW, assignees=[annotator])
    for word in ("Larkspur", "Lane"):
        make_suggestion(t, *at(t, word), "LOCATION")
    make_suggestion(t, *at(t, "Fresno"), "LOCATION")
    start, end = at(t, "Larkspur Lane")
    rs.span_add(transcript=t, actor=annotator, start=start, end=end, label="LOCATION")
    rs.span_delete(span=Span.objects.get(transcript=t, start=at(t, "Fresno")[0]), actor=annotator)
    summary = review_summary(transcript=t, leaks=[])
    assert summary.counts["replaced"] == {"LOCATION": 2}
    assert summary.counts["deleted"] == {"LOCATION": 1}  # Fresno: no span took its place
    kinds = [(c.kind, c.text) for c in review_changes(transcript=t)]
    assert ("replaced", "Larkspur") in kinds and ("replaced", "Lane") in kinds
    assert ("deleted", "Fresno") in kinds and ("deleted", "Lane") not in kinds
    Transcript.objects.filter(pk=t.pk).update(state=S.SUBMITTED)  # the lead's turn
    client.force_login(lead)
    overview = client.get(reverse("annotations:detail", args=[t.pk])).content.decode()
    assert ">Replaced by a wider span</th>" in overview
    assert 'data-category="replaced" data-total="2"' in overview
    changes = client.get(reverse("annotations:changes", args=[t.pk])).content.decode()
    assert changes.count(">replaced by a wider span</a>") == 2
    assert changes.count(">deleted</a>") == 1
