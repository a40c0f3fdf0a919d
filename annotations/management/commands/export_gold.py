"""``manage.py export_gold --format jsonl|spacy|conll|svala --out PATH [--state approved]
[--include-copies]``: double-annotation copies only on request, flagged in ``meta``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotations.services.export import (
    GOLD_FORMATS,
    NotReleasable,
    gold_export,
    gold_transcripts,
)
from transcripts.models import Transcript


class Command(BaseCommand):
    help = "Export the reviewed spans (accepted and added) of transcripts as gold data."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=GOLD_FORMATS, required=True, dest="fmt")
        parser.add_argument("--out", required=True, help="output file")
        parser.add_argument(
            "--state",
            default=Transcript.State.APPROVED,
            help="transcript state to export (default approved; 'all' for every state)",
        )
        parser.add_argument(
            "--include-copies",
            action="store_true",
            help="also export double-annotation copies (flagged in each document's meta)",
        )

    def handle(self, *args, fmt: str, out: str, state: str, include_copies: bool, **options):
        if state != "all" and state not in Transcript.State.values:
            raise CommandError(f"unknown state {state!r}")
        transcripts = gold_transcripts(state=state, include_copies=include_copies)
        try:
            data = gold_export(transcripts=transcripts, fmt=fmt, actor=None)
        except NotReleasable as exc:
            raise CommandError(str(exc)) from exc
        Path(out).write_bytes(data)
        self.stdout.write(f"{len(transcripts)} transcript(s) → {out} ({fmt}, {len(data)} bytes)")
