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

PERSON: stored spans are name parts; gold files that mark whole names (``John Doe``)
are compared with adjacent predicted parts joined (``--person auto``, the default,
decides by whether any gold PERSON span contains a space).

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
from engine.evaluation.metrics import evaluate_documents, name_word_coverage
from engine.gold import GoldFormatError, read_jsonl
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


def join_name_parts(text: str, spans: list[Prediction]) -> list[Prediction]:
    """Join PERSON spans separated by one space (``John`` ``Doe`` → ``John Doe``)."""
    out: list[Prediction] = []
    for span in sorted(spans, key=lambda s: (s.start, s.end)):
        last = out[-1] if out else None
        if last and span.label == "PERSON" == last.label and text[last.end : span.start] == " ":
            names = {d["detector"] for d in last.detectors}
            last.end = span.end
            last.detectors = last.detectors + [
                d for d in span.detectors if d["detector"] not in names
            ]
        else:
            out.append(replace(span, detectors=list(span.detectors)))
    return out


def _fmt(d: dict) -> str:
    return f"P {d['p']:.3f}  R {d['r']:.3f}  F1 {d['f1']:.3f}  (tp {d['tp']}, fp {d['fp']}, fn {d['fn']})"


class Command(BaseCommand):
    help = "Evaluate the automatic annotation against a gold JSONL file."

    def add_arguments(self, parser):
        parser.add_argument("--gold", required=True, help="gold JSON Lines file (DESIGN.md)")
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

    def handle(self, *args, gold, detectors, as_json: bool, person, name_words=False, **options):
        require_migrated_database()
        try:
            docs = read_jsonl(gold)
        except (OSError, GoldFormatError) as exc:
            raise CommandError(str(exc)) from exc
        ensemble = ensemble_build()
        only = [d.strip() for d in detectors.split(",") if d.strip()] or None
        known = {d.name for d in ensemble.detectors}
        if only and set(only) - known:
            raise CommandError(
                f"Unknown detector(s): {', '.join(sorted(set(only) - known))}; known: {', '.join(sorted(known))}"
            )
        if person == "auto":
            names = any(
                s.label == "PERSON" and " " in d.text[s.start : s.end]
                for d in docs
                for s in d.spans
            )
            person = "names" if names else "parts"
        predictions = {}
        with_net = {}
        net_spans = 0
        words = 0
        errors: dict[str, str] = {}
        for doc in docs:
            metadata = (
                doc.meta.get("metadata") if isinstance(doc.meta.get("metadata"), dict) else {}
            )
            result = annotation_detect(
                text=doc.text, metadata=metadata, only=only, ensemble=ensemble
            )
            errors.update(result.errors)
            spans = [
                # credit the detectors that proposed this label
                Prediction(s.start, s.end, s.label, [p for p in s.provenance if "label" not in p])
                for s in result.spans
            ]
            net_only = {id(s) for s in spans if {d["detector"] for d in s.detectors} == {NET}}
            net_spans += len(net_only)
            words += len(doc.text.split())
            kept = [s for s in spans if id(s) not in net_only]
            if person == "names":
                kept, spans = join_name_parts(doc.text, kept), join_name_parts(doc.text, spans)
            predictions[doc.id] = kept
            with_net[doc.id] = spans
        report = evaluate_documents(docs, predictions)
        everything = evaluate_documents(docs, with_net)
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
        self.stdout.write(f"{len(docs)} document(s), PERSON compared as {person}")
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
        net = report["safety_net"]
        self.stdout.write(
            f"safety net (left out above): {net['spans']} possible misses "
            f"({net['per_1000_words']} per 1,000 words); with them: exact "
            f"{_fmt(report['with_safety_net']['overall']['exact'])}, leaked gold tokens "
            f"{report['with_safety_net']['leaked_tokens']}"
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
