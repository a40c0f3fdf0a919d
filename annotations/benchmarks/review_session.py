"""The annotator's session (``bench_review --session``): an oracle annotator in Chromium
reviews a generated hearing to Submit with the fewest inputs the UI allows, deciding each
suggestion as the generator's gold says.

The hearing is ``build_review_transcript``'s (every gold mention a suggestion, PERSON in
name parts), with the machine's typical mistakes added so that it is about 97-98% right:
whole surface forms taken for names ("Um", ...) and a few single words, two mentions
under the wrong label, one cut short by a word and one missed. The oracle knows the gold
and uses the UI as a fast annotator would:

1. it opens the hearing from the transcript list's "By form" (the surface-form table; the
   review page's ``f`` opens it too); per label it rejects (one click) every form none of
   whose mentions is gold, relabels (one click on "→ LABEL") a form whose every mention
   is gold under the label the table proposes (a detector's dissent or the team's relabel
   habits), widens (one click on "◂ word") a mention cut short by the word the row
   shows before it, reads the list to its end (scrolling, no input) and accepts the rest of the
   label (``A``; above 200 spans a confirmation unless every form has been on screen);
   the table moves on by itself to the next label, then back to the review;
2. in the review it clicks each mention to fix and presses the key that fixes it (the
   gold label's key; ``[`` to grow it by a word), drags across the missed words and
   presses their label's key;
3. it clicks Submit, and answers the leak list (its last answer submits).

Every key press and click is an input; ``forced`` are those that decide nothing (a click
that only focuses a mention, a confirmation). Scrolling a span into
view is not an input (a wheel, not a decision) and is not counted. The human-time estimate
is reading time (``words / 200`` minutes) plus a keystroke-level model (Card, Moran &
Newell): K 0.28 s a key, P 1.1 s + B 0.2 s a click, a drag 2.4 s, H 0.4 s on each switch
between keyboard and mouse, M 1.35 s before each decision. ``leaks``: gold mentions no
kept (accepted or added) span covers; ``over_redactions``: kept spans that overlap no
gold mention. ``key_ms``: key → both panes and the counter show the server's answer (``j``: the
focus moved; ``review_browser``'s j/a/x/u/relabel rounds, "confirmed") on a second
copy of the hearing; ``key_visible_ms``: until they show the result (a/x/relabel show
theirs at once).
"""

import random
import re
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from django.urls import reverse

from annotations.benchmarks.review_browser import (
    CHROMIUM_ARGS,
    CONFIRMED,
    _measure,
    _open,
    _pct,
    _Server,
    logged_in_page,
    session_cookie,
)
from annotations.models import Entity, Span
from annotations.selectors import review_windows
from annotations.services.review import review_assign_entities
from annotations.services.review.bulk import normalize_form
from annotations.views.review_context import LABEL_KEYS
from transcripts.models import Transcript, Utterance

KLM = {"K": 0.28, "click": 1.3, "drag": 2.4, "H": 0.4, "M": 1.35}
READING_WPM = 200
FILLERS = ("Um", "Uh", "Offender", "Deepen", "Victim", "Anonymous", "Honestly", "Correct")


@dataclass
class SessionPlan:
    """What the machine got wrong, so what the oracle must do."""

    gold: set[tuple[int, int, str]]
    false_positives: set[int] = field(default_factory=set)  # span ids to reject
    relabel: dict[int, str] = field(default_factory=dict)  # span id → gold label
    grow_left: set[int] = field(default_factory=set)  # span ids cut short by their first word
    missed: list[tuple[int, int, str]] = field(default_factory=list)  # gold extents to add
    texts: dict[int, str] = field(default_factory=dict)  # span id → its words and labels


def build_session_transcript(
    *, seed: int, words: int, assignees, layout: str = "bph"
) -> tuple[Transcript, SessionPlan]:
    """A stored hearing (or a transcript of another layout family) whose suggestions are
    its gold with the machine's mistakes."""
    from annotations.benchmarks.review_transcript import build_review_transcript

    transcript = build_review_transcript(
        seed=seed, words=words, max_spans=None, assignees=assignees,
        title=f"Session {'hearing' if layout == 'bph' else layout} {seed} ({words} words)",
        layout=layout,
    )  # fmt: skip
    text = transcript.text
    spans = list(Span.objects.filter(transcript=transcript).order_by("start"))
    plan = SessionPlan(gold={(s.start, s.end, s.label) for s in spans})
    Span.objects.filter(transcript=transcript).update(entity=None)
    Entity.objects.filter(transcript=transcript).delete()
    rng = random.Random(seed)
    taken = sorted((s.start, s.end) for s in spans)

    def free(start: int, end: int) -> bool:
        return not any(a < end and b > start for a, b in taken)

    # Whole forms taken for names, and single words.
    new = []
    uncovered = Counter()
    places: dict[str, list[tuple[int, int]]] = {}
    for m in re.finditer(r"\b[A-Z][a-z]{2,}\b", text):
        if free(m.start(), m.end()):
            uncovered[m.group()] += 1
            places.setdefault(m.group(), []).append((m.start(), m.end()))
    forms = [f for f in FILLERS if 4 <= uncovered.get(f, 0) <= 20][:3]
    for i, form in enumerate(forms):
        label = "LOCATION" if i == 2 else "PERSON"
        new += [(s, e, label) for s, e in places[form]]
    # a single word, never a word the gold names elsewhere ("May I say" where Ms. May
    # testified: the generator's everyday-word names), which would join that name's form
    named = {normalize_form(text[s.start : s.end]) for s in spans}
    singles = sorted(
        w
        for w, n in uncovered.items()
        if n == 1 and w not in FILLERS and normalize_form(w) not in named
    )
    for w in rng.sample(singles, min(6, len(singles))):
        s, e = places[w][0]
        new.append((s, e, "PERSON"))
    created = Span.objects.bulk_create(
        Span(
            transcript=transcript,
            start=s,
            end=e,
            label=label,
            score=0.5,
            provenance=[{"detector": "spacy", "score": 0.5}],
        )  # fmt: skip
        for s, e, label in new
    )
    plan.false_positives = {s.pk for s in created}

    by_form = Counter((s.label, normalize_form(text[s.start : s.end])) for s in spans)
    unique = [s for s in spans if by_form[(s.label, normalize_form(text[s.start : s.end]))] == 1]
    places_lo = [s for s in unique if s.label in ("LOCATION", "ORGANIZATION")]
    rng.shuffle(places_lo)
    for span in places_lo[:2]:  # two mentions under the wrong label
        plan.relabel[span.pk] = span.label
        span.label = "ORGANIZATION" if span.label == "LOCATION" else "LOCATION"
        plan.texts[span.pk] = (
            f"“{text[span.start : span.end]}” {span.label} → {plan.relabel[span.pk]}"
        )
        span.save(update_fields=["label"])
    rest = [s for s in places_lo[2:] if " " in text[s.start : s.end].strip()]
    if rest:  # one cut short by its first word
        span = rest[0]
        space = text.index(" ", span.start)
        plan.grow_left.add(span.pk)
        plan.texts[span.pk] = f"“{text[space + 1 : span.end]}” → “{text[span.start : span.end]}”"
        span.start = space + 1
        span.save(update_fields=["start"])
    missable = [s for s in unique if s.label in ("AGE", "DATE") and s.pk not in plan.relabel]
    if missable:  # one missed
        span = rng.choice(missable)
        plan.missed.append((span.start, span.end, span.label))
        span.delete()
    review_assign_entities(transcript=transcript)
    return transcript, plan


class Inputs:
    """Every key press and click of the session, by kind, forced or a decision, with the
    keystroke-level model's time."""

    def __init__(self):
        self.items: list[tuple[str, bool]] = []  # (kind, forced)
        self.forced_for: list[str] = []  # what each forced input was for
        self.not_a_leak: list[str] = []  # the leak list's places answered "not a leak"

    def add(self, kind: str, *, forced: bool, what: str = "") -> None:
        self.items.append((kind, forced))
        if forced:
            self.forced_for.append(f"{kind}: {what}" if what else kind)

    def human_seconds(self) -> float:
        total, device = 0.0, None
        for kind, forced in self.items:
            this = "keyboard" if kind.startswith("key") else "mouse"
            if device and this != device:
                total += KLM["H"]
            device = this
            total += KLM["K"] if this == "keyboard" else KLM["drag" if kind == "drag" else "click"]
            if not forced:
                total += KLM["M"]
        return total

    def by_kind(self) -> dict[str, int]:
        return dict(Counter(kind for kind, _f in self.items))


def _wait_ready(page, selector: str) -> None:
    page.wait_for_selector(selector + "[data-ready='1']", timeout=120_000)


def _forms_idle(page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request') && !(window.__formsBusy && window.__formsBusy())",
        timeout=120_000,
    )


def _review_idle(page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request') && !(window.__reviewBusy && window.__reviewBusy())",
        timeout=120_000,
    )


def _forms_pass(page, plan: SessionPlan, inputs: Inputs) -> set[str]:
    """Decide every label in the table until it returns to the review page; returns the
    span ids the table relabelled or widened (the review pass skips them)."""
    fp = {str(i) for i in plan.false_positives}
    relabel = {str(i): label for i, label in plan.relabel.items()}
    grow = {str(i) for i in plan.grow_left}
    done: set[str] = set()
    while page.query_selector("#forms-page"):
        _wait_ready(page, "#forms-page")
        url = page.url
        rows = page.evaluate(
            """() => Array.from(document.querySelectorAll('li.fm-row')).map(r => {
              const w = r.querySelector('form[data-form-action=widen][data-edge=left]');
              return [r.id, Number(r.dataset.open),
                (r.dataset.spans || '').split(',').filter(Boolean), r.dataset.alternative || '',
                w ? w.elements.span.value : '']; })"""
        )
        for row_id, open_, ids, alternative, widen in rows:
            if open_ and widen and widen in grow:
                # the row offers the word its mention was cut off from: one click
                page.click(f"#{row_id} form[data-form-action=widen] button")
                inputs.add("click", forced=False)
                _forms_idle(page)
                done.add(widen)
            elif open_ and ids and all(i in fp for i in ids):
                page.click(f"#{row_id} form[data-form-action=reject_form] button")
                inputs.add("click", forced=False)
                _forms_idle(page)
            elif open_ and ids and alternative and all(relabel.get(i) == alternative for i in ids):
                # the table proposes the gold label for every mention: one click
                page.click(f"#{row_id} form[data-form-action=relabel_form] button")
                inputs.add("click", forced=False)
                _forms_idle(page)
                done.update(ids)
        if not page.query_selector("#accept-rest"):  # the rejections decided the label
            page.wait_for_url(lambda u, url=url: u != url, timeout=120_000)
            page.wait_for_load_state()
            continue
        # reading the label's forms to the end (a wheel, not an input): the table then
        # accepts the rest without asking first
        page.evaluate(
            "() => { const r = document.querySelectorAll('li.fm-row');"
            " if (r.length) r[r.length - 1].scrollIntoView(); }"
        )
        page.wait_for_function(
            "() => document.getElementById('forms-page').dataset.seenEnd === '1'"
        )
        page.keyboard.press("A")
        inputs.add("key", forced=False)
        page.wait_for_url(lambda u, url=url: u != url, timeout=120_000)
        page.wait_for_load_state()
    return done


def _place(transcript: Transcript, offset: int) -> tuple[int, int]:
    """(window index, utterance index) of the line holding ``offset``."""
    utterance = (
        Utterance.objects.filter(transcript=transcript, start__lte=offset)
        .order_by("-start")
        .first()
    )
    window = next(
        w.index for w in review_windows(transcript=transcript) if utterance.page in w.pages
    )
    return window, utterance.index


def plan_fixes(transcript: Transcript, plan: SessionPlan) -> list[tuple]:
    """What the review pass does, read before the browser starts (the ORM is not called
    from Playwright's event loop): ``(kind, span id or (start, end), key, window, line)``."""
    keys = {label: key for key, label in LABEL_KEYS}
    spans = {s.pk: s for s in Span.objects.filter(pk__in=[*plan.relabel, *plan.grow_left])}
    fixes = []
    for span_id, label in plan.relabel.items():
        fixes.append(("relabel", span_id, keys[label], *_place(transcript, spans[span_id].start)))
    for span_id in plan.grow_left:
        fixes.append(("grow", span_id, "[", *_place(transcript, spans[span_id].start)))
    for start, end, label in plan.missed:
        fixes.append(("add", (start, end), keys[label], *_place(transcript, start)))
    return fixes


def _bring_into_view(page, window: int, line: int) -> None:
    """Scroll the original pane to a line (loading its window): a wheel, not counted as
    an input."""
    scroll = """(id) => { const pane = document.getElementById('original');
        const el = document.getElementById(id); if (!el) return;
        pane.scrollTop += el.getBoundingClientRect().top - pane.getBoundingClientRect().top
          - pane.clientHeight / 3; }"""
    page.evaluate(scroll, f"wo-{window}")
    page.wait_for_selector(f"#uo-{line}", timeout=120_000)
    page.evaluate(scroll, f"uo-{line}")
    _review_idle(page)


def _fix_pass(
    page, fixes: list[tuple], inputs: Inputs, done: set[str] = frozenset(), texts=None
) -> None:
    for kind, target, key, window, line in fixes:
        if kind in ("relabel", "grow") and str(target) in done:
            continue
        _bring_into_view(page, window, line)
        if kind in ("relabel", "grow"):
            page.click(f"#s-{target}")
            what = (texts or {}).get(target, "")
            inputs.add("click", forced=True, what=f"focus to {kind} {what}")  # decides nothing
            page.keyboard.press(key)
            inputs.add("key", forced=False)
            _review_idle(page)
            continue
        box = page.evaluate(
            """([start, end]) => { const ut = Array.from(document.querySelectorAll('#original .ut'))
                .filter(u => Number(u.dataset.start) <= start).pop();
              const at = (off) => { const w = document.createTreeWalker(ut, NodeFilter.SHOW_TEXT);
                let pos = Number(ut.dataset.start), n;
                while ((n = w.nextNode())) { const len = n.textContent.length;
                  if (off <= pos + len) return [n, off - pos]; pos += len; } };
              const r = document.createRange(); const a = at(start), b = at(end);
              r.setStart(a[0], a[1]); r.setEnd(b[0], b[1]);
              const rects = r.getClientRects(); const f = rects[0], l = rects[rects.length - 1];
              return [f.left + 1, f.top + f.height / 2, l.right - 1, l.top + l.height / 2]; }""",
            list(target),
        )
        page.mouse.move(box[0], box[1])
        page.mouse.down()
        page.mouse.move(box[2], box[3], steps=5)
        page.mouse.up()
        inputs.add("drag", forced=False)  # the selection is the decision's extent
        page.wait_for_selector("#add-popover:not([hidden])")
        page.keyboard.press(key)
        inputs.add("key", forced=False)
        _review_idle(page)


def _release_errors(transcript: Transcript, plan: SessionPlan) -> tuple[int, int]:
    kept = list(
        Span.objects.filter(transcript=transcript, status__in=("accepted", "added")).values_list(
            "start", "end"
        )
    )
    leaks = sum(1 for s, e, _label in plan.gold if not any(a <= s and b >= e for a, b in kept))
    over = sum(1 for a, b in kept if not any(s < b and e > a for s, e, _l in plan.gold))
    return leaks, over


def _leak_pass(page, plan: SessionPlan, inputs, rounds: int = 40) -> None:
    """Submit's leak list, as the oracle answers it: a listed place that no gold mention
    covers is no identifier there (a participant's surname that is an ordinary word in a
    programme's name: "Small Engine Repair") — "Not a leak here" with the first reason
    (ordinary word), one click, a decision; "Not a leak at all N places" instead when no
    identical finding is gold (one click for them all). Each decision swaps the list in
    place; the last one submits (the page goes to the transcript list). Submit again (a
    forced click) only where the list still holds a place the oracle leaves alone."""
    gold = [(s, e) for s, e, _label in plan.gold]

    def is_gold(start: int, end: int) -> bool:
        return any(s < end and start < e for s, e in gold)

    answered = False
    for _ in range(rounds):
        rows = page.evaluate(
            """() => Array.from(document.querySelectorAll('#leak-report tr.leak')).map(r => {
              const f = r.querySelector('form.not-a-leak'); const c = r.querySelector('code');
              return [c ? c.textContent : '', r.dataset.kind || '',
                f ? Number(f.querySelector('input[name=start]').value) : -1,
                f ? Number(f.querySelector('input[name=end]').value) : -1,
                !!(f && f.querySelector('button[value=all]'))]; })"""
        )
        choice = next((r for r in rows if r[2] >= 0 and not is_gold(r[2], r[3])), None)
        if choice is None:
            break
        text, kind, start, end, has_all = choice
        same = [r for r in rows if r[0] == text and r[1] == kind and r[2] >= 0]
        scope = "all" if has_all and not any(is_gold(r[2], r[3]) for r in same) else "one"
        form = page.locator(f"form.not-a-leak:has(input[name=start][value='{start}'])").first
        form.locator(f"button[value={scope}]").click()
        inputs.add("click", forced=False)
        inputs.not_a_leak.append(f"{text} ({kind}, {scope}{'' if scope == 'one' else len(same)})")
        answered = True
        if _answered_or_left(page, start):  # the last place answered: submitted
            return
    if answered and page.query_selector("#submit-review"):
        page.click("#submit-review")
        inputs.add("click-resubmit", forced=True, what="Submit after the leak list")
        page.wait_for_load_state()
        if page.query_selector("#leak-report form.not-a-leak"):
            _leak_pass(page, plan, inputs, rounds)


def _answered_or_left(page, start: int) -> bool:
    """Wait until the leak list swapped in place without the place at ``start`` (False) or
    the page left for the transcript list: answering the list's last place after Submit
    submits (True)."""
    from playwright.sync_api import Error

    at = page.url
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if page.url != at:
                page.wait_for_load_state()
                return True
            gone = f"#leak-report input[name=start][value='{start}']"
            if not page.query_selector(gone) and not page.query_selector(".htmx-request"):
                return False
        except Error:  # the page is navigating
            pass
        page.wait_for_timeout(25)
    raise TimeoutError("the leak list never answered")


def run_oracle(page, base: str, transcript_id: int, plan: SessionPlan, fixes, inputs) -> float:
    """The oracle's session on an open browser ``page`` logged in as an assignee, from the
    surface-form table to Submit; returns the wall time in seconds. Reads no database (the
    fixes are planned before: ``plan_fixes``)."""

    def on_dialog(dialog):
        inputs.add("click-confirm", forced=True, what=dialog.message[:80])
        dialog.accept()

    page.on("dialog", on_dialog)
    try:
        # opened from the transcript list's "By form" (instead of "Review"): the
        # surface-form table first; it returns to the review when every label is decided
        page.goto(base + reverse("annotations:review-forms", args=[transcript_id]))
        started = time.perf_counter()
        done = _forms_pass(page, plan, inputs)
        _wait_ready(page, "#review")
        _fix_pass(page, fixes, inputs, done, plan.texts)
        page.wait_for_selector("#submit-button", timeout=120_000)
        page.click("#submit-button")
        inputs.add("click", forced=False)
        page.wait_for_load_state()
        _leak_pass(page, plan, inputs)
        return time.perf_counter() - started
    finally:
        page.remove_listener("dialog", on_dialog)


def run_session_bench(
    *, seed: int, words: int, user, chromium: str, key_rounds: int = 10, layout: str = "bph"
) -> dict:
    from playwright.sync_api import sync_playwright

    transcript, plan = build_session_transcript(
        seed=seed, words=words, assignees=[user], layout=layout
    )
    copy, _plan = build_session_transcript(seed=seed, words=words, assignees=[user], layout=layout)
    cookie = session_cookie(user)
    inputs = Inputs()
    suggestions = Span.objects.filter(transcript=transcript).count()
    fixes = plan_fixes(transcript, plan)
    try:
        with _Server() as base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            try:
                page = logged_in_page(browser, base=base, cookie=cookie, timeout_ms=120_000)

                wall = run_oracle(page, base, transcript.pk, plan, fixes, inputs)
                # key → both panes on a second copy (not the submitted one)
                _open(page, base + reverse("annotations:review", args=[copy.pk]))
                _measure(page, 2, {"name": None})
                CONFIRMED.clear()
                timings = _measure(page, key_rounds, {"name": None})
                confirmed = [v for values in CONFIRMED.values() for v in values]
            finally:
                browser.close()
        transcript.refresh_from_db()
        leaks, over = _release_errors(transcript, plan)
        # confirmed: until the server's answer is in both panes (j needs no answer)
        keys = confirmed + timings["j"]
        visible = [v for values in timings.values() for v in values]
        forced = sum(1 for _k, f in inputs.items if f)
        n_words = len(transcript.text.split())
        return {
            "layout": layout,
            "words": n_words,
            "suggestions": suggestions,
            "inputs": len(inputs.items),
            "forced": forced,
            "forced_for": inputs.forced_for,
            "not_a_leak": inputs.not_a_leak,
            "decisions": len(inputs.items) - forced,
            "by_kind": inputs.by_kind(),
            "machine_errors": {
                "false_positives": len(plan.false_positives),
                "relabel": len(plan.relabel),
                "resize": len(plan.grow_left),
                "missed": len(plan.missed),
            },
            "wall_s": round(wall, 1),
            "human_min": round(n_words / READING_WPM + inputs.human_seconds() / 60, 1),
            "reading_min": round(n_words / READING_WPM, 1),
            "submitted": transcript.state == Transcript.State.SUBMITTED,
            "leaks": leaks,
            "over_redactions": over,
            "key_ms": {
                "median": round(statistics.median(keys), 1),
                "p95": round(_pct(keys, 0.95), 1),
            },
            "key_visible_ms": {
                "median": round(statistics.median(visible), 1),
                "p95": round(_pct(visible, 0.95), 1),
            },
        }
    finally:
        from anonreview.core.models import AuditEvent

        for t in (transcript, copy):
            AuditEvent.objects.filter(transcript=t).delete()
            t.delete()
