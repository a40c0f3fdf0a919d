"""Which proposals a reviewer keeps: a model trained on the reviewers' decisions in
approved transcripts (``engine.learning.keep``), and its advice at annotation time.

- Training data (``keep_examples``): every proposal of an approved or released
  transcript with the reviewer's outcome: *kept* when a span it started as was accepted
  with the same offsets (relabelled or not), *rejected* when that span was rejected or
  deleted; a span whose offsets the reviewer moved, or that nobody decided, teaches
  nothing.
- Training (``keep_model_train``): seconds; run when the approved transcripts changed
  since the saved model (``keep_model_current``, read at each annotation: a new approval
  retrains it before the next transcript is annotated) or from the Learning page's
  retraining. Saved as JSON under the models folder (``keep/model.json``: weights, the
  feature names, counts, a checksum, and the stamp of what it was trained on).
- Advice (``keep_apply``, after the carried decisions): a suggestion a reviewer would
  reject (``engine.learning.keep.advise``: its same words rejected in two approved
  hearings, or the model sure of it) becomes a *possible miss*: a safety-net entry
  joins its provenance, with the reason in words ("rejected in 87% of 41 similar
  proposals"), so it is shown apart and still blocks the release until a person decides
  it; a possible miss a reviewer would keep becomes a suggestion (its safety-net entry
  becomes a ``keep_model`` entry with the reason). Nothing is dropped or decided. A
  PERSON the transcript gives as a name, or that two independent members propose, is
  never demoted; a span with a carried decision is left to it.

``settings.KEEP_MODEL`` (default True) turns the advice off.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Max

from annotations.models import Proposal, Span
from annotations.services.learning import gold_transcripts, models_dir
from engine.learning import keep
from transcripts.models import Transcript

logger = logging.getLogger(__name__)

SAFETY_NET = "safety_net"
# vectors of approved transcripts, per (transcript, text, proposals): a process computes
# each transcript's once
_vectors: dict[tuple, list[tuple[list[float], bool, tuple]]] = {}


def keep_model_path() -> Path:
    return models_dir() / "keep" / "model.json"


def _outcome(proposal: Proposal, spans: list[Span]) -> bool | None:
    """Kept (True), rejected (False) or nothing learned (None)."""
    if not spans:
        return False  # the reviewer deleted the suggestion
    statuses = set()
    for s in spans:
        if s.status == Span.Status.REJECTED:
            statuses.add(False)
        elif s.status == Span.Status.ACCEPTED and (s.start, s.end) == (
            proposal.start,
            proposal.end,
        ):
            statuses.add(True)
        else:
            return None  # moved, or undecided
    return statuses.pop() if len(statuses) == 1 else None


def _transcript_examples(transcript: Transcript) -> list[tuple[list[float], bool, tuple]]:
    proposals = list(
        Proposal.objects.filter(transcript=transcript).order_by("start", "end", "label", "pk")
    )
    digest = hashlib.sha256(transcript.text.encode()).hexdigest()
    key = (transcript.pk, digest, tuple(p.pk for p in proposals))
    if key in _vectors:
        return _vectors[key]
    spans: dict[int, list[Span]] = {}
    for s in Span.objects.filter(transcript=transcript, proposal__isnull=False):
        spans.setdefault(s.proposal_id, []).append(s)
    ctx = keep.context_for(transcript.text)
    rows = []
    for p in proposals:
        outcome = _outcome(p, spans.get(p.pk, []))
        if outcome is None:
            continue
        rows.append(
            (
                keep.proposal_vector(ctx, p.start, p.end, p.label, p.provenance),
                outcome,
                (digest[:16], keep.proposal_words(transcript.text, p.start, p.end, p.label)),
            )
        )
    _vectors[key] = rows
    return rows


def keep_examples() -> list[tuple[list[float], bool, tuple]]:
    """(feature vector, kept?, (its hearing, its ``proposal_words``)) for every decided
    proposal of the approved transcripts; a hearing is its text (two transcripts of the
    same text are one hearing)."""
    rows = []
    for transcript in gold_transcripts():
        rows.extend(_transcript_examples(transcript))
    return rows


def _stamp() -> str:
    """What the model would be trained on now: the approved transcripts, their
    proposals and their spans' last change."""
    gold = gold_transcripts()
    ids = list(gold.values_list("pk", flat=True))
    proposals = Proposal.objects.filter(transcript__in=ids).aggregate(n=Count("pk"), last=Max("pk"))
    spans = Span.objects.filter(transcript__in=ids).aggregate(n=Count("pk"), last=Max("updated_at"))
    raw = json.dumps([ids, proposals, spans], default=str, sort_keys=True)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def keep_model_train(*, stamp: str | None = None) -> keep.KeepModel | None:
    """Train the model on the approved transcripts and save it; None (and nothing saved)
    when they hold no decided proposal."""
    stamp = stamp or _stamp()
    rows = keep_examples()
    if not rows:
        return None
    model = keep.train(
        [v for v, _k, _w in rows], [k for _v, k, _w in rows], words=[w for _v, _k, w in rows]
    )
    path = keep_model_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    body = json.loads(model.to_json())
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"stamp": stamp, "model": body}, indent=1, sort_keys=True))
    tmp.replace(path)
    return model


def keep_model_load() -> tuple[str, keep.KeepModel] | None:
    """The saved model and its stamp, or None (none saved, or not this code's)."""
    try:
        saved = json.loads(keep_model_path().read_text())
        return saved["stamp"], keep.KeepModel.from_json(json.dumps(saved["model"]))
    except FileNotFoundError:
        return None
    except (ValueError, KeyError, TypeError) as exc:
        logger.warning("keep model not read: %s", exc.__class__.__name__)
        return None


def keep_model_current() -> keep.KeepModel | None:
    """The model for the approved transcripts as they are now: the saved one, retrained
    first when they changed since; None when there is nothing to learn from."""
    if not gold_transcripts().exists():
        return None
    stamp = _stamp()
    saved = keep_model_load()
    if saved is not None and saved[0] == stamp:
        return saved[1]
    return keep_model_train(stamp=stamp)


def _is_possible_miss(provenance) -> bool:
    from engine.pseudonymize.leaks import is_possible_miss

    return is_possible_miss(provenance)


@transaction.atomic
def keep_apply(*, transcript: Transcript) -> dict[str, int]:
    """Demote and promote ``transcript``'s undecided machine suggestions as the model
    advises (see the module docstring). Returns ``{"demoted": n, "promoted": n}``."""
    done = {"demoted": 0, "promoted": 0}
    if not getattr(settings, "KEEP_MODEL", True):
        return done
    model = keep_model_current()
    if model is None:
        return done
    from annotations.services.annotation_carried import is_carried
    from engine.detectors.given import given_names, is_given_name_term

    text = transcript.text
    ctx = keep.context_for(text)
    given = given_names(text, transcript.metadata)
    changed = []
    for span in Span.objects.filter(
        transcript=transcript,
        status=Span.Status.SUGGESTED,
        reviewer__isnull=True,
        proposal__isnull=False,
    ).select_related("proposal"):
        provenance = list(span.provenance or [])
        if is_carried(provenance) or any(
            i.get("detector") == keep.KEEP_DETECTOR or i.get("reason") == keep.KEEP_REASON
            for i in provenance
        ):
            continue
        miss = _is_possible_miss(provenance)
        advice = keep.advise(
            model,
            keep.proposal_vector(ctx, span.start, span.end, span.label, provenance),
            label=span.label,
            provenance=provenance,
            given=is_given_name_term(text[span.start : span.end], given),
            possible_miss=miss,
            words=keep.proposal_words(text, span.start, span.end, span.label),
        )
        if advice.action == "demote":
            provenance.append(
                {
                    "detector": SAFETY_NET,
                    "score": round(advice.p_reject, 4),
                    "reason": keep.KEEP_REASON,
                    "rule": advice.reason,
                }
            )
        elif advice.action == "promote":
            net = [i for i in provenance if i.get("detector") == SAFETY_NET]
            provenance = [i for i in provenance if i.get("detector") != SAFETY_NET]
            provenance.append(
                {
                    "detector": keep.KEEP_DETECTOR,
                    "score": round(1 - advice.p_reject, 4),
                    "reason": keep.KEEP_REASON,
                    "rule": advice.reason,
                    "original": "safety_net:" + ",".join(i.get("reason", "") for i in net),
                }
            )
        else:
            continue
        done["demoted" if advice.action == "demote" else "promoted"] += 1
        span.provenance = provenance
        span.proposal.provenance = provenance
        changed.append(span)
    if changed:
        Span.objects.bulk_update(changed, ["provenance"], batch_size=500)
        Proposal.objects.bulk_update([s.proposal for s in changed], ["provenance"], batch_size=500)
    return done
