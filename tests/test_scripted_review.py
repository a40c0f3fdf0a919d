"""The scripted reviewer: a synthetic hearing reviewed as its gold says, audited as such."""

from io import StringIO

import pytest
from django.core.management import call_command

from annotations.models import Span
from annotations.services.annotation import ensemble_build, transcript_annotate
from annotations.services.scripted_review import (
    GoldMismatch,
    gold_spans_in,
    transcript_review_from_gold,
)
from anonreview.core.models import AuditEvent
from engine.synthetic import generate_hearing, render_pdf_bytes
from tests.factories import make_user
from transcripts.models import Transcript
from transcripts.services.importing import transcript_import

pytestmark = pytest.mark.django_db

# Light and fast: the pattern recognizers, the cover page and propagation (no models).
LIGHT = [
    {"NAME": "engine.detectors.patterns.PatternDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.cover.CoverPageDetector", "OPTIONS": {}},
    {"NAME": "engine.detectors.propagation.PropagationDetector", "OPTIONS": {}},
]


@pytest.fixture
def light(settings):
    settings.DETECTORS = LIGHT


def test_review_from_gold_accepts_matches_rejects_the_rest_adds_misses_and_submits(light):
    annotator = make_user("ann", role="annotator")
    hearing = generate_hearing(9, words=900)
    t = transcript_import(
        name="h.pdf", data=render_pdf_bytes(hearing), assignees=[annotator], annotate=False
    )
    transcript_annotate(transcript=t, ensemble=ensemble_build())
    suggested = set(t.spans.values_list("start", "end", "label"))
    gold = gold_spans_in(t, hearing.gold)

    counts = transcript_review_from_gold(transcript=t, gold=hearing.gold, annotator=annotator)

    t.refresh_from_db()
    assert t.state == Transcript.State.SUBMITTED
    assert counts == {
        "accepted": len(suggested & gold),
        "rejected": len(suggested - gold),
        "added": len(gold - suggested),
        "reversed": 0,  # no approved hearing: no carried proposal to decide against
        "confirmed": 0,
        "confirm_inputs": 0,
    }
    assert counts["added"] > 0  # the light detectors miss what only the models find
    kept = set(t.spans.exclude(status=Span.Status.REJECTED).values_list("start", "end", "label"))
    assert kept == gold
    assert not t.spans.filter(status=Span.Status.SUGGESTED).exists()
    assert not t.spans.exclude(status=Span.Status.REJECTED).filter(entity=None).exists()
    event = AuditEvent.objects.get(transcript=t, event_type="review.scripted")
    assert event.after == counts and event.actor == annotator


def test_gold_of_another_text_is_refused():
    other = generate_hearing(10, words=300)
    t = Transcript.objects.create(title="t", text="Nothing like it.", sha256="x" * 64)
    with pytest.raises(GoldMismatch):
        gold_spans_in(t, other.gold)


def test_load_demo_reviewed_adds_an_approved_hearing_once(light):
    make_user("annotator", role="annotator")
    make_user("lead", role="lead")
    out = StringIO()
    for _ in range(2):
        call_command("load_demo", "--count", "0", "--no-annotate", "--reviewed", "1", stdout=out)
    [t] = Transcript.objects.all()
    assert t.state == Transcript.State.APPROVED
    assert "reviewed by a script" in t.title
    assert "approved" in out.getvalue() and "already imported" in out.getvalue()


def test_load_demo_reviewed_makes_as_many_hearings_as_asked():
    # `--reviewed 10` made 3 (the seed tuple was sliced).
    from annotations.management.commands.load_demo import reviewed_seeds

    seeds = reviewed_seeds(10)
    assert len(seeds) == len(set(seeds)) == 10 and seeds[:3] == [201, 202, 203]


def test_load_demo_reviewed_beyond_three_imports_and_approves_each(light):
    make_user("annotator", role="annotator")
    make_user("lead", role="lead")
    out = StringIO()
    call_command("load_demo", "--count", "0", "--no-annotate", "--reviewed", "4", stdout=out)
    assert Transcript.objects.filter(state=Transcript.State.APPROVED).count() == 4


def test_the_scripted_reviewer_answers_a_submit_leak_outside_the_gold_as_not_a_leak(annotator):
    # A participant's surname used as an ordinary word: Submit listed it and the scripted
    # review failed (bench_learning and load_demo --reviewed stopped there).
    from annotations.services import workflow
    from annotations.services.scripted_review import _submit_answering_leaks
    from tests.factories import make_transcript

    t = make_transcript(
        "ALDEN: He took the small business class at the Small Business Center.\n",
        assignees=[annotator],
        metadata={"incarcerated_person": "Tom Small"},
    )
    workflow.transcript_start_review(transcript=t, actor=annotator)
    with pytest.raises(workflow.SubmitLeaksFound):
        workflow.transcript_submit(transcript=t, actor=annotator)
    assert _submit_answering_leaks(t, set(), annotator) >= 1
    t.refresh_from_db()
    assert t.state == Transcript.State.SUBMITTED
    # inside a gold mention it is the oracle's own mistake: raised, not answered
    t2 = make_transcript(
        "ALDEN: Small Business Center.\n",
        assignees=[annotator],
        metadata={"incarcerated_person": "Tom Small"},
    )
    workflow.transcript_start_review(transcript=t2, actor=annotator)
    with pytest.raises(workflow.SubmitLeaksFound):
        _submit_answering_leaks(t2, {(7, 12, "PERSON")}, annotator)
