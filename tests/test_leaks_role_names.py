"""The leak check reads names as court reporters write them: role words that the
transcript makes surnames are caught wherever they stand as names, role-only tags and
lower-case ordinary words raise no alarm, a surname beside an accepted given name is a
leak, and what a partly tagged date, time or age leaves in clear is read too."""

import pytest

from annotations.models import Span
from annotations.services.leaks import blocking_leaks, leak_check
from engine.detectors.role_names import role_word_named_here, tag_name_words
from engine.importing import parse_file
from engine.pseudonymize import SpanInput, pseudonymize
from engine.pseudonymize.leaks import (
    beside_name_needles,
    cover_needles,
    find_leaks,
    honorific_needles,
    name_needles,
    span_needles,
    speaker_tag_needles,
)
from tests.factories import make_transcript
from tests.role_deposition import DEPOSITION, PLAIN_NAMES, occurrences, role_surname_places


def _release(text, spans):
    pseudo = pseudonymize(text, [SpanInput(s, e, "PERSON") for s, e in spans])
    return pseudo


def _deposition_leaks():
    parsed = parse_file("deposition.txt", DEPOSITION)
    text = parsed.text
    spans = occurrences(text, PLAIN_NAMES)
    pseudo = _release(text, spans)
    needles = [n for s, e in spans for n in span_needles(text[s:e], "PERSON")]
    needles += name_needles(text, parsed.metadata, {u.speaker for u in parsed.utterances})
    needles += beside_name_needles(pseudo.text, pseudo.replacements, text)
    replaced = [(r.out_start, r.out_end) for r in pseudo.replacements]
    return pseudo.text, find_leaks(pseudo.text, needles, replaced=replaced)


def test_every_role_word_surname_of_the_deposition_blocks_and_nothing_else_does():
    output, leaks = _deposition_leaks()
    found = [(x.start, x.end) for x in blocking_leaks(leaks)]
    assert found == role_surname_places(output)
    assert {output[s:e] for s, e in found} == {"JUDGE", "Justice", "FOREMAN", "Foreman", "SPEAKER"}


def test_lower_case_ordinary_words_equal_to_counsels_surnames_do_not_block():
    output, leaks = _deposition_leaks()
    lower = {x.text: x.blocking for x in leaks if x.text.islower()}
    assert lower == {"fair": False, "hall": False}
    assert "SECURITY" not in {x.text for x in leaks} and "COURTROOM" not in {x.text for x in leaks}


@pytest.mark.parametrize(
    "tag",
    ["THE COURT SECURITY OFFICER", "THE COURTROOM DEPUTY", "PROSPECTIVE JUROR", "THE FOREPERSON",
     "MR. CHAIRMAN", "DEPUTY DISTRICT ATTORNEY", "JUROR NO. 12"],
)  # fmt: skip
def test_a_speaker_tag_of_roles_only_names_nobody(tag):
    assert tag_name_words(tag) == []
    assert speaker_tag_needles(tag) == []


@pytest.mark.parametrize(
    ("tag", "names"),
    [("MR. JUDGE", ["JUDGE"]), ("GEORGE FOREMAN", ["GEORGE", "FOREMAN"]),
     ("MS. SPEAKER", ["SPEAKER"]), ("COURT SECURITY OFFICER HALL", ["HALL"]),
     ("PROSPECTIVE JUROR YOUNG", ["YOUNG"]), ("MR. FOREMAN", [])],
)  # fmt: skip
def test_a_role_word_is_a_name_where_the_tag_makes_it_one(tag, names):
    assert [w for _s, _e, w in tag_name_words(tag)] == names


def test_mr_before_a_role_of_address_is_a_name_only_when_the_transcript_names_it_so():
    text = "THE FOREPERSON: Thank you. Mr. Foreman, the witness is here."
    assert honorific_needles(text) == []
    assert [n.pattern for n in honorific_needles(text, {"foreman"}) if n.kind == "honorific"] == [
        "Foreman"
    ]


def test_a_role_word_needle_matches_only_where_the_word_stands_as_a_name():
    needles = speaker_tag_needles("MR. JUDGE")
    output = (
        "MR. JUDGE: Yes. The judge ruled. Judge Alden ruled. THE JUDGE: no. "
        "Ms. Justice and Mr. Judge met [PERSON_1] Judge."
    )
    found = [(x.start, x.blocking) for x in find_leaks(output, needles)]
    assert found == [
        (output.index("JUDGE"), True),
        (output.index("Mr. Judge") + 4, True),
        (output.index("] Judge") + 2, True),
    ]


def test_the_title_before_a_name_is_no_name():
    text = "Mr. Justice Kennedy wrote it. Ms. Justice said so."
    s = text.index("Justice")
    assert not role_word_named_here(text, s, s + 7)
    s = text.rindex("Justice")
    assert role_word_named_here(text, s, s + 7)


def test_cover_names_that_are_ordinary_words_block_capitalised_but_not_in_lower_case():
    needles = cover_needles({"participants": [{"name": "Mr. Paul Fair", "role": "counsel"}]})
    leaks = {x.text: x.blocking for x in find_leaks("a fair trial, said Mr. Fair", needles)}
    assert leaks == {"fair": False, "Fair": True}
    quill = cover_needles({"incarcerated_person": "Jonah Quillfeather"})
    assert blocking_leaks(find_leaks("quillfeather said", quill))


def test_a_surname_beside_an_accepted_given_name_is_a_leak():
    text = "My sponsor is Daniel Young, and Young runs the program. Young people came."
    daniel = text.index("Daniel")
    pseudo = _release(text, [(daniel, daniel + 6)])
    needles = beside_name_needles(pseudo.text, pseudo.replacements, text)
    leaks = [(x.text, x.blocking) for x in find_leaks(pseudo.text, needles)]
    assert leaks == [("Young", True), ("Young", True), ("Young", False)]


@pytest.mark.parametrize(
    ("output", "found"),
    [("It was 14 [MONTH] [YEAR].", "14"), ("On [MONTH] the 3rd we met.", "3rd"),
     ("the third of [MONTH] [YEAR]", "third"), ("[MONTH] [DAY], 2003", "2003"),
     ("at 10[TIME] sharp", "10"), ("he turned 2[AGE]", "2")],
)  # fmt: skip
def test_what_a_partly_tagged_date_time_or_age_leaves_in_clear_is_a_finding(output, found):
    assert [x.text for x in find_leaks(output, [])] == [found]


def test_a_whole_tagged_date_and_a_number_beside_a_month_tag_are_no_finding():
    assert find_leaks("On [MONTH] [DAY], [YEAR] at [TIME], in [MONTH] first thing.", []) == []
    leaks = find_leaks("he turned 2[AGE] in 14 [MONTH]", [])
    assert [(x.kind, x.blocking) for x in leaks] == [("partial_age", False), ("partial_date", True)]


@pytest.mark.django_db
def test_leak_check_on_the_imported_deposition_blocks_every_role_word_surname_only():
    parsed = parse_file("deposition.txt", DEPOSITION)
    t = make_transcript(parsed.text, metadata=parsed.metadata)
    for s, e in occurrences(parsed.text, PLAIN_NAMES):
        Span.objects.create(transcript=t, start=s, end=e, label="PERSON", status="accepted")
    leaks = blocking_leaks(leak_check(transcript=t))
    assert [(x.source_start, x.source_end) for x in leaks] == role_surname_places(parsed.text)


def test_a_pronoun_surname_opening_a_sentence_is_the_pronoun_but_after_mr_it_blocks():
    output = "[PERSON_1]: He had just turned [AGE]. I saw Mr. He there."
    leaks = [(x.start, x.blocking) for x in find_leaks(output, span_needles("He", "PERSON"))]
    assert leaks == [(output.index("He had"), False), (output.index("Mr. He") + 4, True)]


def test_a_place_named_by_a_lower_case_common_noun_is_reported_elsewhere_not_blocking():
    leaks = find_leaks(
        "we met near the church. The church burned.", span_needles("church", "LOCATION")
    )
    assert [(x.text, x.blocking) for x in leaks] == [("church", False), ("church", False)]
    assert blocking_leaks(find_leaks("at Mercy Church", span_needles("Mercy Church", "LOCATION")))


def test_a_lower_case_title_before_an_ordinary_word_gives_no_needle():
    assert honorific_needles("Occur doctor Republican hold away.") == []
    assert [
        n.pattern for n in honorific_needles("my sister Hope came") if n.kind == "honorific"
    ] == ["Hope"]


def test_a_street_named_by_an_ordinary_word_blocks_capitalised_but_not_the_common_noun():
    leaks = find_leaks("at Market and Church; the market", span_needles("Market", "LOCATION"))
    assert [(x.text, x.blocking) for x in leaks] == [("Market", True), ("market", False)]
