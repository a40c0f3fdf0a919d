"""The review workspace on a hearing annotated by the real detector ensemble (Playwright,
Debian Chromium): multi-part names cut into adjacent parts, spelled names, a dozen
labels and long lines, as the detectors propose them. Keys typed WITHOUT waits act on the span
focused when they were pressed, and undo walks back mixed actions.

The detectors load once per process (``detectors_from_settings`` keeps them), so this
module pays for them once.
"""

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.services.annotation import transcript_annotate
from anonreview.core.models import AuditEvent
from engine.synthetic import generate_hearing
from tests.test_browser_review_keys import (
    current,
    idle,
    merge_two_person_groups,
    open_review,
    state,
)
from transcripts.services.importing import transcript_import

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def annotated(annotator, lead):
    """A generated hearing imported as text and annotated by the configured detectors."""
    hearing = generate_hearing(23, words=2500)
    transcript = transcript_import(
        name="hearing-23.txt", data=hearing.text.encode(), user=lead,
        assignees=[annotator], annotate=False,
    )  # fmt: skip
    result = transcript_annotate(transcript=transcript)
    assert not result.errors, result.errors
    transcript.refresh_from_db()
    return transcript


# Each loaded line of both panes as a canonical tree (tag, sorted attributes, text), leaving
# out what only the page's focus and hover add: what the server would draw now.
CANONICAL_LINES = """() => {
  const skip = new Set(['current', 'pending', 'linked']);
  const canon = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    const attrs = Array.from(node.attributes).map((a) => a.name === 'class'
      ? 'class=' + a.value.split(/\\s+/).filter((c) => c && !skip.has(c)).sort().join(' ')
      : a.name + '=' + a.value).sort();
    return [node.tagName, attrs, Array.from(node.childNodes).map(canon)];
  };
  const out = {};
  for (const u of document.querySelectorAll('#original .win.loaded .utt, #pseudonymized .win.loaded .utt')) {
    out[u.id] = JSON.stringify(canon(u));
  }
  return out;
}"""


def _same_as_a_fresh_page(page, login_page, live_server, annotator, transcript) -> int:
    """Every line both pages show is identical; returns how many were compared."""
    shown = page.evaluate(CANONICAL_LINES)
    fresh = login_page(annotator)
    fresh.goto(live_server.url + reverse("annotations:review", args=[transcript.pk]))
    fresh.wait_for_selector("#review[data-ready='1']")
    again = fresh.evaluate(CANONICAL_LINES)
    common = set(shown) & set(again)
    assert {k: shown[k] for k in common} == {k: again[k] for k in common}
    return len(common)


def _order(transcript) -> list[int]:
    """The j order without filters: text order, longer first, then id."""
    return list(
        Span.objects.filter(transcript=transcript)
        .order_by("start", "-end", "id")
        .values_list("pk", flat=True)
    )


def test_the_detectors_propose_multi_part_names_spelled_names_and_many_labels(annotated):
    """What makes this transcript a different test from ``build_review_transcript``:
    the detectors' own output, PERSON mentions cut into name parts side by side (two
    spans, one space apart), spelled names, a dozen labels."""
    spans = list(Span.objects.filter(transcript=annotated).order_by("start", "-end"))
    text = annotated.text
    assert len(spans) >= 100
    detectors = {p.get("detector") for s in spans for p in s.provenance or []}
    assert {"spacy", "presidio"} <= detectors
    parts = [
        (a, b)
        for a, b in zip(spans, spans[1:], strict=False)
        if a.label == b.label == "PERSON" and text[a.end : b.start] == " "
    ]
    assert len(parts) >= 3
    assert {"SPELLED_NAME", "DATE", "LOCATION", "ORGANIZATION"} <= {s.label for s in spans}
    assert len({s.label for s in spans}) >= 8


def test_j_and_a_or_x_pairs_typed_without_waits_decide_exactly_the_intended_spans(
    login_page, live_server, annotator, annotated
):
    order = _order(annotated)
    pairs = min(40, len(order))
    page = open_review(login_page(annotator), live_server, annotated, auto_advance=False)
    for i in range(pairs):  # full speed: no wait between keys
        page.keyboard.press("j")
        page.keyboard.press("a" if i % 2 == 0 else "x")
    idle(page)
    decided = dict(
        Span.objects.filter(transcript=annotated)
        .exclude(status="suggested")
        .values_list("pk", "status")
    )
    expected = {pk: "accepted" if i % 2 == 0 else "rejected" for i, pk in enumerate(order[:pairs])}
    assert decided == expected
    assert page.get_attribute("#progress", "data-decided") == str(pairs)
    assert current(page) == str(order[pairs - 1])  # focus never jumped back
    # Both panes show every decision (the answers' span elements were swapped in).
    for pk, status in expected.items():
        assert page.get_attribute(f"#s-{pk}", "data-status") == status
        pseudo = f"#p-{pk}" if status == "accepted" else f"#k-{pk}"
        assert page.locator(f"#pseudonymized {pseudo}").count() == 1, (pk, status)
    # A merge of two PERSON groups moves mentions across many lines (attributes only).
    a, b = merge_two_person_groups(page)
    moved = Span.objects.get(pk=b).entity.ref
    assert page.get_attribute(f"#s-{a}", "data-ref") == moved
    # Both panes are exactly what the server draws on a fresh page.
    assert _same_as_a_fresh_page(page, login_page, live_server, annotator, annotated) > 20


def test_undo_walks_back_mixed_actions_on_a_real_detector_transcript(
    login_page, live_server, annotator, annotated
):
    initial = state(annotated)
    page = open_review(login_page(annotator), live_server, annotated, auto_advance=False)
    # accept, reject, relabel to LOCATION (5), to PERSON (1: a multi-word mention is cut
    # into name parts), to DATE (7), accept, reject, relabel to ORGANIZATION (6) ...
    keys = ["j", "a", "j", "x", "j", "5", "j", "1", "j", "7", "j", "a", "j", "x", "j", "6"]
    keys += ["j", "a", "j", "x", "k", "a", "j", "2", "j", "x"]  # 13 actions
    for key in keys:
        page.keyboard.press(key)
    idle(page)
    actions = AuditEvent.objects.filter(transcript=annotated, event_type__startswith="review.")
    count = actions.count()
    assert count >= 12, list(actions.values_list("event_type", flat=True))
    for _ in range(count):
        page.keyboard.press("u")
    idle(page)
    assert state(annotated) == initial
    assert page.get_attribute("#progress", "data-decided") == "0"
    # The page shows the transcript as it was: both panes as a fresh page draws them.
    assert _same_as_a_fresh_page(page, login_page, live_server, annotator, annotated) > 20
    page.keyboard.press("u")
    page.wait_for_selector("#toast:has-text('Nothing to undo')")
