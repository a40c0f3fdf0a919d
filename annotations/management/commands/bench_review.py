"""Server time of the review page and of every review action on a long transcript.

    python manage.py bench_review [--words 15000] [--spans 1500] [--repeat 15] [--json]
    python manage.py bench_review --session [--json]   (annotations/management/review_session_bench.py)
    python manage.py bench_review --session --busy-workers 2 [--busy-database URL]
        (two db_workers annotate meanwhile: annotations/management/busy_workers.py)

Generates a synthetic hearing (``engine.synthetic.generate_hearing``), stores it with
about ``--spans`` suggested spans (its gold mentions, PERSON split into name parts, with
detector provenance), then times page loads and htmx actions through Django's test client
(in process: middleware, services, queries and template rendering, no network) against the
configured database (``DATABASE_URL`` for PostgreSQL). Everything it creates is deleted at
the end unless ``--keep``. Models are loaded before timing (one warm-up call per action).
"""

import json
import os
import random
import statistics
import time
import uuid

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from annotations import locking
from annotations.models import Entity, Span
from annotations.selectors import review_windows
from annotations.services.review import review_assign_entities, word_step
from anonreview import roles
from anonreview.core.models import AuditEvent
from engine.detectors.names import stored_pieces
from transcripts.models import Transcript, Utterance

DETECTORS = ("presidio", "spacy", "rampart", "cover_names", "propagation")


def build_review_transcript(
    *, seed: int = 7, words: int = 15000, max_spans: int | None = 1500, assignees=(), title=None
) -> Transcript:
    """A stored synthetic hearing with suggested spans and reference groups (for benchmarks
    and tests): its gold mentions as suggestions, PERSON split into name parts, thinned
    evenly to ``max_spans``."""
    from annotations.services.annotation import suggestions_create
    from engine.synthetic import generate_hearing

    hearing = generate_hearing(seed, words=words)
    text = hearing.text
    transcript = Transcript.objects.create(
        title=title or f"Synthetic hearing {seed} ({words} words)",
        text=text,
        metadata=hearing.metadata,
        sha256=f"bench-{seed}-{words}-{uuid.uuid4().hex}",
        state=Transcript.State.READY,
        page_count=max((u.page for u in hearing.utterances), default=0),
    )
    Utterance.objects.bulk_create(
        Utterance(
            transcript=transcript,
            index=i,
            speaker=u.speaker,
            role=u.role,
            page=u.page,
            section=u.section,
            start=u.start,
            end=u.end,
        )  # fmt: skip
        for i, u in enumerate(hearing.utterances)
    )
    extents = []
    for span in hearing.gold.spans:
        pieces = stored_pieces(text, span.start, span.end, span.label)
        extents += [(s, e, span.label) for s, e in pieces]
    extents = sorted(set(extents))
    if max_spans and len(extents) > max_spans:
        step = len(extents) / max_spans
        extents = [extents[int(i * step)] for i in range(max_spans)]
    rng = random.Random(seed)
    spans = []
    last_end = -1
    for start, end, label in extents:
        if start < last_end:
            continue
        last_end = end
        score = round(rng.uniform(0.35, 0.99), 2)
        provenance = [{"detector": d, "score": round(min(1.0, score + rng.uniform(-0.1, 0.1)), 2)}
                      for d in rng.sample(DETECTORS, rng.randint(1, 3))]  # fmt: skip
        spans.append((start, end, label, provenance, score))
    # As the annotation stores them: a machine proposal per suggestion (the approval
    # screen compares the decisions with it).
    suggestions_create(transcript=transcript, proposed=spans)
    if assignees:
        transcript.assignees.set(assignees)
    review_assign_entities(transcript=transcript)
    return transcript


class Command(BaseCommand):
    help = "Time the review page and each review action on a generated long transcript."

    def add_arguments(self, parser):
        parser.add_argument("--words", type=int, default=15000)
        parser.add_argument("--spans", type=int, default=1500)
        parser.add_argument("--repeat", type=int, default=15, help="Timed calls per action.")
        parser.add_argument("--seed", type=int, default=7)
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
            "approval, the release text and zip (issue 20). --repeat runs each (default 2).",
        )
        parser.add_argument(
            "--session",
            action="store_true",
            help="An oracle annotator reviews a generated hearing to Submit in Chromium "
            "(inputs, forced inputs, human-time estimate, leaks; issue 21).",
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
            f"{result['database']}: {result['words']} words, {result['pages']} pages, "
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
        from annotations.management.review_session_bench import run_session_bench

        User = get_user_model()
        user = User.objects.create_user(username=f"bench-session-{uuid.uuid4().hex[:8]}")
        user.groups.add(Group.objects.get_or_create(name=roles.ANNOTATOR)[0])

        def session() -> dict:
            return run_session_bench(
                seed=options["seed"], words=options["words"], user=user,
                chromium=options["chromium"], key_rounds=options["repeat"],
            )  # fmt: skip

        try:
            if not options["busy_workers"]:
                return session()
            from annotations.management.busy_workers import busy_workers

            with busy_workers(options["busy_workers"], options["busy_database"]) as busy:
                result = session()
                result["busy_workers"] = busy.report()
            return result
        finally:
            user.delete()

    def _print_session(self, r: dict) -> None:
        out = self.stdout.write
        out(
            f"{r['words']} words, {r['suggestions']} suggestions (machine errors: "
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
        # Access needs the role group as well as the assignment (issue 11).
        user.groups.add(Group.objects.get_or_create(name=roles.ANNOTATOR)[0])
        transcript = build_review_transcript(
            seed=options["seed"], words=options["words"],
            max_spans=None if options["lead"] else options["spans"], assignees=[user],
        )  # fmt: skip
        try:
            if options["lead"]:
                return self._measure_lead(transcript, user, options["repeat"])
            if options["browser"]:
                from pathlib import Path

                from annotations.management.review_browser_bench import run_browser_bench

                shots = Path(options["screenshots"]) if options["screenshots"] else None
                result = run_browser_bench(
                    transcript=transcript, user=user, repeat=options["repeat"],
                    chromium=options["chromium"], screenshots=shots,
                )  # fmt: skip
                return {"database": connection.vendor, **result}
            return self._measure(transcript, user, options["repeat"])
        finally:
            if not options["keep"]:
                AuditEvent.objects.filter(transcript=transcript).delete()
                transcript.delete()
                user.delete()

    def _measure_lead(self, transcript: Transcript, user, repeat: int) -> dict:
        """A lead's pages on a hearing its annotator decided (a few rejects one by one,
        the rest accepted per label in bulk) and submitted; ``repeat`` runs each."""
        from annotations.services import review as rs
        from annotations.services import workflow as wf

        repeat = repeat if repeat != 15 else 2  # the default of the other modes is 15
        for span in Span.objects.filter(transcript=transcript, label="AGE")[:10]:
            rs.span_reject(span=span, actor=user)
        labels = set(transcript.spans.filter(status="suggested").values_list("label", flat=True))
        for label in sorted(labels):
            rs.spans_accept_all(transcript=transcript, actor=user, label=label)
        wf.transcript_submit(transcript=transcript, actor=user)
        User = get_user_model()
        lead = User.objects.create_user(username=f"bench-lead-{uuid.uuid4().hex[:8]}")
        lead.groups.add(Group.objects.get_or_create(name=roles.LEAD)[0])
        client = Client()
        client.force_login(lead)
        timings: dict[str, list[float]] = {}
        sizes: dict[str, int] = {}

        def call(name, method, url, data=None):
            t0 = time.perf_counter()
            response = getattr(client, method)(url, data or {})
            timings.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
            if response.status_code not in (200, 302):
                raise RuntimeError(f"{name}: HTTP {response.status_code}")
            sizes[name] = len(response.content)

        detail = reverse("annotations:detail", args=[transcript.pk])
        reading = reverse("annotations:review-reading", args=[transcript.pk])
        for _ in range(repeat):
            call("approval screen", "get", detail)
        for _ in range(repeat):
            call("reading mode", "get", reading)
        call("approve", "post", reverse("annotations:approve", args=[transcript.pk]))
        if Transcript.objects.get(pk=transcript.pk).state != Transcript.State.APPROVED:
            raise RuntimeError("the approval was refused (leak check)")
        text_url = reverse("annotations:export-release-text", args=[transcript.pk])
        for _ in range(repeat):
            call("release text", "post", text_url)
        for _ in range(repeat):
            call("release zip", "post", reverse("annotations:export-release-zip"),
                 {"transcripts": [transcript.pk]})  # fmt: skip
        lead.delete()
        return {
            "database": connection.vendor,
            "words": len(transcript.text.split()),
            "pages": transcript.page_count,
            "spans": transcript.spans.count(),
            "entities": Entity.objects.filter(transcript=transcript).count(),
            "timings": {
                name: {
                    "runs_ms": [round(t, 1) for t in values],
                    "median_ms": round(statistics.median(values), 1),
                    "p95_ms": round(max(values), 1),
                    "max_ms": round(max(values), 1),
                    "queries": 0,
                    "answer_bytes": sizes[name],
                    "answer_max_bytes": sizes[name],
                }
                for name, values in timings.items()
            },
        }

    def _measure(self, transcript: Transcript, user, repeat: int) -> dict:
        client = Client(HTTP_HX_REQUEST="true")
        client.force_login(user)
        page_url = reverse("annotations:review", args=[transcript.pk])
        action = lambda name: reverse("annotations:review-action", args=[transcript.pk, name])  # noqa: E731
        windows = Utterance.objects.filter(transcript=transcript).values("page").distinct().count()
        n_windows = max(1, (windows + 2) // 3)
        loaded = "0,1"
        rng = random.Random(1)
        timings: dict[str, list[float]] = {}
        queries: dict[str, int] = {}

        def spans(**filters):
            return list(Span.objects.filter(transcript=transcript, **filters).order_by("start"))

        sizes: dict[str, list[int]] = {}

        def call(name, method, url, data=None, expect=(200,)):
            t0 = time.perf_counter()
            response = getattr(client, method)(url, data or {})
            elapsed = (time.perf_counter() - t0) * 1000
            if response.status_code not in expect:
                raise RuntimeError(f"{name}: HTTP {response.status_code}")
            sizes.setdefault(name, []).append(len(response.content))
            return elapsed

        def timed(name, method, make_args, expect=(200,)):
            """One warm-up call, one counted call, ``repeat`` timed calls."""
            call(name, method, *make_args(), expect=expect)
            with CaptureQueriesContext(connection) as ctx:
                call(name, method, *make_args(), expect=expect)
            queries[name] = len(ctx.captured_queries)
            timings[name] = [call(name, method, *make_args(), expect=expect) for _ in range(repeat)]

        suggested = iter(spans(status="suggested"))

        def next_span():
            span = next(suggested)
            span.refresh_from_db()
            return span

        def span_post(name, extra=None):
            def make():
                span = next_span()
                return action(name), {"span": span.pk, "version": span.version, "loaded": loaded,
                                      **(extra or {})}  # fmt: skip

            return make

        timed("page_load", "get", lambda: (page_url, {}))
        timed("window_load", "get", lambda: (
            reverse("annotations:review-window", args=[transcript.pk, rng.randrange(n_windows)]), {}
        ))  # fmt: skip
        timed("inspector", "get", lambda: (
            reverse("annotations:review-inspector", args=[transcript.pk]), {"span": next_span().pk}
        ))  # fmt: skip
        timed("accept", "post", span_post("accept"))
        timed("reject", "post", span_post("reject"))
        timed("relabel", "post", span_post("relabel", {"label": "ORGANIZATION"}))

        # The worst case for an answer's size: spans on the longest utterances of the
        # loaded windows (a line sent whole costs about 10 KB per 3,000 characters).
        loaded_pages = [p for w in review_windows(transcript=transcript)[:2] for p in w.pages]
        by_length = sorted(
            Utterance.objects.filter(transcript=transcript), key=lambda u: u.start - u.end
        )
        # the longest utterances, those of the loaded windows first, that hold enough
        # suggestions for both timed actions (each: a warm-up, a counted and ``repeat`` calls)
        longest = [u for u in by_length if u.page in loaded_pages] + [
            u for u in by_length if u.page not in loaded_pages
        ]
        on_long_spans = []
        for u in longest:
            if len(on_long_spans) >= 2 * (repeat + 2):
                break
            on_long_spans += spans(status="suggested", start__gte=u.start, start__lt=u.end)
        on_long = iter(on_long_spans)

        def long_post(name, extra=None):
            def make():
                span = next(on_long)
                span.refresh_from_db()
                return action(name), {"span": span.pk, "version": span.version, "loaded": loaded,
                                      **(extra or {})}  # fmt: skip

            return make

        timed("accept_long_line", "post", long_post("accept"))
        timed("relabel_long_line", "post", long_post("relabel", {"label": "ORGANIZATION"}))

        def resizable():
            # Suggested spans whose left neighbour word is free and on the same line, so
            # that every timed resize succeeds (a refused resize is not the path to time).
            text = transcript.text
            for span in spans(status="suggested"):
                left = word_step(text, span.start, forward=False)
                if "\n" in text[left : span.start] or left >= span.start:
                    continue
                clash = Span.objects.filter(
                    transcript=transcript, start__lt=span.start, end__gt=left
                )
                if clash.exists():
                    continue
                yield span

        resizable_spans = resizable()

        def resize_args():
            span = next(resizable_spans)
            span.refresh_from_db()
            return action("resize"), {"span": span.pk, "version": span.version,
                                      "edge": "left", "loaded": loaded}  # fmt: skip

        timed("resize", "post", resize_args)
        timed("undo", "post", lambda: (action("undo"), {"loaded": loaded}))

        text = transcript.text
        words = [(m.start(), m.end()) for m in __import__("re").finditer(r"[a-z]{6,}", text)]
        taken = [(s.start, s.end) for s in spans()]
        free = iter(
            (s, e) for s, e in words[:: max(1, len(words) // 200)]
            if not any(a < e and b > s for a, b in taken)
        )  # fmt: skip

        def add_args():
            start, end = next(free)
            return action("add"), {
                "start": start,
                "end": end,
                "label": "LOCATION",
                "loaded": loaded,
            }

        timed("add", "post", add_args)
        timed("delete", "post", span_post("delete"))
        timed("apply_all", "post", span_post("apply_all"))

        person_groups = iter(
            Entity.objects.filter(transcript=transcript, label="PERSON", spans__isnull=False)
            .distinct()
            .order_by("id")
        )

        def group_version(entity) -> str:
            return (
                f"{entity.ref}:{locking.group_version(entity.spans.values_list('id', 'version'))}"
            )

        def merge_args():
            source, target = next(person_groups), next(person_groups)
            return action("merge"), {
                "source": source.ref,
                "target": target.ref,
                "group_version": [group_version(source), group_version(target)],
                "loaded": loaded,
            }

        timed("merge", "post", merge_args)

        def split_args():
            while True:
                entity = next(person_groups)
                members = list(entity.spans.all()[:2])
                if len(members) > 1:
                    return action("split"), {
                        "span": members[0].pk,
                        "version": members[0].version,
                        "loaded": loaded,
                    }

        timed("split", "post", split_args)

        def accept_group_args():
            while True:
                entity = next(person_groups)
                if entity.spans.filter(status="suggested").exists():
                    return action("accept_all"), {"entity": entity.ref, "confirm": "yes",
                                                  "loaded": loaded}  # fmt: skip

        timed("accept_all_group", "post", accept_group_args)

        return {
            "database": connection.vendor,
            "words": len(text.split()),
            "pages": transcript.page_count,
            "spans": Span.objects.filter(transcript=transcript).count(),
            "entities": Entity.objects.filter(transcript=transcript).count(),
            "repeat": repeat,
            "timings": {
                name: {
                    "median_ms": round(statistics.median(values), 1),
                    "p95_ms": round(sorted(values)[max(0, int(len(values) * 0.95) - 1)], 1),
                    "max_ms": round(max(values), 1),
                    "queries": queries[name],
                    "answer_bytes": round(statistics.median(sizes[name])),
                    "answer_max_bytes": max(sizes[name]),
                }
                for name, values in timings.items()
            },
        }
