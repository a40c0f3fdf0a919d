"""The generator's exchange of the kinds left in clear on court and inquiry transcripts
(``engine.synthetic.clear_kinds``): in every layout family, each kind with its gold; the
look-alikes of a dotted clock carry no span."""

import re

import pytest

from engine.labels import AGE, DATE, LOCATION, ORGANIZATION, PERSON, TIME, URL
from engine.synthetic import generate_hearing
from engine.synthetic.families import family_document

KINDS = {
    "dotted_clock": {TIME},
    "day_first_date": {DATE},
    "age_around_number": {AGE},
    "ordinal_day_answer": {DATE},
    "first_name_signature": {PERSON},
    "meeting_place": {ORGANIZATION, LOCATION},
    "function_word_surname": {PERSON},
    "east_asian_name": {PERSON},
    "video_link": {URL},
}
FAMILIES = ("bph", "bph2009", "federal", "appellate", "grand_jury", "deposition")


def document(family: str, seed: int):
    if family == "bph":
        h = generate_hearing(seed, words=1500)
        return h.gold, h.hard_cases
    doc = family_document(seed, family, words=1500)
    return doc.gold, doc.hard_cases


@pytest.mark.parametrize("family", FAMILIES)
def test_every_layout_family_writes_each_clear_kind_with_its_gold(family):
    gold, hard = document(family, 37)
    spans = {(s.start, s.end): s.label for s in gold.spans}
    for kind, labels in KINDS.items():
        assert hard.get(kind), (family, kind)
        for start, end in hard[kind]:
            assert spans.get((start, end)) in labels, (family, kind, gold.text[start:end])
    for kind in ("dotted_not_clock", "public_national_term"):
        assert hard.get(kind), (family, kind)
        for start, end in hard[kind]:
            assert not any(s < end and start < e for s, e in spans), gold.text[start:end]


def test_day_first_dates_are_whole_and_release_as_day_month_year():
    from engine.pseudonymize.dates import date_tags

    gold, hard = document("grand_jury", 5)
    dates = [gold.text[s:e] for s, e in hard["day_first_date"]]
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}", dates[0])
    assert date_tags(dates[0]) == "[DAY] [MONTH] [YEAR]"
    assert date_tags(dates[1]) == "[DAY] and [DAY] of [MONTH]"
    assert date_tags(dates[2]) == "[DAY] [MONTH]"


def test_the_signature_stands_alone_as_an_answer_after_the_message():
    gold, hard = document("deposition", 11)
    (s1, e1), (s2, e2) = hard["first_name_signature"]
    assert gold.text[s1:e1] == gold.text[s2:e2]
    line = gold.text[gold.text.rfind("\n", 0, s2) + 1 : gold.text.find("\n", e2)]
    assert re.fullmatch(r"(?:A\.\s+|[A-Z .'-]+: )" + re.escape(gold.text[s2:e2]) + r"\.", line)


def test_the_links_hold_a_video_id_also_inside_embedded_markup():
    gold, hard = document("federal", 9)
    links = [gold.text[s:e] for s, e in hard["video_link"]]
    assert any("/embed/" in u for u in links)
    embed = next(s for s, e in hard["video_link"] if "/embed/" in gold.text[s:e])
    assert gold.text[embed - 5 : embed] == 'src="'


@pytest.mark.parametrize("family", FAMILIES)
def test_every_layout_family_writes_employers_companies_and_towns_by_name(family):
    gold, hard = document(family, 41)
    spans = {(s.start, s.end): s.label for s in gold.spans}
    for kind, label in (
        ("employer_whole", ORGANIZATION),
        ("employer_appositive", ORGANIZATION),
        ("company_named_often", ORGANIZATION),
        ("town_as_surname", LOCATION),
    ):
        assert hard.get(kind), (family, kind)
        assert {spans.get(span) for span in hard[kind]} == {label}, (family, kind)
    firm = [gold.text[s:e] for s, e in hard["employer_whole"]]
    assert len(set(firm)) == 1 and len(firm) >= 4  # one firm, named again and again
