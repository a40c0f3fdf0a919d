"""``manage.py anonymize INPUT... --out DIR [--strategy ...] [--json]``: headless pipeline.

Import (``engine.importing``), detection (the detector ensemble), pseudonymization
and the leak check, with no database writes. Writes ``DIR/<stem>.txt`` (pseudonymized),
``DIR/<stem>.spans.jsonl`` (offsets, labels, refs, detectors; no original text) and
``DIR/<stem>.key.json`` (original → pseudonym; sensitive). Leaks are reported by label,
kind and position, never by text. ``--strict`` exits with status 3 on a blocking leak.
``--rename`` names the outputs ``transcript-<sha256 prefix>`` (input names often identify
someone) and writes the mapping to ``DIR/names.key.json`` (sensitive, like the keys).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path, PurePosixPath

from django.core.management.base import BaseCommand

from engine.pseudonymize import STRATEGIES, SpanInput, key_from_replacements, pseudonymize
from engine.pseudonymize.keys import closest_name, person_key
from engine.pseudonymize.leaks import (
    beside_name_needles,
    find_leaks,
    name_needles,
    span_needles,
)
from engine.pseudonymize.refs import RefAssigner


def _span_inputs(text: str, merged) -> list[SpanInput]:
    """Ensemble spans as SpanInputs; a propagated misspelling keys to the name it copies
    (named in its provenance; else the closest name of the transcript)."""
    originals = {
        person_key(text[s.start : s.end])
        for s in merged
        if s.label == "PERSON" and "propagation" not in s.sources
    }
    out = []
    for i, s in enumerate(merged):
        key = None
        if s.label == "PERSON" and "propagation" in s.sources:
            copied = s.originals.get("propagation")
            key = person_key(copied) if copied else None
            key = key or closest_name(person_key(text[s.start : s.end]), originals)
        out.append(SpanInput(s.start, s.end, s.label, key=key, span_id=i))
    return out


class Command(BaseCommand):
    help = "Import, detect, pseudonymize and leak-check transcripts without touching the database."

    def add_arguments(self, parser):
        parser.add_argument("inputs", nargs="+", metavar="INPUT", help="PDF, .txt, .zip or folder")
        parser.add_argument("--out", required=True, help="output folder")
        parser.add_argument("--strategy", choices=STRATEGIES, default="tags")
        parser.add_argument("--seed", default=None, help="seed for surrogates")
        parser.add_argument("--json", action="store_true", help="print a JSON summary")
        parser.add_argument("--strict", action="store_true", help="exit 3 on a blocking leak")
        parser.add_argument(
            "--rename",
            action="store_true",
            help="name outputs transcript-<sha256 prefix> instead of the input's stem (an input "
            "name such as 'Surname, ID, date.pdf' is itself personal data); the mapping goes "
            "to DIR/names.key.json",
        )

    def handle(self, *args, **options):
        from annotations.services.allowlist import allowlist_terms_or_default
        from annotations.services.annotation import ensemble_build
        from annotations.services.pseudonymization import cover_name_parts
        from annotations.services.subtypes import configured_classifier
        from engine.detectors.base import Document
        from engine.importing import ImportRejected, parse_file
        from engine.importing.sources import iter_paths
        from transcripts.services.importing import import_limits, ocr_page_limit

        sources = list(iter_paths(options["inputs"], **import_limits()))
        out_dir = Path(options["out"])
        out_dir.mkdir(parents=True, exist_ok=True)
        terms, from_database = allowlist_terms_or_default()
        if not from_database:
            self.stderr.write(
                "The database is not set up; using the default allow-list "
                "(run `python manage.py migrate` to use and edit your own)."
            )
        ensemble = ensemble_build(allow_list=terms)  # the configured DETECTORS
        ensemble.load()
        classifier = configured_classifier()
        summary = []
        any_blocking = False
        stems: Counter = Counter()
        renamed: dict[str, str] = {}
        for source in sources:
            item: dict = {"path": source.path, "ok": False}
            summary.append(item)
            if source.error is not None:
                item["error"] = str(source.error)
                continue
            try:
                parsed = parse_file(source.name, source.data, ocr_max_pages=ocr_page_limit())
            except ImportRejected as exc:
                item["error"] = str(exc)
                continue
            result = ensemble.run(Document(parsed.text, parsed.metadata))
            spans = _span_inputs(parsed.text, result.spans)
            pseudo = pseudonymize(
                parsed.text,
                spans,
                strategy=options["strategy"],
                seed=options["seed"],
                assigner=RefAssigner(classifier=classifier),
                avoid=cover_name_parts(parsed.metadata),
            )
            needles = []
            for s in result.spans:
                needles.extend(span_needles(parsed.text[s.start : s.end], s.label))
            # Names nobody detected: the cover page, speaker tags, examination and
            # swearing-in lines, title + capitalised word, a surname beside a given name.
            speakers = {u.speaker for u in parsed.utterances if u.speaker}
            needles.extend(name_needles(parsed.text, parsed.metadata, speakers))
            needles.extend(beside_name_needles(pseudo.text, pseudo.replacements, parsed.text))
            leaks = find_leaks(
                pseudo.text,
                needles,
                replaced=[(r.out_start, r.out_end) for r in pseudo.replacements],
            )
            blocking = [leak for leak in leaks if leak.blocking]
            any_blocking |= bool(blocking)
            stem = PurePosixPath(source.name).stem
            if options["rename"]:
                stem = f"transcript-{hashlib.sha256(source.data).hexdigest()[:12]}"
                renamed[stem] = source.path
            stems[stem] += 1
            if stems[stem] > 1:  # two zip members with one name
                stem = f"{stem}-{stems[stem]}"
            (out_dir / f"{stem}.txt").write_text(pseudo.text, encoding="utf-8")
            provenance = {i: s for i, s in enumerate(result.spans)}
            with open(out_dir / f"{stem}.spans.jsonl", "w", encoding="utf-8") as fh:
                for r in pseudo.replacements:
                    source = provenance[r.span_id]
                    row = {
                        "start": r.start,
                        "end": r.end,
                        "label": r.label,
                        "ref": r.ref,
                        "out_start": r.out_start,
                        "out_end": r.out_end,
                        "score": source.score,
                        "detectors": source.detectors,
                    }
                    fh.write(json.dumps(row) + "\n")
            key = key_from_replacements(parsed.text, pseudo)
            (out_dir / f"{stem}.key.json").write_text(
                json.dumps(key, ensure_ascii=False, indent=2), encoding="utf-8"
            )
            item.update(
                ok=True,
                output=str(out_dir / f"{stem}.txt"),
                spans=len(pseudo.replacements),
                entities=len(key),
                detector_errors=result.errors,
                leaks=len(blocking),
                possible_leaks=len(leaks) - len(blocking),
                leaks_by_label=dict(Counter(f"{x.label}/{x.kind}" for x in blocking)),
                leak_positions=[[x.start, x.end, x.label] for x in blocking],
            )
        if renamed:
            (out_dir / "names.key.json").write_text(
                json.dumps(renamed, ensure_ascii=False, indent=2), encoding="utf-8"
            )
        if options["json"]:
            self.stdout.write(json.dumps({"files": summary}, indent=2))
        else:
            for item in summary:
                if not item["ok"]:
                    self.stdout.write(f"{item['path']}: ERROR {item.get('error')}")
                    continue
                self.stdout.write(
                    f"{item['path']}: {item['spans']} replacements, {item['entities']} entities, "
                    f"{item['leaks']} leaks {item['leaks_by_label']}"
                )
        if any_blocking:
            self.stderr.write("Leak check: identifiers remain in the output (see leaks).")
            if options["strict"]:
                sys.exit(3)
