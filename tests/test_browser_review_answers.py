"""An action's answer swaps without a console error: adding a span that
makes a new group (and a new label) and "suggest at all occurrences" gave 16
``htmx:oobErrorNoTarget`` errors; the new group's row and label now get their place."""

import pytest

from annotations.models import Span
from annotations.services.review import review_assign_entities
from tests.factories import make_transcript
from tests.test_browser_review_keys import idle, open_review

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def test_add_and_suggest_at_all_occurrences_answer_without_console_errors(
    login_page, live_server, annotator
):
    text = "\n".join(
        [
            "WITNESS: I met Darrow at the Fresno fair, Fresno county.",
            "Q: And Fresno again?",
            "WITNESS: Yes, Fresno, with Darrow.",
        ]
    )
    transcript = make_transcript(text, assignees=[annotator])
    start = text.index("Darrow")
    Span.objects.create(transcript=transcript, start=start, end=start + 6, label="PERSON")
    review_assign_entities(transcript=transcript)
    page = login_page(annotator)
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    open_review(page, live_server, transcript, auto_advance=False)
    # a new LOCATION (a label the page had no group of): select "Fresno" by text
    page.evaluate(
        """() => {
        const ut = Array.from(document.querySelectorAll('#original .utt'))[0];
        const walker = document.createTreeWalker(ut, NodeFilter.SHOW_TEXT);
        let node; while ((node = walker.nextNode())) {
          const i = node.data.indexOf('Fresno');
          if (i >= 0) { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 6);
            const s = getSelection(); s.removeAllRanges(); s.addRange(r);
            ut.dispatchEvent(new MouseEvent('mouseup', {bubbles: true})); return; }
        }
    }"""
    )
    page.wait_for_selector("#add-popover:not([hidden])")
    page.keyboard.press("5")  # LOCATION
    idle(page)
    added = Span.objects.get(transcript=transcript, label="LOCATION")
    page.wait_for_selector(f"#entities li.ent[data-first-span='{added.pk}']")
    page.wait_for_selector(f"#inspector[data-focus='{added.pk}'] #apply-all:not([disabled])")
    page.click("#apply-all")
    idle(page)
    assert Span.objects.filter(transcript=transcript, label="LOCATION").count() == 4
    assert page.locator("#eg-LOCATION li.ent").count() >= 1
    assert [e for e in errors if "oobErrorNoTarget" in e or "htmx" in e] == []


def test_the_search_box_stays_visible_at_1280_px_once_submit_for_approval_appears(
    login_page, live_server, annotator
):
    from transcripts.models import Transcript

    text = "WITNESS: I met Darrow Kell at the Fresno fair in the summer of the year."
    transcript = make_transcript(text, assignees=[annotator], state=Transcript.State.IN_REVIEW)
    for word, label in (("Darrow", "PERSON"), ("Kell", "PERSON"), ("Fresno", "LOCATION")):
        start = text.index(word)
        Span.objects.create(
            transcript=transcript, start=start, end=start + len(word), label=label,
            status=Span.Status.ACCEPTED,
        )  # fmt: skip
    review_assign_entities(transcript=transcript)
    page = login_page(annotator)
    page.set_viewport_size({"width": 1280, "height": 720})
    open_review(page, live_server, transcript)
    page.wait_for_selector("#submit-button")
    page.screenshot(path="/tmp/shots/review-head-submit-1280x720.png")
    for selector in ("#search", "#submit-button", "#undo-button", "#goto-input", "#auto-advance"):
        seen = page.evaluate(
            """(sel) => { const el = document.querySelector(sel); const r = el.getBoundingClientRect();
            if (r.width < 10 || r.left < 0 || r.right > window.innerWidth) return false;
            return [r.left + 3, r.left + r.width / 2, r.right - 3].every((x) => {
              const hit = document.elementFromPoint(x, r.top + r.height / 2);
              return !!hit && (hit === el || el.contains(hit)); }); }""",
            selector,
        )
        assert seen, f"{selector} is hidden or cut off at 1280 px"
