"""An action's answer sends only what changed: a span whose extent did not change is
redrawn alone (its mark and its replacement), and swapping those two elements into the
old line gives exactly the line drawn again."""

import html
import json
import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from annotations import selectors
from annotations.benchmarks.review_transcript import build_review_transcript
from annotations.models import Span
from annotations.selectors import ReviewFilters
from annotations.views.review_lines import build_lines
from anonreview import roles
from tests.factories import make_user
from transcripts.models import Utterance

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
ANSWER_LIMIT = 10 * 1024


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def hearing(db):
    user = make_user("long-reader")
    user.groups.add(Group.objects.get_or_create(name=roles.ANNOTATOR)[0])
    transcript = build_review_transcript(seed=3, words=4000, max_spans=400, assignees=[user])
    return transcript, user


def _line(transcript, utterance) -> tuple[str, str]:
    rows = selectors.review_span_rows(transcript=transcript)
    (line,) = build_lines(
        transcript=transcript, utterances=[utterance], rows=rows,
        filters=ReviewFilters(), page_breaks=False,
    )  # fmt: skip
    return line.original, line.pseudonymized


def span_patch(body: str) -> dict[int, list]:
    """The answer's ``#span-patch`` rows by span id."""
    found = re.search(
        r"<div id=\"span-patch\" hidden hx-swap-oob=\"true\" data-spans='([^']*)'", body
    )
    return {row[0]: row for row in json.loads(html.unescape(found.group(1)))}


def _patched(old: tuple[str, str], body: str, span_id: int) -> tuple[str, str]:
    """The old line with the answer's patch of ``span_id`` applied the way the page does
    (``applySpanPatch`` in static/js/review_marks.js): the mark takes the attributes, its twin
    in the pseudonymized pane is rebuilt."""
    _id, label, status, version, ref, replacement, extra = span_patch(body)[span_id]
    classes = f"span lab-{label} st-{status}" + (f" {extra}" if extra else "")

    def mark(m):
        tag = m.group(1)
        for name, value in (("class", classes), ("data-ref", ref), ("data-label", label),
                            ("data-status", status), ("data-version", str(version))):  # fmt: skip
            tag = re.sub(rf'\b{name}="[^"]*"', f'{name}="{html.escape(value)}"', tag, count=1)
        return tag + m.group(2)

    original = re.sub(rf'(<mark id="s-{span_id}"[^>]*>)([^<]*</mark>)', mark, old[0])
    text = html.unescape(re.search(rf'<mark id="s-{span_id}"[^>]*>([^<]*)</mark>', old[0])[1])
    if replacement is None:
        twin = (
            f'<span class="kept" id="k-{span_id}" data-kept-id="{span_id}"'
            f' title="{label} rejected: kept">{html.escape(text)}</span>'
        )
    else:
        twin = (
            f'<span class="rep lab-{label} st-{status}" id="p-{span_id}" data-span-id="{span_id}"'
            f' data-ref="{html.escape(ref)}" data-label="{label}">{html.escape(replacement)}</span>'
        )
    pseudonymized = re.sub(
        rf'<span class="(?:rep|kept)[^"]*" id="[pk]-{span_id}"[^>]*>[^<]*</span>',
        lambda _m: twin,
        old[1],
    )
    return original, pseudonymized


def _loaded(transcript) -> str:
    windows = selectors.review_windows(transcript=transcript)
    return ",".join(str(w.index) for w in windows)


def _post(client, transcript, action, **data):
    url = reverse("annotations:review-action", args=[transcript.pk, action])
    response = client.post(url, {"loaded": _loaded(transcript), **data}, **HX)
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


def _lone_spans(transcript, n):
    """Suggested spans that no other span overlaps (those are redrawn alone)."""
    spans = list(Span.objects.filter(transcript=transcript).order_by("start", "-end"))
    lone = [
        s
        for i, s in enumerate(spans)
        if s.status == "suggested"
        and (i == 0 or spans[i - 1].end <= s.start)
        and (i + 1 == len(spans) or spans[i + 1].start >= s.end)
    ]
    return lone[:: max(1, len(lone) // n)][:n]


def test_swapping_the_answers_span_elements_into_the_old_line_gives_the_new_line(client, hearing):
    transcript, user = hearing
    client.force_login(user)
    checked = 0
    for span in _lone_spans(transcript, 12):
        utterance = Utterance.objects.get(
            transcript=transcript, start__lte=span.start, end__gt=span.start
        )
        new_label = "LOCATION" if span.label != "LOCATION" else "ORGANIZATION"
        for action, extra in (
            ("accept", {}),
            ("reject", {}),
            ("undo", {}),
            ("relabel", {"label": new_label}),
            ("relabel", {"label": "DATE"}),
            ("flag", {"flagged": "1", "note": "check"}),
        ):
            old = _line(transcript, utterance)
            span.refresh_from_db()
            data = {} if action == "undo" else {"span": span.pk, "version": span.version}
            body = _post(client, transcript, action, **data, **extra)
            if f'id="uo-{utterance.index}"' in body:  # sent whole: nothing to compare
                continue
            assert _patched(old, body, span.pk) == _line(transcript, utterance), action
            checked += 1
    assert checked >= 50


def test_a_span_overlapping_another_is_sent_with_its_whole_line(client, hearing):
    transcript, user = hearing
    client.force_login(user)
    span = _lone_spans(transcript, 1)[0]
    Span.objects.create(
        transcript=transcript, start=span.start, end=span.end + 1, label="ORGANIZATION"
    )
    utterance = Utterance.objects.get(
        transcript=transcript, start__lte=span.start, end__gt=span.start
    )
    body = _post(client, transcript, "accept", span=span.pk, version=span.version)
    assert f'id="uo-{utterance.index}"' in body and f'id="up-{utterance.index}"' in body
    assert span_patch(body) == {}


@pytest.fixture
def long_hearing(db):
    """A long hearing: its board's decision is one utterance whose line, sent whole,
    weighs more than an answer may. The decision gets the words the other sections leave
    (the generator's hard cases take a fixed share): at 30,000 words its line is 13.8 KB
    sent whole, at 15,000 words only 7.3 KB."""
    user = make_user("long-reader")
    user.groups.add(Group.objects.get_or_create(name=roles.ANNOTATOR)[0])
    transcript = build_review_transcript(seed=3, words=30000, max_spans=1500, assignees=[user])
    return transcript, user


def test_answers_on_the_longest_utterance_stay_under_10_kb(client, long_hearing):
    transcript, user = long_hearing
    client.force_login(user)
    longest = max(Utterance.objects.filter(transcript=transcript), key=lambda u: u.end - u.start)
    line = _line(transcript, longest)
    # Sent whole, this line alone would break the bound.
    assert len((line[0] + line[1]).encode()) > ANSWER_LIMIT
    spans = Span.objects.filter(
        transcript=transcript, start__gte=longest.start, start__lt=longest.end, status="suggested"
    ).order_by("start")
    sizes = []
    for span in list(spans)[:4]:
        for action, extra in (("accept", {}), ("reject", {}), ("undo", {}),
                              ("relabel", {"label": "LOCATION" if span.label != "LOCATION"
                                           else "ORGANIZATION"})):  # fmt: skip
            span.refresh_from_db()
            data = {} if action == "undo" else {"span": span.pk, "version": span.version}
            body = _post(client, transcript, action, **data, **extra)
            sizes.append(len(body.encode()))
            assert len(body.encode()) <= ANSWER_LIMIT, (action, len(body))
    assert len(sizes) == 16


def test_a_span_the_action_creates_or_brings_back_is_sent_with_its_whole_line(client, hearing):
    """An added span, or one an undo recreates, has no element on the page to replace."""
    transcript, user = hearing
    client.force_login(user)
    span = _lone_spans(transcript, 1)[0]
    utterance = Utterance.objects.get(
        transcript=transcript, start__lte=span.start, end__gt=span.start
    )
    _post(client, transcript, "delete", span=span.pk, version=span.version)
    body = _post(client, transcript, "undo")  # the span comes back with its id
    assert Span.objects.filter(pk=span.pk).exists()
    assert f'id="uo-{utterance.index}"' in body and f'id="up-{utterance.index}"' in body
    assert span_patch(body) == {}
    words = [
        m for m in re.finditer(r"\b[a-z]{6,}\b", transcript.text[utterance.start : utterance.end])
    ]
    taken = [(s.start, s.end) for s in Span.objects.filter(transcript=transcript)]
    start, end = next(
        (utterance.start + m.start(), utterance.start + m.end())
        for m in words
        if not any(a < utterance.start + m.end() and b > utterance.start + m.start()
                   for a, b in taken)
    )  # fmt: skip
    body = _post(client, transcript, "add", start=start, end=end, label="LOCATION")
    assert f'id="uo-{utterance.index}"' in body and f'id="up-{utterance.index}"' in body
    assert span_patch(body) == {}


def test_a_merge_sends_attributes_only_no_minimap_cells_or_queue_entries(client, hearing):
    """A merge changes refs, not counts: no minimap cell and no j/k entry is sent."""
    from annotations import locking
    from annotations.models import Entity

    transcript, user = hearing
    client.force_login(user)
    groups = sorted(
        (e for e in Entity.objects.filter(transcript=transcript, label="PERSON")),
        key=lambda e: -e.spans.count(),
    )[:2]

    def version(e):
        return f"{e.ref}:{locking.group_version(e.spans.values_list('id', 'version'))}"

    moved = set(groups[0].spans.values_list("pk", flat=True))
    body = _post(
        client, transcript, "merge", source=groups[0].ref, target=groups[1].ref,
        group_version=[version(groups[0]), version(groups[1])],
    )  # fmt: skip
    assert len(moved) >= 5 and set(span_patch(body)) == moved
    assert {r[4] for r in span_patch(body).values()} == {groups[1].ref}
    assert 'class="mm' not in body
    patch = re.search(r'id="queue-patch" hidden hx-swap-oob="true" data-patch="([^"]*)"', body)
    assert json.loads(html.unescape(patch.group(1))) == {"upsert": [], "remove": []}
    assert len(body.encode()) <= ANSWER_LIMIT


def test_a_delete_recounts_its_page_in_the_minimap(client, hearing):
    transcript, user = hearing
    client.force_login(user)
    span = _lone_spans(transcript, 1)[0]
    page = selectors.review_span_rows(transcript=transcript)
    page = next(r.page for r in page if r.id == span.pk)
    body = _post(client, transcript, "delete", span=span.pk, version=span.version)
    cell = re.search(
        rf'<a class="mm[^"]*" id="mm-{page}"[^>]*title="Page {page}: (\d+) of (\d+)', body
    )
    rows = [r for r in selectors.review_span_rows(transcript=transcript) if r.page == page]
    assert cell and (int(cell[1]), int(cell[2])) == (sum(not r.decided for r in rows), len(rows))
