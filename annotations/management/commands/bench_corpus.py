"""``python manage.py bench_corpus [--n 6] [--words 15000] [--workers 1,2] [--json]``.

The corpus benchmark (DESIGN.md, docs/speed.md). Generates ``--n`` synthetic hearing
PDFs of about ``--words`` words and, for each worker count K of ``--workers``, pushes
them through the real path on the configured database: one batch upload (one import
job per file), whose imports queue one annotation job per transcript, worked by K ``db_worker``
processes that this command starts (models loaded before the clock starts) and stops.
Stage times come from the task rows. In the same run it times one full spaCy pass over
one hearing's text. Afterwards the benchmark's transcripts, jobs and originals are
deleted (also when a run fails).

JSON: ``{"n", "words_per_transcript", "spacy_sm_s", "runs": [{"workers", "wall_s",
"per_transcript_s", "import_s", "annotate_s", ...}], "speedup", "projected_334_min",
"peak_rss_mb_per_worker"}``. ``import_s`` is the import jobs' run times added up, ``annotate_s``
the annotation jobs' run times added up (both busy seconds, not wall);
``per_transcript_s`` = ``wall_s`` / n; ``speedup`` = throughput with the most workers /
throughput with the fewest; ``projected_334_min`` = 334 × ``per_transcript_s`` of the
run with the most workers, in minutes. Other ``db_worker`` processes on the same
database would take jobs too: run it where none is running.
"""

from __future__ import annotations

import json
import signal

from django.core.management.base import BaseCommand, CommandError

from annotations.benchmarks.corpus import require_no_pending_migrations, run_corpus_bench
from annotations.management.database import require_migrated_database


def _workers_arg(value: str) -> list[int]:
    try:
        counts = [int(v) for v in value.split(",") if v.strip()]
    except ValueError as exc:
        raise CommandError("--workers takes worker counts separated by commas, e.g. 1,2") from exc
    if not counts or any(c < 1 or c > 64 for c in counts):
        raise CommandError("--workers: each count must be between 1 and 64")
    return counts


def _terminate(signum, frame):
    raise SystemExit(128 + signum)


class Command(BaseCommand):
    help = "Time a generated corpus through upload, import and annotation jobs on K workers."

    def add_arguments(self, parser):
        parser.add_argument("--n", type=int, default=6, help="hearings (default 6)")
        parser.add_argument("--words", type=int, default=15000, help="words per hearing")
        parser.add_argument("--workers", default="1,2", help="worker counts (default 1,2)")
        parser.add_argument(
            "--seed", type=int, default=880000, help="first generator seed (default 880000)"
        )
        parser.add_argument("--json", action="store_true", dest="as_json")
        parser.add_argument(
            "--timeline",
            action="store_true",
            help="add every job's worker, kind, start and end (seconds) to each run",
        )

    def handle(self, *args, n, words, workers, seed, as_json, timeline, **options):
        counts = _workers_arg(workers)
        # Stopped with SIGTERM, still stop the workers and remove the benchmark's rows.
        signal.signal(signal.SIGTERM, _terminate)
        if n < 1:
            raise CommandError("--n must be at least 1")
        if words < 500:
            raise CommandError("--words must be at least 500")
        require_migrated_database()
        require_no_pending_migrations()
        say = (lambda msg: self.stderr.write(msg)) if as_json else self.stdout.write
        report = run_corpus_bench(
            n=n, words=words, counts=counts, seed=seed, timeline=timeline, say=say
        )
        if as_json:
            self.stdout.write(json.dumps(report))
        else:
            for key, value in report.items():
                self.stdout.write(f"{key}: {value}")
