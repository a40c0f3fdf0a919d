"""Write synthetic parole hearings: DIR/<id>.txt, DIR/<id>.pdf (with --pdf) and DIR/gold.jsonl.

Seeds are SEED, SEED+1, ... SEED+N-1; the same seed always gives the same hearing.
``--layout`` picks a layout family (``engine.synthetic.families``): ``bph`` (default,
the canonical text and today's PDF), or another family (the family's text export and
PDF). Every family writes ``DIR/gold.jsonl``: its spans are offsets into the canonical
text the importer makes of the file. ``--scan`` also writes an image-only PDF of the
family's PDF (``<id>-scan.pdf``); ``--no-form-feeds`` writes the family's text without
page breaks or page furniture, ``--no-videographer`` a deposition that opens with the
swearing-in. ``--format`` writes the layout's transcript in another shape
(``engine.synthetic.formats``, ``engine.synthetic.filed``): ``vtt``/``srt`` captions,
``stt`` (a timestamped speech-to-text ``.txt``), ``rst``/``md`` markup, or ``ecf`` (the
family's text as filed: a filing stamp on every page, some glued into a sentence, pages
numbered as filed, a certificate page with margin numbers); ``DIR/gold.jsonl`` then
holds offsets into what the importer makes of that file. Touches no database.
"""

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from engine.gold import write_jsonl
from engine.synthetic import generate_hearing, render_pdf, write_gold_jsonl
from engine.synthetic.families import FAMILIES, family_document
from engine.synthetic.family_render import render_scan
from engine.synthetic.formats import FORMATS


class Command(BaseCommand):
    help = "Generate synthetic hearing transcripts (text, optional PDF) with gold spans."

    def add_arguments(self, parser):
        parser.add_argument("--n", type=int, default=1, help="Number of hearings (default 1).")
        parser.add_argument("--out", required=True, help="Output folder (created if missing).")
        parser.add_argument(
            "--words", type=int, default=15000, help="Words per hearing (default 15000)."
        )
        parser.add_argument("--seed", type=int, default=0, help="First seed (default 0).")
        parser.add_argument("--pdf", action="store_true", help="Also render each hearing as a PDF.")
        parser.add_argument("--json", action="store_true", help="Print a JSON summary.")
        parser.add_argument(
            "--layout",
            choices=FAMILIES,
            default="bph",
            help="Layout family (default bph: today's board layout); every family writes gold.",
        )
        parser.add_argument(
            "--scan", action="store_true", help="Also write a scan of the PDF (no text layer)."
        )
        parser.add_argument(
            "--format",
            choices=("txt", *FORMATS, "ecf"),
            default="txt",
            help="The file's shape (default txt: the layout's text export and PDF): captions "
            "(vtt, srt), speech-to-text (stt), markup (rst, md) or a filed copy (ecf).",
        )
        parser.add_argument(
            "--no-form-feeds",
            action="store_true",
            help="Text without page breaks or page furniture (caption, appearances, body).",
        )
        parser.add_argument(
            "--no-videographer",
            action="store_true",
            help="deposition: no videographer's turn; the body opens with the swearing-in.",
        )

    def handle(self, *args, **options):
        n, words = options["n"], options["words"]
        if n < 1:
            raise CommandError("--n must be at least 1")
        if words < 500:
            raise CommandError("--words must be at least 500")
        out = Path(options["out"])
        out.mkdir(parents=True, exist_ok=True)
        if options["format"] != "txt":
            return self._format(options, out)
        if options["layout"] != "bph":
            return self._family(options, out)
        hearings = []
        files = []
        started = time.perf_counter()
        for seed in range(options["seed"], options["seed"] + n):
            hearing = generate_hearing(seed, words=words)
            txt = out / f"{hearing.id}.txt"
            txt.write_text(hearing.text, encoding="utf-8")
            entry = {"id": hearing.id, "seed": seed, "words": hearing.word_count, "txt": str(txt)}
            if options["pdf"]:
                pdf = out / f"{hearing.id}.pdf"
                render_pdf(hearing, pdf)
                entry["pdf"] = str(pdf)
                entry["pages"] = len(hearing.pages) + 2
                if options["scan"]:
                    scan = out / f"{hearing.id}-scan.pdf"
                    scan.write_bytes(render_scan(pdf.read_bytes(), seed=seed))
                    entry["scan"] = str(scan)
            entry["spans"] = len(hearing.gold.spans)
            files.append(entry)
            hearings.append(hearing)
        gold = out / "gold.jsonl"
        write_gold_jsonl(hearings, gold)
        elapsed = time.perf_counter() - started
        self._report(
            options, files, gold, elapsed,
            f"Wrote {n} synthetic hearing(s) to {out} "
            f"({sum(f['words'] for f in files)} words, {elapsed:.2f} s); gold: {gold}",
        )  # fmt: skip

    def _report(self, options, files: list, gold: Path, elapsed: float, sentence: str) -> None:
        """The files written and the gold, as JSON (``--json``) or one sentence."""
        if options["json"]:
            self.stdout.write(
                json.dumps({"files": files, "gold": str(gold), "seconds": round(elapsed, 3)})
            )
        else:
            self.stdout.write(sentence)

    def _family(self, options, out: Path) -> None:
        from engine.synthetic.family_render import render_pdf as family_pdf
        from engine.synthetic.family_render import render_text

        family = options["layout"]
        files = []
        golds = []
        started = time.perf_counter()
        for seed in range(options["seed"], options["seed"] + options["n"]):
            doc = family_document(
                seed, family, words=options["words"], videotaped=not options["no_videographer"]
            )
            stem = f"{family}-{seed:05d}"
            txt = out / f"{stem}.txt"
            text = render_text(doc, form_feeds=not options["no_form_feeds"])
            txt.write_bytes(text.encode("utf-8"))
            entry = {"id": stem, "seed": seed, "layout": family, "turns": len(doc.turns)}
            entry["words"] = len(doc.gold.text.split())
            entry["spans"] = len(doc.gold.spans)
            entry["txt"] = str(txt)
            if options["pdf"] or options["scan"]:
                data = family_pdf(doc)
                pdf = out / f"{stem}.pdf"
                pdf.write_bytes(data)
                entry["pdf"] = str(pdf)
                if options["scan"]:
                    scan = out / f"{stem}-scan.pdf"
                    scan.write_bytes(render_scan(data, seed=seed))
                    entry["scan"] = str(scan)
            files.append(entry)
            golds.append(doc.gold)
        gold = out / "gold.jsonl"
        write_jsonl(golds, gold)
        elapsed = time.perf_counter() - started
        if options["json"]:
            self.stdout.write(
                json.dumps({"files": files, "gold": str(gold), "seconds": round(elapsed, 3)})
            )
        else:
            self.stdout.write(
                f"Wrote {len(files)} synthetic {family} transcript(s) to {out} "
                f"({elapsed:.2f} s); gold: {gold}"
            )

    def _format(self, options, out: Path) -> None:
        from engine.synthetic.filed import filed_document, render_filed
        from engine.synthetic.formats import format_document

        fmt, family = options["format"], options["layout"]
        if fmt == "ecf" and family == "bph":
            family = "federal"  # a filed copy is a court's; the board files none
        files, golds = [], []
        started = time.perf_counter()
        for seed in range(options["seed"], options["seed"] + options["n"]):
            if fmt == "ecf":
                doc = filed_document(seed, family, words=options["words"])
                stem, content, suffix = f"{family}-ecf-{seed:05d}", render_filed(doc), ".txt"
            else:
                doc = format_document(seed, fmt, family=family, words=options["words"])
                stem, content, suffix = doc.id, doc.content, doc.suffix
            gold = doc.gold
            gold.id = stem
            path = out / f"{stem}{suffix}"
            path.write_bytes(content.encode("utf-8"))
            files.append(
                {
                    "id": stem,
                    "seed": seed,
                    "layout": family,
                    "format": fmt,
                    "turns": len(doc.turns),
                    "words": len(gold.text.split()),
                    "spans": len(gold.spans),
                    "path": str(path),
                }
            )
            golds.append(gold)
        gold_path = out / "gold.jsonl"
        write_jsonl(golds, gold_path)
        elapsed = time.perf_counter() - started
        self._report(
            options, files, gold_path, elapsed,
            f"Wrote {len(files)} synthetic {family} transcript(s) as {fmt} to {out} "
            f"({elapsed:.2f} s); gold: {gold_path}",
        )  # fmt: skip
