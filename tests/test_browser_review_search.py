"""The review page's whole-text search and adds that land where asked (Playwright, Debian
Chromium): a word no span marks, in a window not loaded yet, is found and added from its
match with one key typed without waiting for the list; Enter on a match loads its window
and selects it; an add from a selection of a phrase's second occurrence on a line lands
on that occurrence."""

import pytest

from annotations.models import Span
from tests.factories import make_suggestion, make_transcript
from tests.test_browser_review_keys import idle, open_review

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = 30
FILLER = (
    "Q: And after the hearing, did you go back to the office and read the file again "
    "before the meeting with the others on the following morning, as you told us?"
)


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def paged_transcript(annotator, lines_by_page: dict[int, list[str]]):
    """``PAGES`` pages of six long lines each (the review page loads three pages a window,
    so the last pages are far from the first window), with ``lines_by_page`` in place of
    the filler on those pages."""
    lines, pages = [], []
    for page in range(1, PAGES + 1):
        own = lines_by_page.get(page, [])
        for line in own + [FILLER] * (6 - len(own)):
            lines.append(line)
            pages.append(page)
    transcript = make_transcript("\n".join(lines), assignees=[annotator])
    transcript.page_count = PAGES
    transcript.save(update_fields=["page_count"])
    for u in transcript.utterances.order_by("index"):
        u.page = pages[u.index]
        u.save(update_fields=["page"])
    return transcript


def test_search_finds_an_unmarked_word_in_an_unloaded_window_and_a_key_adds_it_there(
    login_page, live_server, annotator
):
    transcript = paged_transcript(
        annotator,
        {
            28: ["WITNESS: We drove out past Kestrelmoor that night."],
            30: ["Q: Was Kestrelmoor where you lived, or Kestrelmoorside?"],
        },
    )
    text = transcript.text
    first = text.index("Kestrelmoor")
    second = text.index("Kestrelmoor", first + 1)
    make_suggestion(transcript, second, second + len("Kestrelmoor"), "LOCATION")
    page = open_review(login_page(annotator), live_server, transcript, auto_advance=False)
    last_window = page.evaluate(
        "() => JSON.parse(document.getElementById('review').dataset.windows).length - 1"
    )
    assert page.locator(f"#wo-{last_window}.loaded").count() == 0
    # typed without waiting for the list: "/", the word in lower case, Enter, 5 (LOCATION)
    page.keyboard.press("/")
    page.keyboard.type("kestrelmoor")
    page.keyboard.press("Enter")
    page.keyboard.press("5")
    idle(page)
    page.wait_for_function("() => window.__reviewSearch() === 'shown'")
    added = Span.objects.get(transcript=transcript, status=Span.Status.ADDED)
    assert (added.start, added.end, added.label) == (first, first + 11, "LOCATION")
    hits = page.locator("#search-results li.sr-hit")
    assert hits.count() == 3  # "Kestrelmoorside" is a match too, unless whole words
    assert "LOCATION · added" in hits.nth(0).inner_text()
    assert "LOCATION · suggested" in hits.nth(1).inner_text()
    assert "no span" in hits.nth(2).inner_text()
    assert page.locator("#search-results [data-unmarked]").inner_text() == "1"
    page.screenshot(path="/tmp/review-search.png")
    assert page.locator(f"#search-results li.sr-hit[data-start='{second}'] .sr-none").count() == 0
    # whole words only: the longer word goes
    page.locator("[data-search-word]").check()
    page.wait_for_function(
        "() => window.__reviewSearch() === 'shown'"
        " && document.querySelectorAll('#search-results li.sr-hit').length === 2"
    )
    # ↓ Enter on the second match: its window loads and the match is selected for an add
    page.locator("#search-results li.sr-hit").first.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_selector("#add-popover:not([hidden])")
    assert page.locator(f"#wo-{last_window}.loaded").count() == 1
    assert page.evaluate("() => getSelection().toString()") == "Kestrelmoor"


def drag_and_add_location(page, phrase: str) -> Span:
    """Drag the mouse over the last occurrence of ``phrase`` on the second line, as a
    reader would, and add it as LOCATION with its key; the span added."""
    box = page.evaluate(
        """(phrase) => {
        const walker = document.createTreeWalker(document.querySelector('#uo-1 .ut'), NodeFilter.SHOW_TEXT);
        let node, last = null;
        while ((node = walker.nextNode())) if (node.data.includes(phrase)) last = node;
        const i = last.data.lastIndexOf(phrase);
        const n = phrase.length;
        const a = document.createRange(); a.setStart(last, i); a.setEnd(last, i + 1);
        const b = document.createRange(); b.setStart(last, i + n - 1); b.setEnd(last, i + n);
        const ra = a.getBoundingClientRect(); const rb = b.getBoundingClientRect();
        return {x1: ra.left + 1, y: ra.top + ra.height / 2, x2: rb.right - 1};
    }""",
        phrase,
    )
    page.mouse.move(box["x1"], box["y"])
    page.mouse.down()
    page.mouse.move(box["x2"], box["y"], steps=5)
    page.mouse.up()
    page.wait_for_selector("#add-popover:not([hidden])")
    page.keyboard.press("5")  # LOCATION
    idle(page)
    return Span.objects.get(status=Span.Status.ADDED)


def test_an_add_from_a_selection_of_the_second_occurrence_lands_on_it(
    login_page, live_server, annotator
):
    text = "\n".join(["Q: Where did you stay?", "WITNESS: At Cole Bay, then Cole Bay."])
    transcript = make_transcript(text, assignees=[annotator])
    first = text.index("Cole Bay")
    second = text.index("Cole Bay", first + 1)
    make_suggestion(transcript, first, first + 8, "LOCATION")
    page = open_review(login_page(annotator), live_server, transcript, auto_advance=False)
    added = drag_and_add_location(page, "Cole Bay")
    assert (added.start, added.end) == (second, second + len("Cole Bay"))
    page.wait_for_selector(f'#s-{added.pk}[data-start="{second}"]')


def test_an_add_after_emoji_on_its_line_lands_on_the_selected_word(
    login_page, live_server, annotator
):
    # the server counts code points, the page UTF-16 units: an emoji is one and two. Six
    # emoji moved an add six characters on (the server snaps to words: "Ord", not "Ely").
    said = "WITNESS: " + "\U0001f602" * 6 + " Ely to Ord and Rye."
    transcript = make_transcript(
        "\n".join(["Q: What did the message say?", said]), assignees=[annotator]
    )
    start = transcript.text.index("Ely")
    page = open_review(login_page(annotator), live_server, transcript, auto_advance=False)
    added = drag_and_add_location(page, "Ely")
    assert (added.start, added.end) == (start, start + len("Ely"))
