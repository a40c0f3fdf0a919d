"""Replay of the ensemble's decisions on recorded member finds (generated hearings only).

``tests/data/detection_outcomes.json`` holds, for one generated hearing per layout family,
its text, the allow-list, every first-stage member's raw finds (before cleaning) and the
ensemble's outcome on them: the merged spans (offsets, label, score, members) and one
decision per candidate (member, offsets, label, outcome, rule). ``replay`` runs the
ensemble again on those finds (members that give back the recorded finds, then the real
propagation and safety net), without any model, so a change to the decision rules shows
as a difference in outcomes.

Record again (loads every model; minutes):

    .venv/bin/python -m tests.detection_replay record tests/data/detection_outcomes.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine.detectors.base import Detection, Detector, Document
from engine.detectors.ensemble import Ensemble, stage_of
from engine.detectors.propagation import PropagationDetector
from engine.detectors.safety_net import SafetyNetDetector

DATA = Path(__file__).parent / "data" / "detection_outcomes.json"
FAMILIES = ("bph", "bph2009", "federal", "appellate", "grand_jury", "deposition")
SEED = 39001
WORDS = 2500


class Recorded(Detector):
    """A first-stage member that gives back the finds recorded for it."""

    def __init__(self, name: str, second_opinion: bool, finds: list[list]) -> None:
        super().__init__()
        self.name = name
        self.second_opinion = second_opinion
        self.finds = [
            Detection(s, e, label, score, name, explanation, original)
            for s, e, label, score, explanation, original in finds
        ]

    def detect(self, document: Document) -> list[Detection]:
        return list(self.finds)


def outcomes(result) -> dict:
    """What the comparison reads: the merged spans and every decision, in order."""
    spans = sorted([s.start, s.end, s.label, s.score, ",".join(s.detectors)] for s in result.spans)
    decisions = sorted(
        [d.detector, d.start, d.end, d.label, d.outcome, d.rule] for d in result.decisions
    )
    return {"spans": spans, "decisions": decisions}


def replay(hearing: dict, allow_list: list[str]):
    members = [
        Recorded(name, member["second_opinion"], member["finds"])
        for name, member in hearing["members"].items()
    ]
    ensemble = Ensemble([*members, PropagationDetector(), SafetyNetDetector()], allow_list)
    return ensemble.run(Document(hearing["text"], dict(hearing["metadata"])))


def hearings(seed: int = SEED, words: int = WORDS):
    """(id, text, metadata) of one generated hearing per layout family (seeds ``seed``,
    ``seed + 1``, ...: the 2009 layout prints the current generator's hearing)."""
    from engine.synthetic.families import family_document
    from engine.synthetic.generator import generate_hearing

    for i, family in enumerate(FAMILIES):
        seed_i = seed + i
        if family == "bph":
            h = generate_hearing(seed_i, words=words)
            yield f"bph-{seed_i:05d}", h.text, h.metadata
        else:
            doc = family_document(seed_i, family, words=words)
            yield doc.id, doc.gold.text, doc.metadata


def record(path: Path, sources=None) -> None:  # pragma: no cover - loads every model
    """Run the configured ensemble on ``sources`` ((id, text, metadata); default
    ``hearings()``) and write its members' finds and its outcomes to ``path``."""
    import django

    django.setup()
    from annotations.services.allowlist import default_allowlist_terms
    from annotations.services.annotation import detectors_from_settings

    allow_list = sorted(default_allowlist_terms())
    detectors = detectors_from_settings()
    first = [d for d in detectors if stage_of(d) == 0]
    seen: dict[str, list] = {}
    for detector in first:
        detect = detector.detect

        def wrapped(document, detect=detect, name=detector.name):
            found = detect(document)
            seen[name] = [
                [d.start, d.end, d.label, d.score, d.explanation, d.original] for d in found
            ]
            return found

        detector.detect = wrapped
    ensemble = Ensemble(detectors, allow_list)
    ensemble.load()
    out = []
    for hid, text, metadata in sources if sources is not None else hearings():
        seen.clear()
        result = ensemble.run(Document(text, dict(metadata)))
        assert not result.errors, result.errors
        hearing = {
            "id": hid,
            "text": text,
            "metadata": metadata,
            "members": {
                d.name: {
                    "second_opinion": bool(getattr(d, "second_opinion", False)),
                    "finds": seen[d.name],
                }
                for d in first
            },
        }
        expected = outcomes(result)
        assert outcomes(replay(hearing, allow_list)) == expected, hid
        hearing["expected"] = expected
        out.append(hearing)
        print(hid, len(expected["spans"]), "spans", len(expected["decisions"]), "decisions")
    path.write_text(
        json.dumps({"allow_list": allow_list, "hearings": out}, separators=(",", ":")) + "\n"
    )


if __name__ == "__main__":  # pragma: no cover
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "anonreview.settings")
    if len(sys.argv) == 3 and sys.argv[1] == "record":
        record(Path(sys.argv[2]))
    else:
        sys.exit(__doc__)
