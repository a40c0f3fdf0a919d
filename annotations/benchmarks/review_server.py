"""Server time of the review page and of every review action (``bench_review``), and of
a lead's pages on a reviewed hearing (``bench_review --lead``), through Django's test
client: in process, no network."""

import random
import statistics
import time
import uuid

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations import locking
from annotations.benchmarks.clients import bench_client
from annotations.models import Entity, Span
from annotations.selectors import review_windows
from annotations.services.review import word_step
from anonreview import roles
from engine.pseudonymize.word_lists import load_word_lists
from transcripts.models import Transcript, Utterance


def measure_lead_pages(*, transcript: Transcript, user, repeat: int) -> dict:
    """A lead's pages on a hearing its annotator decided (a few rejects one by one,
    the rest accepted per label in bulk) and submitted; ``repeat`` runs each."""
    from annotations.services import review as rs

    repeat = repeat if repeat != 15 else 2  # the default of the other modes is 15
    for span in Span.objects.filter(transcript=transcript, label="AGE")[:10]:
        rs.span_reject(span=span, actor=user)
    labels = set(transcript.spans.filter(status="suggested").values_list("label", flat=True))
    for label in sorted(labels):
        rs.spans_accept_all(transcript=transcript, actor=user, label=label)
    timings: dict[str, list[float]] = {}
    sizes: dict[str, int] = {}

    def call(name, method, url, data=None, as_client=None, expect=(200, 302)):
        t0 = time.perf_counter()
        response = getattr(as_client or client, method)(url, data or {})
        timings.setdefault(name, []).append((time.perf_counter() - t0) * 1000)
        if response.status_code not in expect:
            raise RuntimeError(f"{name}: HTTP {response.status_code}")
        sizes[name] = len(response.content)

    # the annotator's Submit as they wait for it: the release rule and the leak check over
    # the whole transcript (its findings listed, or the transcript submitted), in a process
    # that loaded the word lists at start as the web server does (anonreview/wsgi.py)
    load_word_lists()
    annotator = bench_client()
    annotator.force_login(user)
    submit_url = reverse("annotations:submit", args=[transcript.pk])
    # 409: the leak check's findings, listed for the annotator to answer
    call("submit", "post", submit_url, as_client=annotator, expect=(200, 302, 409))
    not_a_leak = 0
    if Transcript.objects.get(pk=transcript.pk).state != Transcript.State.SUBMITTED:
        not_a_leak = _submit_answering_leaks(transcript, user)
    User = get_user_model()
    lead = User.objects.create_user(username=f"bench-lead-{uuid.uuid4().hex[:8]}")
    lead.groups.add(Group.objects.get_or_create(name=roles.LEAD)[0])
    client = bench_client()
    client.force_login(lead)

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
        "not_a_leak": not_a_leak,
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


def _submit_answering_leaks(transcript: Transcript, user, rounds: int = 5) -> int:
    """Submit as the annotator; where the leak check lists places no kept span touches
    (on a grand jury volume: "THE FOREPERSON:", "GRAND JUROR:", a name-shaped filler word),
    mark them "not a leak here" (an ordinary word), as the session oracle does, and submit
    again. Returns how many places were marked; a listed place on a span (every span is a
    gold mention here) is raised."""
    from annotations.models import LeakException
    from annotations.services import workflow as wf
    from annotations.services.review.exceptions import leak_exception_add

    marked = 0
    for _ in range(rounds):
        try:
            wf.transcript_submit(transcript=transcript, actor=user)
            return marked
        except wf.SubmitLeaksFound as exc:
            gold = list(transcript.spans.values_list("start", "end"))  # every span is gold
            places = {(leak.source_start, leak.source_end) for leak in exc.leaks}
            if None in {p for pair in places for p in pair} or any(
                a < e and s < b for a, b in places for s, e in gold
            ):
                raise
            for a, b in sorted(places):
                leak_exception_add(transcript=transcript, actor=user, start=a, end=b,
                                   reason=LeakException.Reason.ORDINARY_WORD)  # fmt: skip
                marked += 1
    wf.transcript_submit(transcript=transcript, actor=user)
    return marked


def measure_review_actions(*, transcript: Transcript, user, repeat: int) -> dict:
    client = bench_client(HTTP_HX_REQUEST="true")
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
    search_url = reverse("annotations:review-search", args=[transcript.pk])
    # the whole-text search: a word every page holds ("the": the first 200 matches listed)
    # or a public word the machine leaves unmarked (Board, parole)
    timed("search", "get", lambda: (search_url, {"find": rng.choice(["the", "Board", "parole"])}))
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
            clash = Span.objects.filter(transcript=transcript, start__lt=span.start, end__gt=left)
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
        return f"{entity.ref}:{locking.group_version(entity.spans.values_list('id', 'version'))}"

    def merge_args():
        source, target = next(person_groups), next(person_groups)
        return action("merge"), {
            "source": source.ref,
            "target": target.ref,
            "group_version": [group_version(source), group_version(target)],
            "loaded": loaded,
        }

    timed("merge", "post", merge_args)

    # split reads the groups from the other end: on a transcript with few PERSON groups the
    # merges above may have taken the first ones
    later_groups = iter(
        Entity.objects.filter(transcript=transcript, label="PERSON", spans__isnull=False)
        .distinct()
        .order_by("-id")
    )

    def split_args():
        while True:
            entity = next(later_groups)
            members = list(entity.spans.all()[:2])
            if len(members) > 1:
                return action("split"), {
                    "span": members[0].pk,
                    "version": members[0].version,
                    "loaded": loaded,
                }

    timed("split", "post", split_args)

    undecided_groups = iter(
        Entity.objects.filter(transcript=transcript, spans__status="suggested")
        .distinct()
        .order_by("-id")
    )

    def accept_group_args():
        while True:
            entity = next(undecided_groups)  # a group of any label with undecided spans
            if entity.spans.filter(status="suggested").exists():
                return action("accept_all"), {"entity": entity.ref, "confirm": "yes",
                                              "loaded": loaded}  # fmt: skip

    timed("accept_all_group", "post", accept_group_args)

    # The surface-form table: its page, a form relabelled from its row
    # (every mention, one input), and one occurrence rejected alone with its list open.
    from annotations.selectors.forms import review_form_table

    forms_url = reverse("annotations:review-forms", args=[transcript.pk])
    forms_action = lambda name: (  # noqa: E731
        reverse("annotations:review-forms-action", args=[transcript.pk, name]) + "?label=PERSON"
    )
    timed("forms_page", "get", lambda: (forms_url + "?label=PERSON", None))

    def open_form():
        return next(f for f in review_form_table(transcript=transcript)["PERSON"] if f.open)

    def relabel_form_args():
        form = open_form()
        return forms_action("relabel_form"), {
            "label": "PERSON", "form": form.key, "to": "LOCATION", "confirm": "yes",
        }  # fmt: skip

    timed("relabel_form", "post", relabel_form_args)

    def occurrence_args():
        form = open_form()
        occurrence = next(o for o in form.occurrences if o.status == "suggested")
        return forms_action("reject"), {
            "span": occurrence.span_id, "version": occurrence.version, "open": form.key,
        }  # fmt: skip

    timed("occurrence_reject", "post", occurrence_args)

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
