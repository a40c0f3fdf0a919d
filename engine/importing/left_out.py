"""What an import leaves out as the cover, and when to say so. Django-free.

The cover (caption) pages become metadata, not text. A caption holds the court or the
board, the parties, the case number, dates, the appearances and the reporter: names and
labels, never testimony. When the text read as the cover holds lines that open or carry
testimony (speaker turns with sentence text, question and answer lines, a swearing-in, a
``BY MR. NAME:`` line), or more words than a caption's pages hold, the import says so in
a notice: the layout analysis may have read part of the transcript as its cover. The
notice gives counts only (no text from the file).
"""

from __future__ import annotations

from engine.importing.layout import Page, body_opener

# A caption page holds at most 28 printed lines of a dozen words (about 340 words); a
# cover runs to two such pages when the appearances go on. More than that is more than a
# caption's worth.
CAPTION_WORDS = 700
# One line that reads as testimony can be a cover's own (an examination listed on it);
# two or more are testimony.
TESTIMONY_LINES = 2


def left_out_notice(pages: list[Page]) -> str | None:
    """A sentence when the cover pages hold more than a caption's worth, else None."""
    cover = [line for page in pages if page.kind == "cover" for line in page.lines]
    if not cover:
        return None
    opens = body_opener([line for page in pages for line in page.lines])
    testimony = sum(1 for line in cover if opens(line))
    words = sum(len(line.split()) for line in cover)
    if testimony < TESTIMONY_LINES and words <= CAPTION_WORDS:
        return None
    what = (
        f"{testimony} of them read as testimony (speaker turns, questions or answers)"
        if testimony >= TESTIMONY_LINES
        else f"more than a cover holds (at most {CAPTION_WORDS} words)"
    )
    return (
        f"{len(cover)} lines ({words} words) at the start were read as the cover page and "
        f"left out of the text; {what}. Check the original: the transcript may start "
        "before its first line here."
    )
