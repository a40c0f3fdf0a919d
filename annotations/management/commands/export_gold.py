"""``manage.py export_gold --format jsonl|spacy|conll|svala --out PATH [--state approved]
[--include-copies] [--name-parts] [--split 80,10,10 --seed N]`` (DESIGN.md).

Whole mentions by default (a PERSON mention is the whole name as written, titles
outside); ``--name-parts`` gives the stored name parts the paper's tags use. Every
document carries its transcript id and pseudonymous title. With ``--split`` the output
is a folder (or, when PATH ends in ``.zip``, a zip) holding ``train``/``dev``/``test``
files split by transcript with ``--seed``, ``datasheet.json`` and ``README.md``.
Double-annotation copies only on request, flagged in ``meta`` (and kept in their
original's part)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotations.services.export import (
    GOLD_FORMATS,
    NotReleasable,
    gold_export,
    gold_export_split,
    gold_transcripts,
    gold_zip,
)
from engine.datasheet import parse_ratios
from transcripts.models import Transcript


class Command(BaseCommand):
    help = "Export the reviewed spans (accepted and added) of transcripts as gold data."

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=GOLD_FORMATS, required=True, dest="fmt")
        parser.add_argument(
            "--out", required=True, help="output file (with --split: a folder or a .zip)"
        )
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
        parser.add_argument(
            "--name-parts",
            action="store_true",
            help="PERSON as name parts (the paper's tags) instead of whole mentions",
        )
        parser.add_argument(
            "--split", default="", help="train,dev,test percentages by transcript, e.g. 80,10,10"
        )
        parser.add_argument("--seed", type=int, default=0, help="seed of the split (default 0)")

    def handle(
        self,
        *args,
        fmt: str,
        out: str,
        state: str,
        include_copies: bool,
        name_parts: bool = False,
        split: str = "",
        seed: int = 0,
        **options,
    ):
        if state != "all" and state not in Transcript.State.values:
            raise CommandError(f"unknown state {state!r}")
        ratios = None
        if split:
            try:
                ratios = parse_ratios(split)
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        transcripts = gold_transcripts(state=state, include_copies=include_copies)
        shape = "name parts" if name_parts else "whole mentions"
        try:
            self._export(transcripts, fmt, out, shape, name_parts, split, ratios, seed)
        except NotReleasable as exc:
            raise CommandError(str(exc)) from exc

    def _export(self, transcripts, fmt, out, shape, name_parts, split, ratios, seed) -> None:
        if ratios is None:
            data = gold_export(transcripts=transcripts, fmt=fmt, actor=None, name_parts=name_parts)
            Path(out).write_bytes(data)
            self.stdout.write(
                f"{len(transcripts)} transcript(s) → {out} ({fmt}, {shape}, {len(data)} bytes)"
            )
            return
        members = gold_export_split(
            transcripts=transcripts,
            fmt=fmt,
            actor=None,
            ratios=ratios,
            seed=seed,
            name_parts=name_parts,
        )
        target = Path(out)
        if target.suffix.lower() == ".zip":
            target.write_bytes(gold_zip(members))
        else:
            target.mkdir(parents=True, exist_ok=True)
            for name, data in members:
                (target / name).write_bytes(data)
        self.stdout.write(
            f"{len(transcripts)} transcript(s) → {out} ({fmt}, {shape}, split {split} "
            f"seed {seed}: {', '.join(name for name, _ in members)})"
        )
