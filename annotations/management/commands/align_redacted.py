"""Derive gold spans from a clear document and its redacted version.

    python manage.py align_redacted clear.txt redacted.txt --out gold.jsonl

The redacted version marks what was removed with ``OMISSIS``, ``[REDACTED]``,
``XXXX``, ``█████`` or tags (``[PERSON_1]``, ``<LOCATION>``, ``[MONTH]``...). The
two texts are aligned token by token (engine/learning/align.py); each marker's
clear tokens become one gold span (label from the tag, or guessed from the shape of
the clear text, or ``--default-label``). What could not be aligned is reported with
offsets on both sides (never the text). Touches no database.
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from engine.gold import write_jsonl
from engine.labels import LABELS
from engine.learning.align import gold_from_pair


class Command(BaseCommand):
    help = "Align a clear document with its redacted version and write gold spans (JSONL)."

    def add_arguments(self, parser):
        parser.add_argument("clear", help="The clear (original) text file.")
        parser.add_argument("redacted", help="The redacted version (text file).")
        parser.add_argument("--out", required=True, help="Gold JSONL file to write.")
        parser.add_argument("--id", help="Document id (default: the clear file's stem).")
        parser.add_argument(
            "--default-label",
            default="PERSON",
            choices=LABELS,
            help="Label of untyped markers whose text has no telling shape (default PERSON).",
        )
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")

    def handle(self, *args, **options):
        texts = []
        for name in ("clear", "redacted"):
            path = Path(options[name])
            try:
                texts.append(path.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as exc:
                raise CommandError(f"Cannot read {path}: {exc}") from exc
        clear, redacted = texts
        doc_id = options["id"] or Path(options["clear"]).stem
        doc, result = gold_from_pair(
            doc_id, clear, redacted, default_label=options["default_label"]
        )
        doc.meta.update(
            {
                "clear_file": Path(options["clear"]).name,
                "redacted_file": Path(options["redacted"]).name,
            }
        )
        write_jsonl([doc], options["out"])
        report = {
            "id": doc_id,
            "out": options["out"],
            **result.summary(),
            "labels": {
                label: sum(1 for s in doc.spans if s.label == label)
                for label in sorted({s.label for s in doc.spans})
            },
            "unaligned": [u.to_json() for u in result.unaligned],
        }
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(
            f"{doc_id}: {result.aligned_markers}/{result.markers} markers aligned → "
            f"{len(doc.spans)} gold spans written to {options['out']}"
        )
        for label, n in report["labels"].items():
            self.stdout.write(f"  {label:<16} {n}")
        for note in result.notes:
            self.stdout.write(self.style.WARNING(f"Note: {note}"))
        if result.unaligned:
            self.stdout.write(
                self.style.WARNING(f"{len(result.unaligned)} unaligned region(s) to check:")
            )
            for u in result.unaligned:
                self.stdout.write(
                    f"  {u.kind:<14} clear {u.clear_start}-{u.clear_end}  "
                    f"redacted {u.redacted_start}-{u.redacted_end}"
                )
        else:
            self.stdout.write("No unaligned regions.")
