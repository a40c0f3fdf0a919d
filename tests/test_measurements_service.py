"""The dashboard's figures on a small corpus computed by hand.

Two approved transcripts, reviewed through the real review services:

T1 "ALDEN: Mr. Quill lives in Fresno."   (8 tokens as exported: ALDEN : Mr. Quill … Fresno .)
   machine: ALDEN PERSON [cover], Quill PERSON [cover, spacy], Fresno PERSON [spacy],
            lives PERSON [spacy]
   review:  accept ALDEN, accept Quill, relabel Fresno → LOCATION, reject lives
T2 "QUILL: I was born in 1990."          (8 tokens)
   machine: QUILL PERSON [cover]
   review:  accept QUILL, add 1990 DATE

Table 3 (exact = token here, every span is one token):
   PERSON   tp 3 (ALDEN, Quill, QUILL)  fp 2 (Fresno as PERSON, lives)  fn 0 → P .6  R 1   F1 .75
   LOCATION fn 1; DATE fn 1
   overall  tp 3 fp 2 fn 2 → P .6 R .6 F1 .6;  leaked gold tokens: 1 (1990)
Table 5: cover tp 3 fp 0 fn 2 → P 1 R .6 F1 .75;  spacy tp 1 fp 2 fn 4 → P 1/3 R .2 F1 .25
Corpus: PERSON 3, LOCATION 1, DATE 1 = 5 entities, 16 tokens → 312.5 per 1,000 tokens
Effort: 6 actions / 16 tokens → 375 per 1,000; 5 suggestions, 3 accepted unchanged (.6);
        added DATE 1; time in review 600 s and 300 s (mean 450 s)
"""

from datetime import timedelta

import pytest
from django.utils import timezone

from annotations import selectors
from annotations.services import measurements as m
from annotations.services import review
from annotations.services import workflow as wf
from anonreview.core.models import AuditEvent
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Transcript

S = Transcript.State
T1 = "ALDEN: Mr. Quill lives in Fresno."
T2 = "QUILL: I was born in 1990."
META = {
    "participants": [{"name": "Ann Alden", "role": "Presiding Commissioner"}],
    "incarcerated_person": "Tom Quill",
}


def machine(t, word, label, *detectors):
    start = t.text.index(word)
    return make_suggestion(t, start, start + len(word), label, detectors=detectors)


def set_review_time(t, seconds):
    start = timezone.now() - timedelta(hours=2)
    events = AuditEvent.objects.filter(transcript=t, event_type="transcript.transition")
    events.filter(after__state=S.IN_REVIEW).update(created_at=start)
    events.filter(after__state=S.SUBMITTED).update(created_at=start + timedelta(seconds=seconds))


@pytest.fixture
def corpus(annotator, lead):
    t1 = make_transcript(T1 + "\n", assignees=[annotator], metadata=META)
    t2 = make_transcript(T2 + "\n", assignees=[annotator], metadata=META)
    alden = machine(t1, "ALDEN", "PERSON", "cover")
    quill = machine(t1, "Quill", "PERSON", "cover", "spacy")
    fresno = machine(t1, "Fresno", "PERSON", "spacy")
    lives = machine(t1, "lives", "PERSON", "spacy")
    quill2 = machine(t2, "QUILL", "PERSON", "cover")
    for t in (t1, t2):
        wf.transcript_start_review(transcript=t, actor=annotator)
    review.span_accept(span=alden, actor=annotator)
    review.span_accept(span=quill, actor=annotator)
    review.span_relabel(span=fresno, actor=annotator, label="LOCATION")
    review.span_reject(span=lives, actor=annotator)
    review.span_accept(span=quill2, actor=annotator)
    start = T2.index("1990")
    review.span_add(transcript=t2, actor=annotator, start=start, end=start + 4, label="DATE")
    for t, seconds in ((t1, 600), (t2, 300)):
        wf.transcript_submit(transcript=t, actor=annotator)
        set_review_time(t, seconds)
        wf.transcript_approve(transcript=t, actor=lead)
    return t1, t2


def test_machine_predictions_are_what_the_detectors_proposed(corpus):
    t1, t2 = corpus
    preds = selectors.machine_predictions(t1)
    assert [(t1.text[p.start : p.end], p.label) for p in preds] == [
        ("ALDEN", "PERSON"),
        ("Quill", "PERSON"),
        ("lives", "PERSON"),
        ("Fresno", "PERSON"),  # as proposed, before the reviewer relabelled it
    ]
    assert [p.label for p in selectors.machine_predictions(t2)] == [
        "PERSON"
    ]  # the added DATE is not


def test_a_suggestion_the_reviewer_deleted_still_counts_as_proposed(annotator):
    t = make_transcript(T1 + "\n", assignees=[annotator], metadata=META)
    lives = machine(t, "lives", "PERSON", "spacy")
    quill = machine(t, "Quill", "PERSON", "cover")
    wf.transcript_start_review(transcript=t, actor=annotator)
    review.span_delete(span=lives, actor=annotator)
    review.span_resize(span=quill, actor=annotator, edge="left", grow=True)  # "Mr. Quill"
    preds = selectors.machine_predictions(t)
    assert [(t.text[p.start : p.end], p.detectors) for p in preds] == [
        ("Quill", [{"detector": "cover", "score": 0.9}]),
        ("lives", [{"detector": "spacy", "score": 0.9}]),
    ]
    record = m.review_record(t)
    assert (record.suggestions, record.accepted_unchanged) == (2, 0)


def test_undoing_a_deletion_links_the_span_to_its_proposal_again(annotator):
    t = make_transcript(T1 + "\n", assignees=[annotator], metadata=META)
    quill = machine(t, "Quill", "PERSON", "cover")
    proposal = quill.proposal_id
    wf.transcript_start_review(transcript=t, actor=annotator)
    review.span_delete(span=quill, actor=annotator)
    review.review_undo(transcript=t, actor=annotator)
    restored = t.spans.get(pk=quill.pk)
    assert restored.proposal_id == proposal
    review.span_accept(span=restored, actor=annotator)
    record = m.review_record(t)
    assert (record.suggestions, record.accepted_unchanged) == (1, 1)


def test_table3_and_table5_match_the_hand_computed_figures(corpus):
    snap = m.dashboard_compute(rerun=False)
    t3 = snap["table3"]
    assert t3["overall"]["exact"] == pytest.approx(
        {"p": 0.6, "r": 0.6, "f1": 0.6, "tp": 3, "fp": 2, "fn": 2}
    )
    assert t3["overall"]["token"] == t3["overall"]["exact"]
    assert t3["labels"]["PERSON"]["exact"] == pytest.approx(
        {"p": 0.6, "r": 1.0, "f1": 0.75, "tp": 3, "fp": 2, "fn": 0}
    )
    assert t3["labels"]["LOCATION"]["exact"]["fn"] == 1
    assert t3["labels"]["DATE"]["exact"]["fn"] == 1
    assert t3["leaked_tokens"] == 1
    cover, spacy = snap["table5"]["cover"]["exact"], snap["table5"]["spacy"]["exact"]
    assert cover == pytest.approx({"p": 1.0, "r": 0.6, "f1": 0.75, "tp": 3, "fp": 0, "fn": 2})
    assert spacy == pytest.approx({"p": 1 / 3, "r": 0.2, "f1": 0.25, "tp": 1, "fp": 2, "fn": 4})
    assert snap["table8"]["available"] is False


def test_corpus_and_effort_match_the_hand_computed_figures(corpus):
    snap = m.dashboard_compute(rerun=False)
    c = snap["corpus"]
    assert (c["transcripts"], c["tokens"], c["entities"]) == (2, 16, 5)
    assert c["per_1000_tokens"] == pytest.approx(5000 / 16)
    assert {k: v["count"] for k, v in c["labels"].items()} == {
        "PERSON": 3,
        "LOCATION": 1,
        "DATE": 1,
    }
    e = snap["effort"]
    assert e["actions"] == 6
    assert e["actions_per_1000_tokens"] == pytest.approx(6000 / 16)
    assert e["scripted_left_out"] == 0
    assert (e["suggestions"], e["accepted_unchanged"]) == (5, 3)
    assert e["accepted_unchanged_share"] == pytest.approx(0.6)
    assert e["added_per_label"] == {"DATE": 1}
    assert e["review_seconds_total"] == pytest.approx(900)
    assert e["review_seconds_mean"] == pytest.approx(450)
    assert sum(n for _, n in e["per_day"]) == 6
    assert all(r["submitted_at"] for r in e["per_transcript"])


def test_table8_ablation_reruns_detection_without_the_cover_page_detector(corpus):
    from annotations.services.annotation import ensemble_build
    from engine.detectors.cover import CoverPageDetector
    from engine.detectors.propagation import PropagationDetector

    ensemble = ensemble_build(detectors=[CoverPageDetector(), PropagationDetector()], allow_list=[])
    snap = m.dashboard_compute(rerun=True, ensemble=ensemble)
    t8 = snap["table8"]
    assert t8["available"] is True and t8["detector"] == "cover"
    with_cover = t8["with"]["labels"]["PERSON"]["exact"]
    # The cover page names every participant: ALDEN, Quill and QUILL are found.
    assert (with_cover["tp"], with_cover["fn"]) == (3, 0)
    # Without it nothing is left to propose (propagation only spreads what others found).
    without = t8["without"]["overall"]["exact"]
    assert (without["tp"], without["fp"], without["fn"]) == (0, 0, 5)
    assert t8["without"]["detectors_run"] == ["propagation"]
    # Each detector's own output in the full re-run, scored alone: the cover page finds
    # the three names; propagation re-finds them from the cover's detections.
    assert t8["with"]["alone"]["cover"]["exact"]["tp"] == 3
    assert set(t8["with"]["alone"]) <= {"cover", "propagation"}


def test_only_approved_originals_count_as_gold(corpus, annotator):
    t1, _ = corpus
    make_transcript("OTHER: Submitted, not approved.\n", state=S.SUBMITTED, assignees=[annotator])
    assert [t.pk for t in selectors.gold_transcripts()] == [t1.pk, corpus[1].pk]


def test_agreement_on_a_double_annotated_transcript(annotator, other_annotator, lead):
    from transcripts.services.assignment import transcript_assign

    t = make_transcript(T1 + "\n", assignees=[annotator])
    for word, label in (("ALDEN", "PERSON"), ("Quill", "PERSON"), ("Fresno", "LOCATION")):
        machine(t, word, label, "cover")
    transcript_assign(transcript=t, annotators=[annotator, other_annotator], actor=lead)
    copy = Transcript.objects.get(double_of=t)
    # First annotator accepts all three; the second rejects Fresno.
    for span in t.spans.all():
        review.span_accept(span=span, actor=annotator)
    for span in copy.spans.all():
        if copy.text[span.start : span.end] == "Fresno":
            review.span_reject(span=span, actor=other_annotator)
        else:
            review.span_accept(span=span, actor=other_annotator)
    result = m.agreement_for_transcript(t)
    assert result["final"] is False  # neither has submitted
    assert m.agreement_for_transcript(copy)["copy_id"] == copy.pk
    # 9 tokens; they differ on one (Fresno): po = 8/9; pe = (2*2 + 6*7)/81 + (1*0)/81 = 46/81
    assert result["observed"] == pytest.approx(8 / 9)
    assert result["kappa"] == pytest.approx((8 / 9 - 46 / 81) / (1 - 46 / 81))
    assert result["span"]["tp"] == 2 and result["span"]["fn"] == 1 and result["span"]["fp"] == 0
    assert result["labels"]["PERSON"]["span"]["f1"] == pytest.approx(1.0)
    assert result["labels"]["LOCATION"]["span"]["f1"] == pytest.approx(0.0)
    # Only pairs both annotators submitted count on the dashboard.
    assert selectors.double_pairs() == []
    for tr, who in ((t, annotator), (copy, other_annotator)):
        tr.refresh_from_db()
        assert tr.state == S.IN_REVIEW  # the first review action started the review
        wf.transcript_submit(transcript=tr, actor=who)
    assert selectors.double_pairs() == [(t, copy)]
    assert m.dashboard_compute(rerun=False)["agreement"]["kappa"] == pytest.approx(result["kappa"])


def test_each_approval_queues_a_dashboard_recompute_whose_figures_need_no_click(
    annotator, lead, settings, django_capture_on_commit_callbacks
):
    """A fresh install (load_demo approves its scripted hearing) shows figures without a
    click: the approval queues the recompute job, and running it fills the dashboard."""
    from transcripts.models import Job

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    t = make_transcript(T1 + "\n", assignees=[annotator], metadata=META)
    spans = [machine(t, "ALDEN", "PERSON", "cover"), machine(t, "Quill", "PERSON", "cover")]
    fresno = machine(t, "Fresno", "PERSON", "spacy")
    wf.transcript_start_review(transcript=t, actor=annotator)
    for span in spans:
        review.span_accept(span=span, actor=annotator)
    review.span_relabel(span=fresno, actor=annotator, label="LOCATION")
    wf.transcript_submit(transcript=t, actor=annotator)
    assert m.dashboard_latest() is None
    with django_capture_on_commit_callbacks(execute=True):
        wf.transcript_approve(transcript=t, actor=lead)
    job = Job.objects.get(result__kind=m.DASHBOARD_MARK)
    assert job.status == Job.Status.QUEUED
    m.dashboard_recompute_job(job_id=job.pk, rerun=False)
    snapshot = m.dashboard_latest().result
    assert [x["id"] for x in snapshot["transcripts"]] == [t.pk]


def test_effort_counts_decisions_by_kind_time_on_task_and_leaves_exports_out(annotator, lead):
    from django.db.models import Q

    from anonreview.core.audit import audit_record

    text = "ALDEN: Mr. Quill met Ann Lee in Fresno on Monday.\n"
    t = make_transcript(text, assignees=[annotator], metadata=META)
    alden = machine(t, "ALDEN", "PERSON", "cover")
    for word in ("Quill", "Ann", "Lee"):
        machine(t, word, "PERSON", "spacy")
    fresno = machine(t, "Fresno", "LOCATION", "spacy")
    machine(t, "Monday", "DATE", "presidio")
    wf.transcript_start_review(transcript=t, actor=annotator)
    review.span_accept(span=alden, actor=annotator)  # one by one
    review.span_reject(span=fresno, actor=annotator)  # one by one
    review.spans_accept_all(transcript=t, actor=annotator, label="PERSON")  # 3 by label
    review.spans_accept_all(transcript=t, actor=annotator, label="DATE")  # 1 by label
    # The row a by-surface-form action writes (its audit contract): bulk + count.
    audit_record(
        actor=annotator,
        event_type="review.accept_form",
        transcript=t,
        after={"bulk": "form", "count": 4},
    )
    wf.transcript_submit(transcript=t, actor=annotator)
    # Space the rows out: a minute apart, with a two-hour break before the submission.
    rows = list(
        AuditEvent.objects.filter(transcript=t)
        .filter(Q(event_type__startswith="review.") | Q(event_type="transcript.transition"))
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    start = timezone.now() - timedelta(hours=3)
    for i, pk in enumerate(rows):
        extra = timedelta(hours=2) if i == len(rows) - 1 else timedelta(0)
        AuditEvent.objects.filter(pk=pk).update(created_at=start + timedelta(minutes=i) + extra)
    wf.transcript_approve(transcript=t, actor=lead)
    from annotations.services.export import gold_export

    gold_export(transcripts=[t], fmt="jsonl", actor=lead)  # a lead's export: no review

    record = m.review_record(t)
    d = record.decisions
    assert d["one_by_one"] == {"actions": 2, "spans": 2}
    assert d["label"] == {"actions": 2, "spans": 4}
    assert d["form"] == {"actions": 1, "spans": 4}
    assert d["group"] == {"actions": 0, "spans": 0}
    assert record.actions == 5  # the export is not a review action
    # in_review, 5 review rows a minute apart, then the break: 5 minutes on task
    assert record.active_seconds == pytest.approx(5 * 60)
    assert record.review_seconds == pytest.approx(5 * 60 + 2 * 3600 + 60)
    row = m.effort([t])["per_transcript"][0]
    assert row["spans_decided"] == 10 and row["spans_one_by_one_share"] == pytest.approx(0.2)


def test_table3_counts_adjacent_name_parts_of_different_members_as_one_mention(annotator, lead):
    """``Kyle`` proposed by one member and ``Lewis`` by another, both accepted unchanged:
    the reviewer saw and accepted one name, so Table 3 scores one whole mention found."""
    t = make_transcript("WITNESS: Kyle Lewis saw it.\n", assignees=[annotator], metadata=META)
    kyle = machine(t, "Kyle", "PERSON", "spacy")
    lewis = machine(t, "Lewis", "PERSON", "transformer")
    wf.transcript_start_review(transcript=t, actor=annotator)
    review.span_accept(span=kyle, actor=annotator)
    review.span_accept(span=lewis, actor=annotator)
    wf.transcript_submit(transcript=t, actor=annotator)
    wf.transcript_approve(transcript=t, actor=lead)

    person = m.dashboard_compute(rerun=False)["table3"]["labels"]["PERSON"]["exact"]

    assert (person["tp"], person["fp"], person["fn"]) == (1, 0, 0)


@pytest.mark.slow
def test_table3_agrees_with_evaluate_on_the_same_approved_transcripts(db, settings, tmp_path):
    """The dashboard scores the stored proposals of approved hearings; ``evaluate`` runs
    the same ensemble on the exported gold's texts: the whole-mention figures agree."""
    import json
    from io import StringIO

    from django.core.management import call_command

    from annotations.services.annotation import ensemble_build, transcript_annotate
    from annotations.services.scripted_review import transcript_review_from_gold
    from engine.synthetic import generate_hearing, render_pdf_bytes
    from tests.factories import make_user
    from transcripts.services.importing import transcript_import

    settings.DETECTORS = [
        {"NAME": "engine.detectors.patterns.PatternDetector", "OPTIONS": {}},
        {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
        {"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}},
    ]
    annotator, lead = make_user("ann3", role="annotator"), make_user("lead3", role="lead")
    for seed in (9, 11):
        hearing = generate_hearing(seed, words=900)
        t = transcript_import(
            name=f"h{seed}.pdf",
            data=render_pdf_bytes(hearing),
            assignees=[annotator],
            annotate=False,
        )
        transcript_annotate(transcript=t, ensemble=ensemble_build())
        transcript_review_from_gold(transcript=t, gold=hearing.gold, annotator=annotator)
        t.refresh_from_db()
        wf.transcript_approve(transcript=t, actor=lead)
    table3 = m.dashboard_compute(rerun=False)["table3"]
    gold = tmp_path / "gold.jsonl"
    call_command("export_gold", "--format", "jsonl", "--out", str(gold), "--actor", "lead3")
    # The export keeps the cover page's names out of ``meta``; the annotation read them
    # from the transcript's metadata, so evaluate is given the same (as generated gold is).
    docs = [json.loads(line) for line in gold.read_text().splitlines()]
    for doc in docs:
        pk = int(doc["id"].rsplit("-", 1)[1])
        doc["meta"]["metadata"] = Transcript.objects.get(pk=pk).metadata
    gold.write_text("".join(json.dumps(doc) + "\n" for doc in docs))
    out = StringIO()
    call_command("evaluate", "--gold", str(gold), "--json", stdout=out)
    evaluated = json.loads(out.getvalue())

    for level in ("exact", "token"):
        assert table3["overall"][level]["f1"] == pytest.approx(
            evaluated["overall"][level]["f1"], abs=0.01
        )
    assert table3["labels"]["PERSON"]["exact"]["f1"] == pytest.approx(
        evaluated["labels"]["PERSON"]["exact"]["f1"], abs=0.01
    )


def test_dashboard_counts_the_tokens_the_exported_gold_holds(corpus, tmp_path):
    """One corpus, one token count: Table 6's tokens are the datasheet's (the CoNLL
    token lines of the same export)."""
    import json

    from django.core.management import call_command

    snap = m.dashboard_compute(rerun=False)
    out = tmp_path / "split"
    call_command(
        "export_gold",
        "--format",
        "conll",
        "--out",
        str(out),
        "--split",
        "100,0,0",
        "--seed",
        "1",
        "--actor",
        "leader",
    )
    datasheet = json.loads((out / "datasheet.json").read_text())
    assert snap["corpus"]["tokens"] == datasheet["total"]["tokens"]


def test_effort_leaves_out_transcripts_the_scripted_reviewer_reviewed(corpus, lead):
    from anonreview.core.audit import audit_record

    t1, t2 = corpus
    audit_record(actor=lead, event_type="review.scripted", transcript=t2, after={"accepted": 1})

    e = m.dashboard_compute(rerun=False)["effort"]

    assert e["scripted_left_out"] == 1
    assert [r["transcript"] for r in e["per_transcript"]] == [t1.pk]
