"""Reading mode (annotations/views/review_reading.py, annotations/selectors/reading.py):
a long transcript is read in parts of bounded size; the count of
places still readable opens a list of them with links to the review, and every marked
word links back to its place."""

import hashlib
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotations.models import Span
from annotations.selectors import reading
from annotations.services import review as rs
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Transcript, Utterance


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


def make_long_transcript(*, pages: int, lines_per_page: int = 20, assignees=()):
    """A synthetic transcript of ``pages`` pages; each line names "Quillon" once (a
    suggestion on every line of page 3 and on page ``pages`` - 1)."""
    lines = [
        f"WITNESS: Line {i} of page {i // lines_per_page + 1}, as Quillon said it then."
        for i in range(pages * lines_per_page)
    ]
    text = "\n".join(lines) + "\n"
    transcript = Transcript.objects.create(
        title="Synthetic long hearing",
        text=text,
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        state=Transcript.State.READY,
        page_count=pages,
    )
    utterances, offset = [], 0
    for index, line in enumerate(lines):
        utterances.append(
            Utterance(transcript=transcript, index=index, speaker="WITNESS",
                      page=index // lines_per_page + 1, start=offset, end=offset + len(line))
        )  # fmt: skip
        offset += len(line) + 1
    Utterance.objects.bulk_create(utterances)
    transcript.assignees.set(assignees)
    return transcript


def _body(response) -> str:
    html = response.content.decode()
    start = html.index('id="reading-text">') + len('id="reading-text">')
    return html[start : html.index("</article>", start)]


def _part_of(transcript, page: int) -> int:
    return next(
        p.number
        for p in reading.reading_parts(transcript=transcript)
        if p.first_page <= page <= p.last_page
    )


def test_a_long_text_is_read_in_parts_of_bounded_size_with_as_many_queries_each(
    client, annotator, monkeypatch
):
    monkeypatch.setattr(reading, "READING_PART_CHARS", 20_000)
    t = make_long_transcript(pages=60, assignees=[annotator])  # about 90,000 characters
    client.force_login(annotator)
    url = reverse("annotations:review-reading", args=[t.pk])
    parts = reading.reading_parts(transcript=t)
    assert len(parts) >= 4 and all(p.end - p.start <= 20_000 for p in parts)
    assert parts[0].start == 0 and parts[-1].end == len(t.text)
    assert all(a.end == b.start for a, b in zip(parts, parts[1:], strict=False))
    client.get(url)  # the process's first request reads what it then keeps (not counted)
    counts = []
    for number in (1, len(parts)):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, {"part": number})
        counts.append(len(queries))
        assert response.status_code == 200
        body = _body(response)
        bounds = parts[number - 1]
        assert len(body) <= 20_000 + 2_000  # the part, not the transcript
        assert body.count("WITNESS:") == t.text[bounds.start : bounds.end].count("WITNESS:")
        assert f"Part {number} of {len(parts)}" in response.content.decode()
    assert counts[0] == counts[1]


def test_a_part_replaces_its_spans_and_marks_its_leaks_at_their_place(
    client, annotator, monkeypatch
):
    monkeypatch.setattr(reading, "READING_PART_CHARS", 20_000)
    t = make_long_transcript(pages=60, assignees=[annotator])
    line = next(u for u in Utterance.objects.filter(transcript=t, page=40).order_by("index"))
    start = t.text.index("Quillon", line.start)
    accepted = make_suggestion(t, start, start + 7, "PERSON", status="accepted")
    rs.review_assign_entities(transcript=t)
    undecided_start = t.text.index("Quillon", line.end)  # the next line, still page 40
    undecided = make_suggestion(t, undecided_start, undecided_start + 7, "PERSON")
    client.force_login(annotator)
    url = reverse("annotations:review-reading", args=[t.pk])
    response = client.get(url, {"part": _part_of(t, 40)})
    html, body = response.content.decode(), _body(response)
    assert f'data-span-id="{accepted.pk}"' in body and "[PERSON_1]" in body
    # Every other "Quillon" of the part still reads as the accepted name: marked, each a
    # link to its line on the review page, the undecided one to its span.
    marks = re.findall(r'<mark class="leak[^"]*" id="leak-(\d+)"><a href="([^"]+)"', body)
    assert len(marks) == body.count("Quillon") > 20
    review = reverse("annotations:review", args=[t.pk])
    assert f"{review}?span={undecided.pk}" in dict(marks).values()
    assert any(href.startswith(f"{review}?page=40#uo-") for _n, href in marks)
    assert "in this part" in html
    # A part without the accepted span's page still knows its name (the whole
    # transcript's spans are needles), and a part far from it has none of its tags.
    other = client.get(url, {"part": 1})
    assert "[PERSON_1]" not in _body(other) and 'id="leak-1"' in _body(other)


def test_the_count_opens_a_list_of_the_places_with_links_to_the_review(client, annotator):
    t = make_transcript(
        "COMMISSIONER ALDEN: Good morning, Mr. Quill.\nINMATE QUILL: Quill is my name.\n"
        "COMMISSIONER ALDEN: Thank you, Quill.\n",
        assignees=[annotator],
    )
    first = t.text.index("Quill")
    make_suggestion(t, first, first + 5, "PERSON", status="accepted")
    last = t.text.rindex("Quill")
    undecided = make_suggestion(t, last, last + 5, "PERSON")
    rs.review_assign_entities(transcript=t)
    client.force_login(annotator)
    html = client.get(reverse("annotations:review-reading", args=[t.pk])).content.decode()
    review = reverse("annotations:review", args=[t.pk])
    assert 'href="#reading-places"' in html and 'id="reading-places"' in html
    items = re.findall(r'<li class="[^"]*" data-leak="(\d+)">(.*?)</li>', html, re.S)
    assert len(items) >= 2
    hrefs = [re.findall(r'href="([^"]+)"', item) for _n, item in items]
    assert all(h[0] == f"#leak-{n}" for (n, _i), h in zip(items, hrefs, strict=True))
    assert [f"{review}?span={undecided.pk}"] in [h[1:] for h in hrefs]
    assert any(h[1].startswith(f"{review}?page=1#uo-") for h in hrefs)
    assert "Decide in the review" in html and "Go to the line" in html
    assert "in this part" not in html  # a short transcript is one part, checked whole


def test_a_transcript_with_nothing_readable_says_so_and_lists_nothing(client, annotator):
    t = make_transcript("WITNESS: Good morning.\n", assignees=[annotator])
    client.force_login(annotator)
    html = client.get(reverse("annotations:review-reading", args=[t.pk])).content.decode()
    assert "The leak check finds nothing." in html and 'id="reading-places"' not in html


def test_the_places_of_ten_times_the_leaks_cost_as_many_queries(client, annotator):
    def queries_for(lines: int) -> int:
        text = "".join(f"WITNESS: Quill said so, line {i}.\n" for i in range(lines))
        t = make_transcript(text, assignees=[annotator])
        for i, m in enumerate(re.finditer("Quill", text)):
            make_suggestion(t, m.start(), m.end(), "PERSON", status="accepted" if i == 0 else "suggested")  # fmt: skip
        rs.review_assign_entities(transcript=t)
        with CaptureQueriesContext(connection) as queries:
            html = client.get(reverse("annotations:review-reading", args=[t.pk])).content.decode()
        assert html.count("Decide in the review") == lines - 1
        return len(queries)

    client.force_login(annotator)
    assert queries_for(10) == queries_for(100)


def test_a_span_reaching_across_a_parts_edge_is_replaced_whole(client, annotator, monkeypatch):
    monkeypatch.setattr(reading, "READING_PART_CHARS", 20_000)
    t = make_long_transcript(pages=60, assignees=[annotator])
    parts = reading.reading_parts(transcript=t)
    edge = parts[1].start
    span = Span.objects.create(transcript=t, start=edge - 3, end=edge + 7, label="PERSON", status="accepted")  # fmt: skip
    rs.review_assign_entities(transcript=t)
    client.force_login(annotator)
    url = reverse("annotations:review-reading", args=[t.pk])
    for number in (1, 2):
        body = _body(client.get(url, {"part": number}))
        assert f'data-span-id="{span.pk}"' in body  # in both parts, never half in clear


def test_reading_mode_of_a_long_text_import_renders_one_bounded_part(client, lead):
    # A 14 MB (200,000-line) text took 7 s and the size limit answered 500 (the 30 s
    # worker timeout): the page rendered, and the leak check read, the whole text.
    from transcripts.management.commands.bench_import import text_lines
    from transcripts.services.importing import transcript_import

    t = transcript_import(
        name="long.txt", data=text_lines("prose", 20000), user=lead, annotate=False
    )
    client.force_login(lead)
    response = client.get(reverse("annotations:review-reading", args=[t.pk]))
    assert response.status_code == 200
    assert len(t.text) > 5 * reading.READING_PART_CHARS
    assert len(_body(response)) <= reading.READING_PART_CHARS
    assert "Part 1 of" in response.content.decode()
