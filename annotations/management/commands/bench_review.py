"""Server time of the review page and of every review action on a long transcript.

    python manage.py bench_review [--words 15000] [--spans 1500] [--repeat 15] [--json]
        [--layout bph|bph2009|federal|appellate|grand_jury|deposition]
    python manage.py bench_review --session [--json]   (annotations/benchmarks/review_session.py)
    python manage.py bench_review --session --busy-workers 2 [--busy-database URL]
        (two db_workers annotate meanwhile: annotations/benchmarks/busy_workers.py)

Generates a synthetic hearing (``engine.synthetic.generate_hearing``; ``--layout``: a
transcript of another generator family, e.g. a grand jury volume's question-and-answer
testimony, imported from its text export with the family's gold), stores it with
about ``--spans`` suggested spans (its gold mentions, PERSON split into name parts, with
detector provenance), then times page loads and htmx actions through Django's test client
(in process: middleware, services, queries and template rendering, no network) against the
configured database (``DATABASE_URL`` for PostgreSQL). Everything it creates is deleted at
the end unless ``--keep``. Models are loaded before timing (one warm-up call per action).
"""

import json
import os
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import connection
from django.test.utils import override_settings

from annotations.benchmarks.review_server import measure_lead_pages, measure_review_actions
from annotations.benchmarks.review_transcript import build_review_transcript
from anonreview import roles
from anonreview.core.models import AuditEvent
from engine.synthetic.families import FAMILIES


class Command(BaseCommand):
    help = "Time the review page and each review action on a generated long transcript."

    def add_arguments(self, parser):
        parser.add_argument("--words", type=int, default=15000)
        parser.add_argument("--spans", type=int, default=1500)
        parser.add_argument("--repeat", type=int, default=15, help="Timed calls per action.")
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument(
            "--layout",
            choices=FAMILIES,
            default="bph",
            help="The generator family of the transcript (engine/synthetic/families.py): "
            "bph, the parole hearing (default), or e.g. grand_jury / deposition (question-"
            "and-answer testimony), imported from its text export with the family's gold.",
        )
        parser.add_argument("--json", action="store_true")
        parser.add_argument("--keep", action="store_true", help="Keep the transcript and user.")
        parser.add_argument(
            "--browser",
            action="store_true",
            help="Time key → update in Chromium (Playwright) instead of server time.",
        )
        parser.add_argument(
            "--lead",
            action="store_true",
            help="Time a lead's pages on the reviewed hearing (every gold mention suggested, "
            "decided, submitted): the approval screen with its summary, reading mode, the "
            "approval, the release text and zip. --repeat runs each (default 2).",
        )
        parser.add_argument(
            "--session",
            action="store_true",
            help="An oracle annotator reviews a generated hearing to Submit in Chromium "
            "(inputs, forced inputs, human-time estimate, leaks).",
        )
        parser.add_argument(
            "--busy-workers",
            type=int,
            default=0,
            help="With --session: K db_worker processes annotate generated hearings "
            "(bench_corpus, in a session of their own) while the session runs.",
        )
        parser.add_argument(
            "--busy-database",
            default=os.environ.get(
                "BUSY_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/anonbench"
            ),
            help="The PostgreSQL database the busy workers use (created tables, its "
            "corpus deleted at the end; BUSY_DATABASE_URL).",
        )
        parser.add_argument("--chromium", default="/usr/bin/chromium")
        parser.add_argument(
            "--screenshots",
            default="",
            help="With --browser: save 1440×900 and 1280×720 shots here.",
        )

    def handle(self, *args, **options):
        hosts = [*settings.ALLOWED_HOSTS, "testserver"]
        with override_settings(ALLOWED_HOSTS=hosts):
            result = self._session(options) if options["session"] else self._run(options)
        result = {"layout": options["layout"], **result}
        if options["json"]:
            self.stdout.write(json.dumps(result, indent=2 if not options["session"] else None))
            return
        if options["session"]:
            self._print_session(result)
            return
        if options["browser"]:
            self.stdout.write(
                f"{result['database']}, Chromium: page interactive {result['interactive_ms']} ms"
            )
            self.stdout.write(
                f"{'key':<10}{'median ms':>10}{'p95 ms':>9}{'max ms':>9}"
                f"{'answer B med/p95/max':>22}{'answered ms':>13}{'confirmed med/p95 ms':>22}"
                f"{'server med/p95 ms':>19}"
            )
            for name, row in result["timings"].items():
                self.stdout.write(
                    f"{name:<10}{row['median_ms']:>10.1f}{row['p95_ms']:>9.1f}"
                    f"{row['max_ms']:>9.1f}"
                    f"{row['answer_bytes']:>8}/{row['answer_p95_bytes']:>6}/{row['answer_max_bytes']:>6}"
                    f"{row['answered_ms']:>13.1f}"
                    f"{row['confirmed_median_ms']:>14.1f} / {row['confirmed_p95_ms']:<6.1f}"
                    f"{row['server_median_ms']:>11.1f} / {row['server_p95_ms']:<6.1f}"
                )
            return
        self.stdout.write(
            f"{result['database']}, {result['layout']}: {result['words']} words, "
            f"{result['pages']} pages, "
            f"{result['spans']} spans, {result['entities']} groups"
        )
        self.stdout.write(
            f"{'request':<22}{'median ms':>10}{'p95 ms':>9}{'max ms':>9}{'queries':>9}"
            f"{'answer B med/max':>18}"
        )
        for name, row in result["timings"].items():
            self.stdout.write(
                f"{name:<22}{row['median_ms']:>10.1f}{row['p95_ms']:>9.1f}"
                f"{row['max_ms']:>9.1f}{row['queries']:>9}"
                f"{row['answer_bytes']:>10}/{row['answer_max_bytes']:>7}"
            )

    def _session(self, options) -> dict:
        from annotations.benchmarks.review_session import run_session_bench

        User = get_user_model()
        user = User.objects.create_user(username=f"bench-session-{uuid.uuid4().hex[:8]}")
        user.groups.add(Group.objects.get_or_create(name=roles.ANNOTATOR)[0])

        def session() -> dict:
            return run_session_bench(
                seed=options["seed"], words=options["words"], user=user,
                chromium=options["chromium"], key_rounds=options["repeat"],
                layout=options["layout"],
            )  # fmt: skip

        try:
            if not options["busy_workers"]:
                return session()
            from annotations.benchmarks.busy_workers import busy_workers

            with busy_workers(options["busy_workers"], options["busy_database"]) as busy:
                result = session()
                result["busy_workers"] = busy.report()
            return result
        finally:
            user.delete()

    def _print_session(self, r: dict) -> None:
        out = self.stdout.write
        out(
            f"{r['layout']}: {r['words']} words, {r['suggestions']} suggestions (machine errors: "
            + ", ".join(f"{k} {v}" for k, v in r["machine_errors"].items())
            + ")"
        )
        out(
            f"inputs {r['inputs']} ({r['forced']} forced, {r['decisions']} decisions): "
            + ", ".join(f"{k} {v}" for k, v in sorted(r["by_kind"].items()))
        )
        out(
            f"wall {r['wall_s']} s; human estimate {r['human_min']} min "
            f"({r['reading_min']} min reading at 200 wpm + keystroke-level model)"
        )
        out(
            f"submitted {r['submitted']}; release vs gold: {r['leaks']} leaks, "
            f"{r['over_redactions']} over-redactions"
        )
        if "busy_workers" in r:
            b = r["busy_workers"]
            out(
                f"while {b['workers']} workers annotated ({b['cores_used']} cores; "
                f"niceness {b['niceness']}; {b['annotating_at_end']} jobs still running at "
                f"the end; load {b['load_avg']})"
            )
        out(
            f"key -> both panes confirmed: median {r['key_ms']['median']} ms, p95 "
            f"{r['key_ms']['p95']} ms (visible: {r['key_visible_ms']['median']} / "
            f"{r['key_visible_ms']['p95']} ms)"
        )

    def _run(self, options) -> dict:
        User = get_user_model()
        user = User.objects.create_user(username=f"bench-review-{uuid.uuid4().hex[:8]}")
        # Access needs the role group as well as the assignment.
        user.groups.add(Group.objects.get_or_create(name=roles.ANNOTATOR)[0])
        transcript = build_review_transcript(
            seed=options["seed"], words=options["words"],
            max_spans=None if options["lead"] else options["spans"], assignees=[user],
            layout=options["layout"],
        )  # fmt: skip
        try:
            if options["lead"]:
                return measure_lead_pages(
                    transcript=transcript, user=user, repeat=options["repeat"]
                )
            if options["browser"]:
                from pathlib import Path

                from annotations.benchmarks.review_browser import run_browser_bench

                shots = Path(options["screenshots"]) if options["screenshots"] else None
                result = run_browser_bench(
                    transcript=transcript, user=user, repeat=options["repeat"],
                    chromium=options["chromium"], screenshots=shots,
                )  # fmt: skip
                return {"database": connection.vendor, **result}
            return measure_review_actions(
                transcript=transcript, user=user, repeat=options["repeat"]
            )
        finally:
            if not options["keep"]:
                AuditEvent.objects.filter(transcript=transcript).delete()
                transcript.delete()
                user.delete()
