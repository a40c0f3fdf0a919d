"""``manage.py leak_report PATH... [--json] [--detectors a,b]``: the leak-and-keep report.

Imports each input (PDF, .txt, .zip or folder; nothing is stored), runs the configured
ensemble and prints, per file, for a reviewer:

* **names left in clear**: name-shaped words that no suggestion covers, as the safety net
  finds them (``safety_net.possible_misses`` on every span except the safety net's own).
  *Direct identifiers* are those with strong evidence: a speaker tag's name, a word after
  an honorific, a case variant or near-misspelling of a name found elsewhere, or a
  gazetteer name; the others are only name-shaped. ``direct_in_clear_occurrences`` are the
  direct identifiers no confident detector caught (left to the safety net);
  ``direct_unflagged_occurrences`` those that not even a possible miss covers (0 whenever
  the safety net runs);
* **possible misses per 1,000 words**: what the safety net proposes (what reviewers read);
* a ``.txt`` file that the importer rejects (fragments, another court's layout) is read
  as plain text;
* **which member found each name left in clear and which rule dropped its find**
  (``found_by``: ``"spacy LOCATION ordinary-word-body": 2``), and every member's dropped
  finds counted by rule (``dropped_by_rule``; ``engine.detectors.decisions``);
* **domain terms lost**: occurrences of public terms (``public.py``: the CDCR/BPH
  lexicon, courts, government bodies, laws, citations) that a suggestion covers, i.e.
  that the release would replace; and the share that survives.

It prints the words it finds (a reviewer's instrument, on the terminal only) and writes
nothing anywhere.
"""

from __future__ import annotations

import json
import re
from collections import Counter

from django.core.management.base import BaseCommand

from annotations.management.database import require_migrated_database

_WORDS = re.compile(r"\S+")
DOMAIN_KINDS = ("lexicon", "court", "body", "national", "office", "instrument", "citation")


def domain_occurrences(text: str) -> list[tuple[int, int]]:
    """Public-term occurrences of ``text`` (overlapping regions joined into one)."""
    from engine.detectors.public import public_terms

    regions = sorted((s, e) for s, e, kind in public_terms(text).regions if kind in DOMAIN_KINDS)
    joined: list[list[int]] = []
    for s, e in regions:
        if joined and s < joined[-1][1]:
            joined[-1][1] = max(joined[-1][1], e)
        else:
            joined.append([s, e])
    return [(s, e) for s, e in joined]


def report_text(text: str, spans, allow=None, decisions=()) -> dict:
    """The report of one text, given the ensemble's merged spans and, when given, its
    decisions (``EnsembleResult.decisions``): for each name left in clear, which member
    found it and which rule dropped its find (``found_by``)."""
    from engine.detectors.decisions import DROPPED, trace
    from engine.detectors.ordinary import is_name_word
    from engine.detectors.safety_net import possible_misses

    kept = [s for s in spans if set(s.sources) != {"safety_net"}]
    net = [s for s in spans if set(s.sources) == {"safety_net"}]
    detections = [s.as_detection() for s in kept]
    candidates = possible_misses(text, detections, allow)
    words = len(_WORDS.findall(text))
    direct: Counter = Counter()
    shaped: Counter = Counter()
    found_by: dict[tuple[str, str], Counter] = {}
    decisions = list(decisions)
    for c in candidates:
        word = text[c.start : c.end]
        if c.direct or is_name_word(word):
            direct[(word, c.reason)] += 1
            finds = found_by.setdefault((word, c.reason), Counter())
            for d in trace(decisions, c.start, c.end):
                finds[f"{d['detector']} {d['label']} {d.get('rule') or d['outcome']}"] += 1
        else:
            shaped[word] += 1
    dropped = Counter(f"{d.detector}/{d.rule}" for d in decisions if d.outcome == DROPPED)
    # names that no suggestion covers at all, not even a possible miss (0 whenever the
    # safety net runs: it proposes every one of them)
    unflagged = [
        c
        for c in possible_misses(text, [s.as_detection() for s in spans], allow)
        if c.direct or is_name_word(text[c.start : c.end])
    ]
    terms = domain_occurrences(text)
    lost: Counter = Counter()
    for s, e in terms:
        hit = [x for x in kept if x.start < e and s < x.end]
        if hit:
            lost[(text[s:e], "/".join(sorted({x.label for x in hit})))] += 1
    n_lost = sum(lost.values())
    return {
        "words": words,
        "spans": len(kept),
        "safety_net_spans": len(net),
        "direct_in_clear": [
            {"word": w, "reason": r, "count": n, "found_by": dict(found_by[(w, r)])}
            for (w, r), n in sorted(direct.items())
        ],
        "direct_in_clear_distinct": len({w.lower() for w, _ in direct}),
        "direct_in_clear_occurrences": sum(direct.values()),
        "direct_unflagged_occurrences": len(unflagged),
        "name_shaped_in_clear": [{"word": w, "count": n} for w, n in sorted(shaped.items())],
        "possible_misses": len(candidates),
        "possible_misses_per_1000_words": round(1000 * len(candidates) / max(words, 1), 2),
        "domain_terms": len(terms),
        "domain_terms_lost": n_lost,
        "domain_terms_surviving": round(1 - n_lost / len(terms), 4) if terms else None,
        "dropped_by_rule": dict(dropped.most_common()),
        "domain_terms_lost_list": [
            {"term": t, "labels": labels, "count": n} for (t, labels), n in sorted(lost.items())
        ],
    }


def submit_report(text: str, metadata: dict, speakers, spans, path: str) -> dict:
    """The leak check's blocking findings at Submit (``engine.pseudonymize.submit_check``)
    with the ensemble's confident suggestions accepted (the safety net's possible misses
    rejected): ``submit_blocking`` and their forms (``submit_list``). When the input's
    folder holds the generator's ``gold.jsonl`` with this text, also the blocking findings
    on no gold span (``submit_blocking_not_gold``: false alarms) and those of a review
    equal to the gold (``submit_blocking_gold_review``: every one a false alarm)."""
    from pathlib import Path

    from engine.pseudonymize.submit_check import submit_findings

    kept = [(s.start, s.end, s.label) for s in spans if set(s.sources) != {"safety_net"}]
    found = [x for x in submit_findings(text, metadata, speakers, kept) if x.blocking]
    forms = Counter((x.text, x.kind) for x in found)
    out = {
        "submit_blocking": len(found),
        "submit_list": [{"text": t, "kind": k, "count": n} for (t, k), n in forms.most_common()],
    }
    gold_file = Path(path).parent / "gold.jsonl"
    if gold_file.is_file():
        stem = Path(path).stem
        for line in gold_file.open(encoding="utf-8"):
            doc = json.loads(line)
            if doc.get("id") == stem and doc.get("text") == text:
                gold = [(g["start"], g["end"], g["label"]) for g in doc["spans"]]
                out["submit_blocking_not_gold"] = sum(
                    1 for x in found
                    if not any(s < x.source_end and x.source_start < e for s, e, _l in gold)
                )  # fmt: skip
                review = submit_findings(text, metadata, speakers, gold)
                out["submit_blocking_gold_review"] = sum(1 for x in review if x.blocking)
                out["submit_gold_review_list"] = [
                    {"text": x.text, "kind": x.kind, "context": x.context}
                    for x in review if x.blocking
                ]  # fmt: skip
                break
    return out


class Command(BaseCommand):
    help = (
        "Leak-and-keep report: names left in clear, domain terms lost, possible misses per "
        "1,000 words (nothing is written)."
    )

    def add_arguments(self, parser):
        parser.add_argument("inputs", nargs="+", metavar="PATH", help="PDF, .txt, .zip or folder")
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument("--detectors", default=None, help="only these detectors (a,b,...)")

    def handle(self, *args, **options):
        from annotations.services.annotation import ensemble_build
        from engine.detectors.base import Document
        from engine.importing import ImportRejected, parse_file
        from engine.importing.sources import iter_paths
        from transcripts.services.importing import import_limits, ocr_page_limit

        require_migrated_database()
        ensemble = ensemble_build()
        ensemble.load()
        only = options["detectors"].split(",") if options["detectors"] else None
        files = []
        for source in iter_paths(options["inputs"], **import_limits()):
            item: dict = {"path": source.path}
            files.append(item)
            if source.error is not None:
                item["error"] = str(source.error)
                continue
            try:
                parsed = parse_file(source.name, source.data, ocr_max_pages=ocr_page_limit())
                text, metadata = parsed.text, parsed.metadata
                speakers = {u.speaker for u in parsed.utterances if u.speaker}
            except ImportRejected as exc:
                # Not a hearing the importer knows (fragments, other courts' text): a
                # plain-text file is read as it is.
                if not source.name.lower().endswith(".txt"):
                    item["error"] = str(exc)
                    continue
                text, metadata = source.data.decode("utf-8", errors="replace"), {}
                speakers = set()
                item["read_as_plain_text"] = True
            result = ensemble.run(Document(text, metadata), only=only)
            item.update(report_text(text, result.spans, ensemble.allow, result.decisions))
            item.update(submit_report(text, metadata, speakers, result.spans, source.path))
            if result.errors:
                item["detector_errors"] = sorted(result.errors)
        ok = [f for f in files if "words" in f]
        words = sum(f["words"] for f in ok)
        terms = sum(f["domain_terms"] for f in ok)
        total = {
            "files": len(ok),
            "words": words,
            "direct_in_clear_occurrences": sum(f["direct_in_clear_occurrences"] for f in ok),
            "direct_unflagged_occurrences": sum(f["direct_unflagged_occurrences"] for f in ok),
            "possible_misses": sum(f["possible_misses"] for f in ok),
            "possible_misses_per_1000_words": round(
                1000 * sum(f["possible_misses"] for f in ok) / max(words, 1), 2
            ),
            "domain_terms": terms,
            "domain_terms_lost": sum(f["domain_terms_lost"] for f in ok),
            **{
                key: sum(f[key] for f in ok if key in f)
                for key in (
                    "submit_blocking",
                    "submit_blocking_not_gold",
                    "submit_blocking_gold_review",
                )
            },
            "domain_terms_surviving": (
                round(1 - sum(f["domain_terms_lost"] for f in ok) / terms, 4) if terms else None
            ),
        }
        if options["json"]:
            self.stdout.write(json.dumps({"files": files, "total": total}, indent=1))
            return
        for f in files:
            self.stdout.write(f"== {f['path']}")
            if "error" in f:
                self.stdout.write(f"   not read: {f['error']}")
                continue
            self.stdout.write(
                f"   {f['words']} words, {f['spans']} suggestions, "
                f"{f['safety_net_spans']} safety-net suggestions"
            )
            listed = ", ".join(
                f"{d['word']} ×{d['count']} ({d['reason']}"
                + "".join(f"; {k} ×{n}" for k, n in d["found_by"].items())
                + ")"
                for d in f["direct_in_clear"]
            )
            self.stdout.write(
                f"   names left in clear (direct identifiers, no confident detector): "
                f"{f['direct_in_clear_distinct']} distinct, {f['direct_in_clear_occurrences']} "
                f"occurrences, {f['direct_unflagged_occurrences']} not even a possible miss"
                + (f": {listed}" if listed else "")
            )
            shaped = ", ".join(f"{d['word']} ×{d['count']}" for d in f["name_shaped_in_clear"])
            self.stdout.write(
                f"   possible misses: {f['possible_misses']} "
                f"({f['possible_misses_per_1000_words']} per 1,000 words)"
                + (f"; name-shaped only: {shaped}" if shaped else "")
            )
            lost = ", ".join(
                f"{d['term']} ×{d['count']} ({d['labels']})" for d in f["domain_terms_lost_list"]
            )
            surviving = f["domain_terms_surviving"]
            rules = ", ".join(f"{k} ×{n}" for k, n in f["dropped_by_rule"].items())
            self.stdout.write(f"   finds dropped, by member and rule: {rules or 'none'}")
            listed = ", ".join(f"{d['text']} ({d['kind']}) ×{d['count']}" for d in f["submit_list"])
            self.stdout.write(
                f"   blocking at Submit (the proposal accepted): {f['submit_blocking']}"
                + (
                    f", {f['submit_blocking_not_gold']} on no gold span"
                    if "submit_blocking_not_gold" in f
                    else ""
                )
                + (
                    f"; a review equal to the gold: {f['submit_blocking_gold_review']}"
                    if "submit_blocking_gold_review" in f
                    else ""
                )
                + (f": {listed}" if listed else "")
            )
            self.stdout.write(
                f"   domain terms: {f['domain_terms']}, lost {f['domain_terms_lost']}"
                + (f" ({100 * surviving:.1f}% survive)" if surviving is not None else "")
                + (f": {lost}" if lost else "")
            )
        self.stdout.write(f"== total: {json.dumps(total)}")
