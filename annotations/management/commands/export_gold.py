"""``manage.py export_gold --format jsonl|spacy|conll|svala|hf --out PATH
[--state approved|released|releasable] [--include-copies] [--name-parts]
[--split 80,10,10 --seed N] [--actor USERNAME]`` (DESIGN.md).

The release rule holds here as on the Export page (the services check it, whoever
calls): only approved or released transcripts leave (``--state``: ``approved``, the
default; ``released``; ``releasable`` for both). Any other state is refused with a
sentence and a nonzero exit, and nothing is written. ``--include-copies`` adds the
second annotations of those transcripts that their annotators submitted (copies are
never approved), each flagged in its document's ``meta`` and kept in its original's part.

Whole mentions by default (a PERSON mention is the whole name as written, titles
outside); ``--name-parts`` gives the stored name parts the paper's tags use. Every
document carries its transcript id and pseudonymous title. With ``--split`` the output
is a folder (or, when PATH ends in ``.zip``, a zip) holding ``train``/``dev``/``test``
files split by transcript with ``--seed`` (0 ≤ seed < 2**32), ``datasheet.json`` and
``README.md``.

Each export writes a ``gold_exported`` audit row per transcript naming who ran it: the
user ``--actor`` names, or else the operating-system user (``os:NAME``)."""

from __future__ import annotations

import getpass
import os
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from annotations.services.export import (
    GOLD_FORMATS,
    GOLD_STATE_CHOICES,
    NotReleasable,
    gold_export,
    gold_export_split,
    gold_transcripts,
    gold_zip,
)
from engine.datasheet import parse_ratios, parse_seed


def os_user() -> str:
    """Who runs this process, for the audit row: ``os:NAME`` (``os:uid-N`` without a
    password entry)."""
    try:
        return f"os:{getpass.getuser()}"
    except (OSError, KeyError):
        return f"os:uid-{os.getuid()}"


class Command(BaseCommand):
    help = (
        "Export the reviewed spans (accepted and added) of approved or released transcripts "
        "as gold data."
    )

    def add_arguments(self, parser):
        parser.add_argument("--format", choices=GOLD_FORMATS, required=True, dest="fmt")
        parser.add_argument(
            "--out", required=True, help="output file (with --split: a folder or a .zip)"
        )
        parser.add_argument(
            "--state",
            default="approved",
            help="which transcripts: approved (default), released, or releasable (both); "
            "no other state leaves",
        )
        parser.add_argument(
            "--include-copies",
            action="store_true",
            help="also export the submitted second annotations of those transcripts "
            "(flagged in each document's meta)",
        )
        parser.add_argument(
            "--name-parts",
            action="store_true",
            help="PERSON as name parts (the paper's tags) instead of whole mentions",
        )
        parser.add_argument(
            "--split", default="", help="train,dev,test percentages by transcript, e.g. 80,10,10"
        )
        parser.add_argument(
            "--seed", default="0", help="seed of the split, 0 to 4294967295 (default 0)"
        )
        parser.add_argument(
            "--actor",
            default="",
            help="the user (username) the audit rows name; default: the operating-system user",
        )

    def handle(
        self,
        *args,
        fmt: str,
        out: str,
        state: str = "approved",
        include_copies: bool = False,
        name_parts: bool = False,
        split: str = "",
        seed: str | int = "0",
        actor: str = "",
        **options,
    ):
        if state not in GOLD_STATE_CHOICES:
            raise CommandError(
                f"--state {state!r} refused: gold data leaves only of approved or released "
                f"transcripts (choose {', '.join(GOLD_STATE_CHOICES)}); nothing was written."
            )
        ratios = None
        try:
            if split:
                ratios = parse_ratios(split)
            seed = parse_seed(str(seed))
        except ValueError as exc:
            raise CommandError(f"{exc}; nothing was written.") from exc
        who = self._actor(actor)
        shape = "name parts" if name_parts else "whole mentions"
        try:
            transcripts = gold_transcripts(state=state, include_copies=include_copies)
            self._export(transcripts, fmt, out, shape, name_parts, split, ratios, seed, who)
        except NotReleasable as exc:
            raise CommandError(f"{exc} Nothing was written.") from exc

    @staticmethod
    def _actor(username: str):
        if not username:
            return os_user()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"--actor {username!r}: no such user; nothing was written.")
        return user

    def _export(self, transcripts, fmt, out, shape, name_parts, split, ratios, seed, who):
        if ratios is None:
            data = gold_export(transcripts=transcripts, fmt=fmt, actor=who, name_parts=name_parts)
            Path(out).write_bytes(data)
            self.stdout.write(
                f"{len(transcripts)} transcript(s) → {out} ({fmt}, {shape}, {len(data)} bytes)"
            )
            return
        members = gold_export_split(
            transcripts=transcripts,
            fmt=fmt,
            actor=who,
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
