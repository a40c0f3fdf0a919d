"""``python manage.py evaluate --gold FILE.jsonl [--detectors a,b] [--json]`` (DESIGN.md).

Runs the automatic annotation on each gold document's text (its ``meta.metadata`` is
used as the cover page when present) and prints precision/recall/F1 overall, per label
and per detector (spans credited to a detector through their provenance), exact-span
and token level, and the gold tokens left uncovered (leaks). Gold ``ignore`` regions
count neither way.

Safety-net suggestions (spans whose only detector is ``safety_net``: low-score "possible
misses" a reviewer must accept one by one) are **left out** of the main figures
(``overall``, ``labels``, ``leaked_tokens``: what the release holds if nobody accepts
them). ``with_safety_net`` gives the overall figures and leaked tokens with them counted
as spans (coverage: what a reviewer who accepted every one would get), and
``safety_net`` their number per 1,000 words.

PERSON is scored both ways, and the report says which is which: ``person`` names the
shape of the main figures, ``person_both`` gives the overall and PERSON figures in each
shape. ``names``: whole mentions (adjacent name parts joined by ``engine.mentions``:
separated only by spaces, a hyphen or an initial's full stop; a gold file in name
parts is joined the same way); ``parts``: name parts (the detectors' stored shape; gold
whole names cut with ``engine.detectors.names.person_name_parts``). ``--person auto``,
the default, scores the main figures in the gold file's own shape (whole names when any
gold PERSON span holds two name parts).

``--name-words``: adds ``name_words`` (``engine.evaluation.metrics.name_word_coverage``):
the capitalised words inside gold PERSON spans covered by any suggestion and by a PERSON
suggestion, for all of them, for the names alone and for the titles and roles that some
gold schemes count as PERSON (``Petitioner``, ``my Lords``; ``public.is_title_or_role``)
and the groups (``the Lutherans``; ``nrp.is_group_word``), given apart,
without the safety net and, under ``with_safety_net``, with it; the text report lists the
words missed as PERSON with their context (on the terminal only).
"""

import json
from dataclasses import replace

from django.core.management.base import BaseCommand, CommandError

from annotations.management.database import require_migrated_database
from annotations.services.annotation import annotation_detect, ensemble_build
from engine.detectors.names import stored_pieces
from engine.evaluation.metrics import evaluate_documents, name_word_coverage
from engine.gold import GoldDoc, GoldFormatError, GoldSpan, read_jsonl
from engine.mentions import join_name_parts as mention_join
from engine.mentions import join_predictions as join_name_parts
from engine.spans import Prediction

NET = "safety_net"


def name_word_kind(word: str) -> str:
    """``names``, ``roles`` (a title, role or form of address: ``Petitioner``, ``Lords``,
    ``Mr``) or ``groups`` (a nationality or religion: ``Lutherans``) — for ``--name-words``."""
    from engine.detectors.public import is_title_or_role
    from engine.detectors.recognizers.nrp import is_group_word

    if is_title_or_role(word):
        return "roles"
    return "groups" if is_group_word(word) else "names"


def cut_name_parts(doc: GoldDoc) -> GoldDoc:
    """``doc`` with every PERSON span cut into name parts (as stored spans are)."""
    spans = []
    for span in doc.spans:
        pieces = stored_pieces(doc.text, span.start, span.end, span.label) or [
            (span.start, span.end)
        ]
        spans += [GoldSpan(a, b, span.label) for a, b in pieces]
    return replace(doc, spans=sorted(set(spans)))


def join_gold(doc: GoldDoc) -> GoldDoc:
    """``doc`` with PERSON name parts joined into whole mentions."""
    return replace(doc, spans=sorted(set(mention_join(doc.text, doc.spans))))


def gold_has_whole_names(docs: list[GoldDoc]) -> bool:
    """Whether any gold PERSON span holds two or more name parts."""
    return any(
        len(stored_pieces(d.text, s.start, s.end, "PERSON")) > 1
        for d in docs
        for s in d.spans
        if s.label == "PERSON"
    )


def left_in_clear_report(docs: list[GoldDoc], predictions: dict, decisions: dict) -> dict:
    """Gold mentions no suggestion touches (safety net left out), each with the members
    that found its words and the rule that dropped their finds
    (``engine.detectors.decisions.left_in_clear``), and a count by reason."""
    from collections import Counter

    from engine.detectors.decisions import left_in_clear

    listed = []
    for doc in docs:
        for m in left_in_clear(
            doc.text, doc.spans, predictions.get(doc.id, []), decisions.get(doc.id, [])
        ):
            listed.append({"doc": doc.id, **m})
    why = Counter(m["why"] for m in listed)
    return {"mentions": len(listed), "why": dict(why.most_common()), "list": listed}


def _person_figures(report: dict) -> dict:
    return {"overall": report["overall"], "PERSON": report["labels"].get("PERSON")}


def _fmt(d: dict) -> str:
    return f"P {d['p']:.3f}  R {d['r']:.3f}  F1 {d['f1']:.3f}  (tp {d['tp']}, fp {d['fp']}, fn {d['fn']})"


class Command(BaseCommand):
    help = "Evaluate the automatic annotation against a gold JSONL file."

    def add_arguments(self, parser):
        parser.add_argument("--gold", required=True, help="gold JSON Lines file (DESIGN.md)")
        parser.add_argument(
            "--model",
            default="",
            help="score this spaCy pipeline's own entities (a model directory: the domain "
            "model, an exported one, or one from `spacy train`), not the ensemble",
        )
        parser.add_argument(
            "--detectors", default="", help="comma-separated detector names (default: all)"
        )
        parser.add_argument("--json", action="store_true", dest="as_json")
        parser.add_argument("--person", choices=["auto", "parts", "names"], default="auto")
        parser.add_argument(
            "--name-words",
            action="store_true",
            help="coverage of the capitalised words inside gold PERSON spans (names vs roles)",
        )

    def _model(self, path: str, docs: list[GoldDoc], as_json: bool) -> None:
        """``--model``: the pipeline's own figures (``engine.learning.scoring``)."""
        from engine.learning.scoring import NotAModel, load_model, score_model

        try:
            report = {"model": str(path), **score_model(load_model(path), docs)}
        except NotAModel as exc:
            raise CommandError(str(exc)) from exc
        if as_json:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(
            f"Model {path} alone on {report['documents']} document(s), whole mentions, "
            f"labels it knows ({len(report['labels_scored'])}):"
        )
        self.stdout.write(f"  exact  {_fmt(report['overall']['exact'])}")
        self.stdout.write(f"  token  {_fmt(report['overall']['token'])}")
        for label, scores in report["labels"].items():
            self.stdout.write(f"  {label:<16} {_fmt(scores['exact'])}")
        if report["labels_not_scored"]:
            self.stdout.write(
                "  not scored (the model has no such label): "
                + ", ".join(report["labels_not_scored"])
            )

    def handle(self, *args, gold, detectors, as_json: bool, person, name_words=False, **options):
        try:
            docs = read_jsonl(gold)
        except (OSError, GoldFormatError) as exc:
            raise CommandError(str(exc)) from exc
        if options.get("model"):
            return self._model(options["model"], docs, as_json)
        require_migrated_database()
        ensemble = ensemble_build()
        # loaded here, one after the other, as a worker does (detectors_preload): the
        # first document's members that run apart would otherwise import spaCy in two
        # threads at once (a partial import: the first document lost two members)
        ensemble.load_safely()
        only = [d.strip() for d in detectors.split(",") if d.strip()] or None
        known = {d.name for d in ensemble.detectors}
        if only and set(only) - known:
            raise CommandError(
                f"Unknown detector(s): {', '.join(sorted(set(only) - known))}; known: {', '.join(sorted(known))}"
            )
        whole_gold = gold_has_whole_names(docs)
        if person == "auto":
            person = "names" if whole_gold else "parts"
        shaped = {
            "names": docs if whole_gold else [join_gold(d) for d in docs],
            "parts": [cut_name_parts(d) for d in docs] if whole_gold else docs,
        }
        parts_predictions = {}
        predictions = {}
        with_net = {}
        net_spans = 0
        words = 0
        errors: dict[str, str] = {}
        decisions: dict = {}
        for doc in docs:
            metadata = (
                doc.meta.get("metadata") if isinstance(doc.meta.get("metadata"), dict) else {}
            )
            result = annotation_detect(
                text=doc.text, metadata=metadata, only=only, ensemble=ensemble
            )
            errors.update(result.errors)
            decisions[doc.id] = result.decisions
            spans = [
                # credit the detectors that proposed this label
                Prediction(s.start, s.end, s.label, [p for p in s.provenance if "label" not in p])
                for s in result.spans
            ]
            net_only = {id(s) for s in spans if {d["detector"] for d in s.detectors} == {NET}}
            net_spans += len(net_only)
            words += len(doc.text.split())
            kept = [s for s in spans if id(s) not in net_only]
            parts_predictions[doc.id] = kept
            if person == "names":
                kept, spans = join_name_parts(doc.text, kept), join_name_parts(doc.text, spans)
            predictions[doc.id] = kept
            with_net[doc.id] = spans
        scored = shaped[person]  # name words below read the gold file as it is
        report = evaluate_documents(scored, predictions)
        everything = evaluate_documents(scored, with_net)
        report["person"] = person
        names_predictions = {
            doc.id: join_name_parts(doc.text, parts_predictions[doc.id]) for doc in shaped["names"]
        }
        report["person_both"] = {
            "names": _person_figures(evaluate_documents(shaped["names"], names_predictions)),
            "parts": _person_figures(evaluate_documents(shaped["parts"], parts_predictions)),
        }
        if NET in everything["detectors"]:  # its own precision: credited through provenance
            report["detectors"][NET] = everything["detectors"][NET]
        report["with_safety_net"] = {
            "overall": everything["overall"],
            "leaked_tokens": everything["leaked_tokens"],
        }
        report["safety_net"] = {
            "spans": net_spans,
            "words": words,
            "per_1000_words": round(1000 * net_spans / max(words, 1), 2),
        }
        report["left_in_clear"] = left_in_clear_report(scored, predictions, decisions)
        if name_words:
            report["name_words"] = name_word_coverage(docs, predictions, kind_of=name_word_kind)
            report["name_words"]["with_safety_net"] = {
                key: value
                for key, value in name_word_coverage(docs, with_net, kind_of=name_word_kind).items()
                if key != "missed"
            }
        if errors:
            report["errors"] = errors
        if as_json:
            self.stdout.write(json.dumps(report, indent=2, sort_keys=False))
            return
        shape = "whole mentions" if person == "names" else "name parts"
        self.stdout.write(f"{len(docs)} document(s), PERSON compared as {shape} ({person})")
        for level in ("exact", "token"):
            self.stdout.write(f"overall {level:5}: {_fmt(report['overall'][level])}")
        self.stdout.write("per label (exact | token):")
        for label, figures in report["labels"].items():
            self.stdout.write(
                f"  {label:17} {_fmt(figures['exact'])} | R {figures['token']['r']:.3f}"
            )
        self.stdout.write("per detector (exact | token):")
        for name, figures in report["detectors"].items():
            self.stdout.write(f"  {name:12} {_fmt(figures['exact'])} | {_fmt(figures['token'])}")
        self.stdout.write(f"leaked gold tokens: {report['leaked_tokens']}")
        for key, label in (("names", "whole mentions"), ("parts", "name parts")):
            both = report["person_both"][key]
            person_exact = (both["PERSON"] or {}).get("exact")
            self.stdout.write(
                f"PERSON as {label:14}: overall exact {_fmt(both['overall']['exact'])}"
                + (f"; PERSON exact {_fmt(person_exact)}" if person_exact else "")
            )
        net = report["safety_net"]
        self.stdout.write(
            f"safety net (left out above): {net['spans']} possible misses "
            f"({net['per_1000_words']} per 1,000 words); with them: exact "
            f"{_fmt(report['with_safety_net']['overall']['exact'])}, leaked gold tokens "
            f"{report['with_safety_net']['leaked_tokens']}"
        )
        clear = report["left_in_clear"]
        self.stdout.write(
            f"gold mentions left in clear: {clear['mentions']} "
            + ", ".join(f"{why} {n}" for why, n in clear["why"].items())
        )
        for m in clear["list"]:
            members = ", ".join(
                f"{d['detector']} {d['label']} {d['outcome']}"
                + (f" ({d['rule']})" if "rule" in d else "")
                for d in m["found_by"]
            )
            self.stdout.write(
                f"  {m['doc']} {m['label']} {m['text']!r}: {m['why']}"
                + (f" [{members}]" if members else "")
            )
        if name_words:
            self._print_name_words(report["name_words"])
        for name, message in sorted(errors.items()):
            self.stdout.write(self.style.WARNING(f"detector {name} failed: {message}"))

    def _print_name_words(self, figures: dict) -> None:
        self.stdout.write("capitalised words inside gold PERSON spans (covered / as PERSON):")
        for key in ("all", "names", "roles", "groups"):
            f, net = figures[key], figures["with_safety_net"][key]
            self.stdout.write(
                f"  {key:6} {f['words']:5} words: {f['coverage']:.3f} / {f['person_coverage']:.3f}"
                f"  (with the safety net {net['coverage']:.3f} / {net['person_coverage']:.3f})"
            )
        for m in figures["missed"]:
            kind = m["kind"]
            covered = ",".join(m["covered"]) or "nothing"
            self.stdout.write(
                f"  missed as PERSON [{kind}, {covered}] {m['word']}: …{m['context']}…"
            )
