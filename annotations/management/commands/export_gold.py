"""``manage.py export_gold --format jsonl|spacy|conll|svala --out PATH [--state approved]``."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotations.services.export import GOLD_FORMATS, gold_export
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

    def handle(self, *args, fmt: str, out: str, state: str, **options):
        transcripts = Transcript.objects.order_by("pk")
        if state != "all":
            if state not in Transcript.State.values:
                raise CommandError(f"unknown state {state!r}")
            transcripts = transcripts.filter(state=state)
        transcripts = list(transcripts)
        data = gold_export(transcripts=transcripts, fmt=fmt, actor=None)
        Path(out).write_bytes(data)
        self.stdout.write(f"{len(transcripts)} transcript(s) → {out} ({fmt}, {len(data)} bytes)")
