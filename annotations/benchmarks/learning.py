"""The learning loop measured (issue 30; ``manage.py bench_learning``).

Over N generated hearings of mixed layouts, in order, each hearing is imported,
annotated by the ensemble as it stands (its ``domain`` member reading the active model),
reviewed by the scripted reviewer that follows the generator's gold
(``annotations.services.scripted_review``), approved by a lead, and every K approvals the
domain model is retrained (``learning_loop.domain_retrain``: activated only when not
worse on held-out gold). Per hearing it reports what the reviewer met:

- ``false_suggestions``: suggestions that overlap no gold mention (the reviewer rejects them);
- ``missed_gold``: gold mentions (name parts, as stored) that no suggestion of their label
  overlaps (the reviewer adds them);
- ``reviewer_inputs``: rejections + additions + places marked "not a leak here" at
  Submit: the decisions a reviewer makes one by one; ``carried_rejections``: of the rejected forms, those a carried
  decision already offered ("rejected in N approved hearings", one input each);
- ``leaks_after_review``: gold mentions not covered by a kept span after the review;
- ``training_s``: the retraining after this hearing (if one ran), and whether it became
  active.

Everything runs in one database transaction that is rolled back at the end (the
database is left as it was; models go to a temporary directory), except the result,
which ``save`` stores as a finished job for the Measurements page.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from django.db import transaction
from django.test.utils import override_settings

FAMILIES = ("bph", "bph2009", "federal", "appellate", "deposition", "grand_jury")
KIND = "bench_learning"


@dataclass
class HearingRow:
    hearing: int
    family: str
    seed: int
    words: int
    gold: int
    suggestions: int
    false_suggestions: int
    missed_gold: int
    reviewer_inputs: int
    rejected: int
    added: int
    carried_rejections: int
    leaks_after_review: int
    annotate_s: float
    training_s: float | None = None
    retrained_model: int | None = None
    activated: bool | None = None
    decision: str = ""


@dataclass
class LearningCurve:
    n: int
    retrain_every: int
    words: int
    seed: int
    families: list[str]
    rows: list[HearingRow] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict:
        first = self.rows[0] if self.rows else None
        last = self.rows[-1] if self.rows else None
        return {
            "kind": KIND,
            "n": self.n,
            "retrain_every": self.retrain_every,
            "words": self.words,
            "seed": self.seed,
            "families": self.families,
            "hearings": [asdict(r) for r in self.rows],
            "skipped": self.skipped,
            "seconds": round(self.seconds, 1),
            "summary": {
                "first_false_suggestions": first.false_suggestions if first else None,
                "last_false_suggestions": last.false_suggestions if last else None,
                "leaks_after_review": sum(r.leaks_after_review for r in self.rows),
                "retrainings": sum(1 for r in self.rows if r.training_s is not None),
            },
        }


def _hearing(seed: int, family: str, words: int):
    """(pdf bytes, gold) of a generated hearing of ``family``; gold None when the
    family writes none yet."""
    if family == "bph":
        from engine.synthetic import generate_hearing, render_pdf_bytes

        hearing = generate_hearing(seed, words=words)
        return render_pdf_bytes(hearing), hearing.gold
    from engine.synthetic.families import family_document
    from engine.synthetic.family_render import render_pdf

    doc = family_document(seed, family, words=words)
    return render_pdf(doc), getattr(doc, "gold", None)


def _overlaps(a: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(s < a[1] and a[0] < e for s, e in spans)


def _covered(a: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    covered = [False] * (a[1] - a[0])
    for s, e in spans:
        for i in range(max(s, a[0]), min(e, a[1])):
            covered[i - a[0]] = True
    return all(covered)


def hearing_figures(
    suggested: list[tuple[int, int, str]],
    gold: set[tuple[int, int, str]],
    kept: list[tuple[int, int, str]],
) -> dict:
    """What a reviewer met on one hearing (see the module docstring). Django-free."""
    gold_places = [(s, e) for s, e, _label in gold]
    false = [p for p in suggested if not _overlaps(p[:2], gold_places)]
    missed = [
        g for g in gold if not any(s < g[1] and g[0] < e and lab == g[2] for s, e, lab in suggested)
    ]
    kept_places = [(s, e) for s, e, _label in kept]
    leaks = [g for g in gold if not _covered(g[:2], kept_places)]
    return {"false_suggestions": len(false), "missed_gold": len(missed), "leaks": len(leaks)}


def run(
    *,
    n: int,
    retrain_every: int,
    words: int,
    seed: int,
    families: tuple[str, ...] = FAMILIES,
    train_seconds: float = 120.0,
    recipe: dict | None = None,
    report: Callable[[str], None] | None = None,
) -> LearningCurve:
    """Run the loop (see the module docstring); returns the curve. Leaves the database
    as it was."""
    curve = LearningCurve(
        n=n, retrain_every=retrain_every, words=words, seed=seed, families=list(families)
    )
    started = time.monotonic()
    say = report or (lambda _line: None)
    with (
        tempfile.TemporaryDirectory(prefix="bench-learning-") as models,
        override_settings(
            LEARNING_MODELS_DIR=models,
            LEARNING_RETRAIN_EVERY=0,  # the bench retrains itself, every K
            LEARNING_DOMAIN_OPTIONS={"max_seconds": train_seconds},
            **({"LEARNING_RECIPE": recipe} if recipe else {}),
        ),
        transaction.atomic(),
    ):
        try:
            _loop(curve, say)
        finally:
            transaction.set_rollback(True)
    curve.seconds = time.monotonic() - started
    return curve


def bench_users():
    """An annotator and a lead of the bench's own (rolled back with the rest)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from anonreview import roles

    users = []
    for name, role in (
        ("bench-learning-annotator", roles.ANNOTATOR),
        ("bench-learning-lead", roles.LEAD),
    ):
        user, _ = get_user_model().objects.get_or_create(username=name)
        group, _ = Group.objects.get_or_create(name=role)
        user.groups.add(group)
        users.append(user)
    return users


def _loop(curve: LearningCurve, say: Callable[[str], None]) -> None:
    from annotations.models import Span, TrainedModel
    from annotations.selectors.carried import carried_decisions
    from annotations.services import learning, learning_loop, workflow
    from annotations.services.annotation import ensemble_build, transcript_annotate
    from annotations.services.review.bulk import normalize_form
    from annotations.services.scripted_review import gold_spans_in, transcript_review_from_gold
    from transcripts.services.importing import transcript_import

    annotator, lead = bench_users()
    approved = 0
    i = 0
    attempt = 0
    while len(curve.rows) < curve.n and attempt < curve.n * 3:
        family = curve.families[attempt % len(curve.families)]
        seed = curve.seed + attempt
        attempt += 1
        data, gold = _hearing(seed, family, curve.words)
        if gold is None:
            curve.skipped.append(f"{family} {seed}: the family writes no gold")
            continue
        t = transcript_import(
            name=f"bench-learning-{family}-{seed}.pdf",
            data=data,
            assignees=[annotator],
            annotate=False,
        )
        try:
            wanted = gold_spans_in(t, gold)
        except ValueError:
            curve.skipped.append(f"{family} {seed}: the gold's text is not the imported text")
            continue
        i += 1
        tick = time.monotonic()
        ensemble = ensemble_build()
        transcript_annotate(transcript=t, ensemble=ensemble)
        annotate_s = time.monotonic() - tick
        text = t.text
        suggested = list(
            Span.objects.filter(transcript=t, status=Span.Status.SUGGESTED).values_list(
                "start", "end", "label"
            )
        )
        carried = carried_decisions()
        counts = transcript_review_from_gold(
            transcript=t, gold=gold, annotator=annotator, answer_leaks=True
        )
        rejected_forms = {
            (label, normalize_form(text[s:e]))
            for s, e, label in suggested
            if (s, e, label) not in wanted
        }
        carried_rejections = sum(
            1 for key in rejected_forms if key in carried and carried[key].decision == "reject"
        )
        workflow.transcript_approve(transcript=t, actor=lead)
        approved += 1
        kept = list(
            Span.objects.filter(transcript=t)
            .exclude(status=Span.Status.REJECTED)
            .values_list("start", "end", "label")
        )
        figures = hearing_figures(suggested, wanted, kept)
        row = HearingRow(
            hearing=i,
            family=family,
            seed=seed,
            words=len(text.split()),
            gold=len(wanted),
            suggestions=len(suggested),
            false_suggestions=figures["false_suggestions"],
            missed_gold=figures["missed_gold"],
            reviewer_inputs=counts["rejected"] + counts["added"] + counts["not_a_leak"],
            rejected=counts["rejected"],
            added=counts["added"],
            carried_rejections=carried_rejections,
            leaks_after_review=figures["leaks"],
            annotate_s=round(annotate_s, 1),
        )
        if curve.retrain_every and approved % curve.retrain_every == 0:
            model = TrainedModel.objects.create(
                kind=TrainedModel.Kind.DOMAIN,
                status=TrainedModel.Status.TRAINING,
                source="recipe+approved",
                trigger="bench",
                seed=13,
                epochs=0,
            )
            model.path = str(learning.models_dir() / f"model-{model.pk}")
            model.save(update_fields=["path"])
            model = learning_loop.domain_retrain(model=model)
            row.training_s = model.training_seconds
            row.retrained_model = model.pk
            row.activated = model.active
            row.decision = model.decision
        curve.rows.append(row)
        say(
            f"hearing {i} ({family} {seed}): {row.suggestions} suggestions, "
            f"{row.false_suggestions} false, {row.missed_gold} missed, "
            f"{row.reviewer_inputs} inputs, {row.leaks_after_review} leaks"
            + (f"; retrained in {row.training_s:.0f} s: {row.decision}" if row.training_s else "")
        )


def save(result: dict):
    """Store ``result`` as a finished job: the Measurements page draws the latest."""
    from transcripts.models import Job
    from transcripts.services import jobs

    job = jobs.job_create(kind=Job.Kind.EVALUATE, message="bench_learning (command)")
    jobs.job_finish(job_id=job.pk, message="bench_learning", result=result)
    return job
