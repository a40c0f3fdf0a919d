"""The review workspace in Debian's Chromium (Playwright): linking, keyboard, selection,
merge, undo and a conflict between two reviewers. Screenshots go to test-artifacts/."""

import pytest
from django.urls import reverse

from annotations.benchmarks.review_transcript import build_review_transcript
from annotations.models import Span

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def hearing(annotator):
    """A generated hearing (synthetic text) with ~150 suggested spans."""
    return build_review_transcript(seed=11, words=1200, max_spans=150, assignees=[annotator])


def open_review(page, live_server, transcript):
    page.goto(live_server.url + reverse("annotations:review", args=[transcript.pk]))
    page.wait_for_selector("#review[data-ready='1']")
    return page


def settle(page):
    """Wait until every request of the page has been answered and swapped in (a/x show
    their decision before the server has it)."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request')"
        " && !(window.__reviewBusy && window.__reviewBusy())"
    )


def person_marks_of_two_groups(page):
    """Two suggested PERSON marks of different reference groups (ids and refs)."""
    return page.evaluate(
        """() => {
        const seen = new Map();
        for (const m of document.querySelectorAll('#original mark[data-label=PERSON][data-status=suggested]')) {
          if (!seen.has(m.dataset.ref)) seen.set(m.dataset.ref, m.dataset.spanId);
          if (seen.size === 2) break;
        }
        return Array.from(seen, ([ref, id]) => ({ref, id}));
    }"""
    )


def test_hover_lights_up_both_panes_and_the_entity_list(
    login_page, live_server, annotator, hearing, artifacts_dir
):
    page = open_review(login_page(annotator), live_server, hearing)
    mark = page.locator("#original mark[data-label=PERSON]").first
    ref = mark.get_attribute("data-ref")
    mark.hover()
    for region in ("#original", "#pseudonymized", "#entities"):
        linked = page.locator(f'{region} [data-ref="{ref}"].linked')
        assert linked.count() >= 1, region
    assert (
        page.locator(f'#pseudonymized [data-ref="{ref}"]').count()
        == page.locator(f'#original mark[data-ref="{ref}"]').count()
    )
    page.screenshot(path=str(artifacts_dir / "review-hover.png"))
    # Hovering the entry in the list lights up the mentions too.
    page.mouse.move(5, 5)
    page.locator(f'#entities li[data-ref="{ref}"]').hover()
    assert page.locator(f'#original mark[data-ref="{ref}"].linked').count() >= 1


def test_keyboard_accept_reject_and_progress(
    login_page, live_server, annotator, hearing, artifacts_dir
):
    page = open_review(login_page(annotator), live_server, hearing)
    page.keyboard.press("j")
    first = page.locator("#original mark.current")
    first_id = first.get_attribute("data-span-id")
    page.keyboard.press("a")
    page.wait_for_selector(f'#s-{first_id}[data-status="accepted"]')
    page.keyboard.press("j")
    second_id = page.locator("#original mark.current").get_attribute("data-span-id")
    assert second_id != first_id
    page.keyboard.press("x")
    page.wait_for_selector(f'#s-{second_id}[data-status="rejected"]')
    settle(page)
    assert page.locator("#progress").get_attribute("data-decided") == "2"
    assert Span.objects.get(pk=first_id).status == "accepted"
    assert Span.objects.get(pk=second_id).status == "rejected"
    # A rejected span is not replaced in the pseudonymized pane.
    assert page.locator(f"#p-{second_id}").count() == 0
    # Typing in the search box does not trigger shortcuts.
    page.keyboard.press("/")
    page.keyboard.type("ax")
    assert page.locator("#search").input_value() == "ax"
    assert page.locator("#progress").get_attribute("data-decided") == "2"
    page.keyboard.press("Escape")
    # Relabel with a digit key (5 = LOCATION).
    page.locator(f"#s-{first_id}").click()
    page.wait_for_selector(f'#inspector[data-focus="{first_id}"]')
    page.keyboard.press("5")
    page.wait_for_selector(f'#s-{first_id}[data-label="LOCATION"]')
    page.screenshot(path=str(artifacts_dir / "review-keyboard.png"))


def test_add_a_span_by_selecting_text(login_page, live_server, annotator, hearing, artifacts_dir):
    page = open_review(login_page(annotator), live_server, hearing)
    # Find a plain word (outside any mark) in the original pane and double-click it.
    box = page.evaluate(
        """() => {
        const walker = document.createTreeWalker(document.querySelector('#original'), NodeFilter.SHOW_TEXT);
        let node;
        while ((node = walker.nextNode())) {
          if (node.parentElement.closest('mark, .spk, .pg')) continue;
          const m = /\\b[a-z]{7,}\\b/.exec(node.textContent);
          if (!m) continue;
          const r = document.createRange();
          r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
          node.parentElement.scrollIntoView({block: 'center'});
          const b = r.getBoundingClientRect();
          return {x: b.x + b.width / 2, y: b.y + b.height / 2, word: m[0]};
        }
    }"""
    )
    page.mouse.dblclick(box["x"], box["y"])
    page.wait_for_selector("#add-popover:not([hidden])")
    page.screenshot(path=str(artifacts_dir / "review-add-popover.png"))
    before = Span.objects.filter(transcript=hearing).count()
    page.keyboard.press("7")  # 7 = DATE
    page.wait_for_selector('#original mark[data-status="added"]')
    added = page.locator('#original mark[data-status="added"]').first
    assert added.inner_text() == box["word"]
    assert added.get_attribute("data-label") == "DATE"
    assert Span.objects.filter(transcript=hearing).count() == before + 1
    span_id = added.get_attribute("data-span-id")
    assert page.locator(f"#pseudonymized [data-span-id='{span_id}']").count() == 1


def test_merge_asks_first_showing_both_groups_then_merges_and_undo_separates(
    login_page, live_server, annotator, hearing, artifacts_dir
):
    page = open_review(login_page(annotator), live_server, hearing)
    a, b = person_marks_of_two_groups(page)
    page.locator(f"#s-{a['id']}").click()
    page.locator(f"#s-{b['id']}").click()
    assert a["ref"] in page.locator("#merge-hint").inner_text()
    before = page.locator(f"#p-{b['id']}").inner_text()
    page.keyboard.press("m")
    dialog = page.locator("#merge-dialog[open]")
    dialog.wait_for()
    # Both groups with their surface forms; nothing merged yet.
    text = dialog.inner_text()
    for mark in (a, b):
        assert mark["ref"] in text
        assert page.locator(f"#s-{mark['id']}").inner_text() in text
    assert Span.objects.get(pk=b["id"]).entity.ref == b["ref"]
    page.screenshot(path=str(artifacts_dir / "review-merge-confirm.png"))
    page.keyboard.press("Escape")  # cancel: still two groups
    page.wait_for_function("() => !document.querySelector('#merge-dialog').open")
    assert Span.objects.get(pk=b["id"]).entity.ref == b["ref"]
    page.keyboard.press("m")
    page.locator("#merge-dialog[open]").wait_for()
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#p-{b["id"]}[data-ref="{a["ref"]}"]')
    assert page.locator(f"#p-{b['id']}").inner_text() == f"[{a['ref']}]" != before
    assert page.locator(f'#entities li[data-ref="{b["ref"]}"]').count() == 0
    assert Span.objects.get(pk=b["id"]).entity.ref == a["ref"]
    page.keyboard.press("u")
    page.wait_for_selector(f'#p-{b["id"]}[data-ref="{b["ref"]}"]')
    assert page.locator(f"#p-{b['id']}").inner_text() == before
    assert Span.objects.get(pk=b["id"]).entity.ref == b["ref"]
    assert page.locator(f'#entities li[data-ref="{b["ref"]}"]').count() == 1


def test_conflict_between_two_reviewers(
    login_page, live_server, annotator, other_annotator, hearing, artifacts_dir
):
    hearing.assignees.add(other_annotator)
    page1 = open_review(login_page(annotator), live_server, hearing)
    page2 = open_review(login_page(other_annotator), live_server, hearing)
    for page in (page1, page2):
        page.keyboard.press("j")
    span_id = page1.locator("#original mark.current").get_attribute("data-span-id")
    assert page2.locator("#original mark.current").get_attribute("data-span-id") == span_id
    page2.keyboard.press("a")
    page2.wait_for_selector(f'#s-{span_id}[data-status="accepted"]')
    settle(page2)  # the server has it (the page shows a decision at once)
    page1.keyboard.press("x")  # stale version: refused, and the fragment is refreshed
    page1.wait_for_selector("#toast.toast-error.show")
    assert "changed by ann2" in page1.locator("#toast").inner_text()
    page1.wait_for_selector(f'#s-{span_id}[data-status="accepted"]')
    page1.screenshot(path=str(artifacts_dir / "review-conflict.png"))
    assert Span.objects.get(pk=span_id).status == "accepted"
    # Now that page1 has the current version, its decision goes through (x moved on to
    # the next span: auto-advance; click the span again).
    page1.locator(f"#s-{span_id}").click()
    page1.keyboard.press("x")
    page1.wait_for_selector(f'#s-{span_id}[data-status="rejected"]')


def test_long_transcript_loads_windows_lazily_and_scrolls_in_sync(
    login_page, live_server, lead, artifacts_dir
):
    transcript = build_review_transcript(seed=5, words=15000, max_spans=1500)
    page = open_review(login_page(lead), live_server, transcript)
    assert page.locator("#original .win.loaded").count() == 1
    page.screenshot(path=str(artifacts_dir / "review-long.png"))
    original = page.locator("#original")
    original.evaluate("el => el.scrollTop = 6000")
    page.wait_for_function("() => document.querySelectorAll('#original .win.loaded').length > 1")
    settle(page)
    page.wait_for_function(
        "() => Math.abs(document.querySelector('#pseudonymized').scrollTop - 0) > 1000"
    )
    # j from the last span of the loaded windows loads the next window and focuses there.
    loaded = page.evaluate("() => document.querySelectorAll('#original .win.loaded').length")
    last_id = page.evaluate(
        """() => { const marks = document.querySelectorAll('#original .win.loaded mark');
                   const m = marks[marks.length - 1]; m.click(); return m.dataset.spanId; }"""
    )
    page.keyboard.press("j")
    page.wait_for_function(
        "([n, id]) => document.querySelectorAll('#original .win.loaded').length > n"
        " && document.querySelector('#original mark.current')"
        " && document.querySelector('#original mark.current').dataset.spanId !== id",
        arg=[loaded, last_id],
    )


WINDOW_LINES = """(i) => [document.querySelector('#wo-' + i), document.querySelector('#wp-' + i)]
    .map((w) => w && w.classList.contains('loaded')
        ? Array.from(w.querySelectorAll('.utt'), (u) => u.id.slice(3)) : null)"""


def test_a_window_loaded_on_scroll_fills_both_panes_line_for_line(login_page, live_server, lead):
    transcript = build_review_transcript(seed=5, words=6000, max_spans=600)
    page = open_review(login_page(lead), live_server, transcript)
    page.locator("#original").evaluate("el => el.scrollTop = 3000")
    page.wait_for_selector("#wo-1.loaded")
    settle(page)
    original, pseudonymized = page.evaluate(WINDOW_LINES, 1)
    assert original and pseudonymized == original


def test_a_window_whose_load_failed_is_asked_for_again(login_page, live_server, lead):
    transcript = build_review_transcript(seed=5, words=6000, max_spans=600)
    page = login_page(lead)
    failed = []

    def fail_first(route):
        if not failed:
            failed.append(route.request.url)
            return route.abort()
        return route.continue_()

    page.route("**/review/window/1/**", fail_first)
    open_review(page, live_server, transcript)
    page.locator("#original").evaluate("el => el.scrollTop = 3000")
    page.wait_for_selector("#wo-1.loaded")
    settle(page)
    original, pseudonymized = page.evaluate(WINDOW_LINES, 1)
    assert failed and original and pseudonymized == original


def test_accept_all_of_a_label_below_the_threshold_asks_nothing_and_the_toast_undoes_it(
    login_page, live_server, annotator, hearing
):
    page = open_review(login_page(annotator), live_server, hearing)
    dates = Span.objects.filter(transcript=hearing, label="DATE").count()
    assert 0 < dates <= 200
    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message) or dialog.dismiss())
    page.locator("[data-accept-all-label=DATE]").click()
    page.wait_for_function(
        "() => !document.querySelector('#original mark[data-label=DATE][data-status=suggested]')"
    )
    settle(page)
    assert dialogs == []  # an undo toast instead of a confirmation
    assert Span.objects.filter(transcript=hearing, label="DATE", status="accepted").count() == dates
    page.locator("#toast [data-toast-undo]").click()
    settle(page)
    assert Span.objects.filter(transcript=hearing, label="DATE", status="accepted").count() == 0
    page.locator("[data-accept-all-label=DATE]").click()
    settle(page)
    assert page.locator("[data-accept-all-label=DATE]").count() == 0
