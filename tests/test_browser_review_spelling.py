"""A spelling is one item in the browser too: from the first piece of a
phonetic spelling that arrived in pieces, the right-edge key takes each next piece whole,
so the spelling ends as one span (one tag), and one undo brings the pieces back."""

import pytest

from annotations.models import Span
from annotations.services.review import review_assign_entities
from tests.factories import make_transcript
from tests.test_browser_review_keys import idle, open_review

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SPELLING = "WITNESS: It is T as in Tom, R as in Robert, N as in Nancy, and that is all."


def test_the_edge_key_swallows_a_spellings_pieces_and_undo_restores_them(
    login_page, live_server, annotator
):
    transcript = make_transcript(SPELLING, assignees=[annotator])
    for piece in ("T as in Tom", "R as in Robert", "N as in Nancy"):
        start = SPELLING.index(piece)
        Span.objects.create(
            transcript=transcript, start=start, end=start + len(piece), label="SPELLED_OUT_ITEM"
        )
    review_assign_entities(transcript=transcript)
    page = open_review(login_page(annotator), live_server, transcript, auto_advance=False)
    page.keyboard.press("j")  # the first piece
    page.keyboard.press("]")  # takes "R as in Robert" whole
    page.keyboard.press("]")  # and "N as in Nancy"
    idle(page)
    (span,) = Span.objects.filter(transcript=transcript)
    assert SPELLING[span.start : span.end] == "T as in Tom, R as in Robert, N as in Nancy"
    assert page.locator("#original mark[data-span-id]").count() == 1
    page.keyboard.press("u")  # the last step: the third piece comes back
    page.keyboard.press("u")  # the first: the second piece too
    idle(page)
    pieces = [
        SPELLING[s.start : s.end]
        for s in Span.objects.filter(transcript=transcript).order_by("start")
    ]
    assert pieces == ["T as in Tom", "R as in Robert", "N as in Nancy"]
