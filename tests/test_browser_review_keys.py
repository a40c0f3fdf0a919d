"""The review workspace at an annotator's real speed (Playwright, Debian Chromium): keys
typed WITHOUT waits act on the span focused when they were pressed; undo goes 20 deep;
an action's label is no filter; focus changes scroll both panes; the panes meet at the
top; the add popover flips above a selection near the bottom."""

import pytest
from django.urls import reverse

from annotations.benchmarks.review_transcript import build_review_transcript
from annotations.models import Entity, Span
from tests.conftest import BROWSER_TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def hearing(annotator):
    return build_review_transcript(seed=11, words=1200, max_spans=150, assignees=[annotator])


def open_review(page, live_server, transcript, query="", auto_advance=True):
    url = live_server.url + reverse("annotations:review", args=[transcript.pk]) + query
    page.goto(url)
    page.wait_for_selector("#review[data-ready='1']")
    if not auto_advance:
        page.evaluate("() => localStorage.setItem('review.autoAdvance', '0')")
        page.goto(url)
        page.wait_for_selector("#review[data-ready='1']")
    return page


def idle(page, timeout=BROWSER_TIMEOUT_MS):
    """Every queued action answered and swapped in, no window loading."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request') && !window.__reviewBusy()",
        timeout=timeout,
    )


def current(page):
    return page.evaluate(
        "() => { const m = document.querySelector('#original mark.current');"
        " return m ? m.dataset.spanId : null; }"
    )


def merge_two_person_groups(page, status: str = "") -> tuple[str, str]:
    """Click a mention of the first PERSON group in the original pane (among the marks
    matching ``status``, a CSS attribute selector), then one of the second, press ``m``
    and confirm the dialog with Enter. Returns the two span ids, in the order clicked;
    afterwards they are in one group."""
    a, b = page.evaluate(
        """(status) => { const seen = new Map();
        for (const m of document.querySelectorAll('#original mark[data-label=PERSON]' + status)) {
          if (!seen.has(m.dataset.ref)) seen.set(m.dataset.ref, m.dataset.spanId);
          if (seen.size === 2) break; }
        return Array.from(seen.values()); }""",
        status,
    )
    page.locator(f"#s-{a}").click()
    page.locator(f"#s-{b}").click()
    page.keyboard.press("m")
    page.locator("#merge-dialog[open]").wait_for()
    page.keyboard.press("Enter")
    idle(page)
    return a, b


def state(transcript) -> dict:
    return {
        "spans": {
            s.pk: (s.start, s.end, s.label, s.status, s.entity_id, s.version)
            for s in Span.objects.filter(transcript=transcript)
        },
        "groups": set(
            Entity.objects.filter(transcript=transcript, spans__isnull=False).values_list(
                "pk", flat=True
            )
        ),
    }


def test_fifty_j_and_a_or_x_pairs_typed_without_waits_give_the_fifty_intended_decisions(
    login_page, live_server, annotator
):
    transcript = build_review_transcript(seed=5, words=15000, max_spans=1500, assignees=[annotator])
    order = list(
        Span.objects.filter(transcript=transcript)
        .order_by("start", "-end", "id")
        .values_list("pk", flat=True)
    )
    page = open_review(login_page(annotator), live_server, transcript, auto_advance=False)
    # Start near the end of the first window: the 50 pairs run on into windows that load
    # while the keys arrive (when focus followed the answers: 18 decided, 13 of them right).
    start = page.evaluate(
        """() => { const m = document.querySelectorAll('#original .win.loaded mark');
        const x = m[m.length - 5]; x.scrollIntoView(); x.click(); return Number(x.dataset.spanId); }"""
    )
    first_fifty = order[order.index(start) + 1 :][:50]
    for i in range(50):  # full speed: no wait between keys
        page.keyboard.press("j")
        page.keyboard.press("a" if i % 2 == 0 else "x")
    idle(page)
    decided = dict(
        Span.objects.filter(transcript=transcript)
        .exclude(status="suggested")
        .values_list("pk", "status")
    )
    expected = {pk: "accepted" if i % 2 == 0 else "rejected" for i, pk in enumerate(first_fifty)}
    assert decided == expected
    assert page.get_attribute("#progress", "data-decided") == "50"
    assert current(page) == str(first_fifty[-1])  # focus never jumped back


def test_auto_advance_a_and_x_alone_decide_consecutive_spans(
    login_page, live_server, annotator, hearing
):
    ids = list(
        Span.objects.filter(transcript=hearing)
        .order_by("start", "-end", "id")
        .values_list("pk", flat=True)[:20]
    )
    page = open_review(login_page(annotator), live_server, hearing)
    page.keyboard.press("j")
    for i in range(20):
        page.keyboard.press("a" if i % 3 else "x")
    idle(page)
    statuses = dict(Span.objects.filter(pk__in=ids).values_list("pk", "status"))
    assert [statuses[pk] for pk in ids] == [
        "rejected" if i % 3 == 0 else "accepted" for i in range(20)
    ]
    assert current(page) not in {str(pk) for pk in ids}  # moved on past the 20th
    # The toggle turns it off: focus then stays on the decided span.
    page.locator("#auto-advance").uncheck()
    here = current(page)
    page.keyboard.press("a")
    idle(page)
    assert current(page) == here


def _free_word_box(page, min_len=7):
    return page.evaluate(
        """(n) => {
        const walker = document.createTreeWalker(document.querySelector('#original'), NodeFilter.SHOW_TEXT);
        let node;
        const re = new RegExp('\\\\b[a-z]{' + n + ',}\\\\b');
        while ((node = walker.nextNode())) {
          if (node.parentElement.closest('mark, .spk, .pg')) continue;
          const m = re.exec(node.textContent);
          if (!m) continue;
          const r = document.createRange();
          r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
          node.parentElement.scrollIntoView({block: 'center'});
          const b = r.getBoundingClientRect();
          return {x: b.x + b.width / 2, y: b.y + b.height / 2, word: m[0]};
        }
    }""",
        min_len,
    )


def test_undo_walks_back_twenty_mixed_actions_typed_without_waits(
    login_page, live_server, annotator, hearing
):
    initial = state(hearing)
    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    keys = ["j", "a", "j", "x", "j", "5", "j", "a", "j", "x", "j", "6", "j", "a"]
    for key in keys:  # 7 actions
        page.keyboard.press(key)
    idle(page)
    # add (8)
    box = _free_word_box(page)
    page.mouse.dblclick(box["x"], box["y"])
    page.wait_for_selector("#add-popover:not([hidden])")
    page.keyboard.press("5")
    idle(page)
    # merge (9): two PERSON groups, m, Enter
    a, b = merge_two_person_groups(page, "[data-status=suggested]")
    # split (10): the span b back out of the merged group
    page.wait_for_selector(f'#inspector[data-focus="{b}"] button:has-text("Split off")')
    page.locator("#inspector button:has-text('Split off')").click()
    idle(page)
    for key in ["j", "x", "j", "a", "j", "7", "j", "x", "j", "a", "j", "x", "j", "8", "j", "a"]:
        page.keyboard.press(key)  # 8 more: 18
    page.keyboard.press("k")
    page.keyboard.press("x")  # 19
    page.keyboard.press("2")  # 20 (relabel the same span)
    idle(page)
    from anonreview.core.models import AuditEvent

    actions = AuditEvent.objects.filter(transcript=hearing, event_type__startswith="review.")
    assert actions.count() == 20, [
        (e, [(x["id"], x["label"], x["status"]) for x in sp])
        for e, sp in actions.order_by("id").values_list("event_type", "after__spans")
    ]
    assert {"review.accept", "review.reject", "review.relabel", "review.add", "review.merge",
            "review.split"} <= set(actions.values_list("event_type", flat=True))  # fmt: skip
    answers = []
    page.on(
        "response", lambda r: r.request.method == "POST" and answers.append((r.url[-12:], r.status))
    )
    for _ in range(20):
        page.keyboard.press("u")
    idle(page)
    print("ANSWERS", answers)
    after = state(hearing)
    undos = AuditEvent.objects.filter(transcript=hearing, event_type="review.undo")
    assert after["spans"] == initial["spans"], (
        list(undos.values_list("after__action", flat=True)),
        {k: (initial["spans"].get(k), v) for k, v in after["spans"].items()
         if initial["spans"].get(k) != v},
    )  # fmt: skip
    assert after == initial
    assert page.get_attribute("#progress", "data-decided") == "0"
    page.keyboard.press("u")
    page.wait_for_selector("#toast:has-text('Nothing to undo')")


def test_undo_scrolls_the_restored_span_into_view_in_both_panes(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    page.keyboard.press("j")
    span_id = current(page)
    page.keyboard.press("a")
    idle(page)
    page.locator("#original").evaluate("el => el.scrollTop = el.scrollHeight")
    page.keyboard.press("u")
    idle(page)
    page.wait_for_selector(f'#s-{span_id}[data-status="suggested"]')
    for pane, el in (("#original", f"#s-{span_id}"), ("#pseudonymized", f"#p-{span_id}")):
        visible = page.evaluate(
            """([pane, el]) => { const p = document.querySelector(pane).getBoundingClientRect();
                const r = document.querySelector(el).getBoundingClientRect();
                return r.top >= p.top && r.bottom <= p.bottom; }""",
            [pane, el],
        )
        assert visible, pane


def test_relabel_add_and_accept_n_leave_the_filters_alone(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    entries = page.locator("#entities li.ent").count()
    page.keyboard.press("j")
    first = current(page)
    page.keyboard.press("3")  # relabel as SPELLED_OUT_ITEM
    page.keyboard.press("j")
    idle(page)
    second = current(page)
    order = list(
        Span.objects.filter(transcript=hearing)
        .order_by("start", "-end", "id")
        .values_list("pk", flat=True)
    )
    assert order.index(int(second)) == order.index(int(first)) + 1  # j: next in text order
    assert page.locator("#original mark.dim").count() == 0
    assert abs(page.locator("#entities li.ent").count() - entries) <= 1
    assert page.locator("select[name=label]").first.input_value() == ""
    # Adding a LOCATION does not narrow j to LOCATION spans.
    box = _free_word_box(page)
    page.mouse.dblclick(box["x"], box["y"])
    page.wait_for_selector("#add-popover:not([hidden])")
    page.keyboard.press("5")
    idle(page)
    assert page.locator("#original mark.dim").count() == 0
    labels_before = set(page.eval_on_selector_all(
        "[data-accept-all-label]", "els => els.map(e => e.dataset.acceptAllLabel)"
    ))  # fmt: skip
    assert {"DATE", "PERSON"} <= labels_before
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("[data-accept-all-label=DATE]").click()
    idle(page)
    labels_after = set(page.eval_on_selector_all(
        "[data-accept-all-label]", "els => els.map(e => e.dataset.acceptAllLabel)"
    ))  # fmt: skip
    assert labels_after == labels_before - {"DATE"}


def test_home_brings_both_panes_to_the_top_and_they_stay_in_sync(login_page, live_server, lead):
    transcript = build_review_transcript(seed=5, words=6000, max_spans=600)
    page = open_review(login_page(lead), live_server, transcript)
    page.locator("#original").evaluate("el => el.scrollTop = 3000")
    page.wait_for_function("() => document.querySelector('#pseudonymized').scrollTop > 1000")
    idle(page)
    page.keyboard.press("Home")
    page.wait_for_function(
        "() => document.querySelector('#original').scrollTop === 0"
        " && document.querySelector('#pseudonymized').scrollTop === 0"
    )
    # Scrolling the original to the top by hand brings the other pane to the top too.
    page.locator("#original").evaluate("el => el.scrollTop = 2500")
    page.wait_for_function("() => document.querySelector('#pseudonymized').scrollTop > 800")
    page.locator("#original").evaluate("el => el.scrollTop = 0")
    page.wait_for_function("() => document.querySelector('#pseudonymized').scrollTop === 0")


def test_add_popover_flips_above_a_selection_near_the_bottom(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing)
    box = page.evaluate(
        """() => { const pane = document.querySelector('#original');
        const bottom = pane.getBoundingClientRect().bottom;
        const walker = document.createTreeWalker(pane, NodeFilter.SHOW_TEXT);
        let node, best = null;
        while ((node = walker.nextNode())) {
          if (node.parentElement.closest('mark, .spk, .pg')) continue;
          const re = /\\b[a-z]{6,}\\b/g; let m;
          while ((m = re.exec(node.textContent))) {
            const r = document.createRange();
            r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
            const b = r.getBoundingClientRect();
            if (b.bottom < bottom - 4 && b.top > bottom - 90) best = {x: b.x + b.width / 2, y: b.y + b.height / 2, top: b.top};
          }
        }
        return best; }"""
    )
    assert box, "no free word near the bottom of the pane"
    page.mouse.dblclick(box["x"], box["y"])
    page.wait_for_selector("#add-popover:not([hidden])")
    pop = page.locator("#add-popover").bounding_box()
    assert pop["y"] + pop["height"] <= box["top"] + 1


def test_go_to_page_and_the_minimap_jump_to_a_pages_first_undecided_span(
    login_page, live_server, annotator
):
    transcript = build_review_transcript(seed=5, words=6000, max_spans=600, assignees=[annotator])
    page = open_review(login_page(annotator), live_server, transcript)
    first_on = lambda p: str(  # noqa: E731
        next(r for r in Span.objects.filter(transcript=transcript).order_by("start", "-end", "id")
             if r.start >= transcript.utterances.filter(page=p).order_by("start").first().start).pk
    )  # fmt: skip
    page.keyboard.press("g")
    page.keyboard.type("9")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelector('#original mark.current[data-span-id=\"{first_on(9)}\"]')"
    )
    assert page.locator("#minimap a.mm").count() >= 9
    page.locator("#mm-12").click()
    page.wait_for_function(
        f"() => document.querySelector('#original mark.current[data-span-id=\"{first_on(12)}\"]')"
    )
    page.keyboard.press("a")
    idle(page)
    assert Span.objects.get(pk=first_on(12)).status == "accepted"
    cell = page.locator("#mm-12")
    assert int(cell.inner_text() or 0) == Span.objects.filter(
        transcript=transcript, status="suggested",
        start__gte=transcript.utterances.filter(page=12).order_by("start").first().start,
        start__lt=transcript.utterances.filter(page=13).order_by("start").first().start,
    ).count()  # fmt: skip


def test_reading_mode_resizes_the_text_and_flags_a_tag_for_the_lead(
    login_page, live_server, annotator, hearing
):
    span = Span.objects.filter(transcript=hearing, label="PERSON").order_by("start").first()
    from annotations.services import review as rs

    rs.span_accept(span=span.pk, actor=annotator, version=span.version)
    page = login_page(annotator)
    page.goto(live_server.url + reverse("annotations:review-reading", args=[hearing.pk]))
    size = lambda: page.evaluate(  # noqa: E731
        "() => parseFloat(getComputedStyle(document.getElementById('reading-text')).fontSize)"
    )
    before = size()
    page.locator("[data-size='1']").click()
    assert size() > before
    assert page.locator("#pseudonymized, #original").count() == 0
    page.once("dialog", lambda dialog: dialog.accept("Is this the inmate?"))
    page.locator(f"#reading-text .rep[data-span-id='{span.pk}']").click()
    page.wait_for_selector(f"#reading-text .rep.flagged[data-span-id='{span.pk}']")
    span.refresh_from_db()
    assert span.flagged and span.lead_note == "Is this the inmate?"


def test_a_decision_the_server_did_not_save_is_taken_back_from_the_page(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    page.route("**/review/accept/**", lambda route: route.fulfill(status=500, body="Server Error"))
    page.keyboard.press("j")
    span_id = current(page)
    page.keyboard.press("a")  # shown at once, then refused by the (simulated) server
    page.wait_for_selector("#toast.toast-error.show")
    idle(page)
    page.wait_for_selector(f'#s-{span_id}[data-status="suggested"]')
    assert page.get_attribute("#progress", "data-decided") == "0"
    assert Span.objects.get(pk=span_id).status == "suggested"


def test_a_relabel_and_an_accept_refused_with_403_are_taken_back_from_the_page(
    login_page, live_server, annotator, hearing
):
    """The transcript became read-only after the page was opened: the server refuses (403,
    nothing changed, no line in the answer), and what the page showed at once goes."""
    from transcripts.models import Transcript

    page = open_review(login_page(annotator), live_server, hearing, auto_advance=False)
    page.keyboard.press("j")
    span_id = current(page)
    label = page.get_attribute(f"#s-{span_id}", "data-label")
    Transcript.objects.filter(pk=hearing.pk).update(state=Transcript.State.APPROVED)
    new = "LOCATION" if label != "LOCATION" else "ORGANIZATION"
    page.keyboard.press("5" if new == "LOCATION" else "6")
    page.keyboard.press("a")
    idle(page)
    page.wait_for_selector(f'#s-{span_id}[data-status="suggested"][data-label="{label}"]')
    assert page.locator(f"#p-{span_id}[data-label='{label}']").count() == 1
    assert page.get_attribute("#progress", "data-decided") == "0"
    span = Span.objects.get(pk=span_id)
    assert (span.status, span.label) == ("suggested", label)
