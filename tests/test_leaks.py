import pytest

from annotations.models import AllowListTerm, Span
from annotations.services.leaks import blocking_leaks, leak_check
from engine.pseudonymize.leaks import cover_needles, find_leaks, name_part_needles, span_needles
from tests.factories import make_transcript


def test_surname_left_in_output_is_a_blocking_leak_with_position():
    output = "[PERSON_1] [PERSON_2] met Mr. Quill today."
    leaks = find_leaks(output, span_needles("John Quill", "PERSON"))
    assert [(x.start, x.end, x.label, x.blocking) for x in leaks] == [(30, 35, "PERSON", True)]
    assert "Mr. Quill today" in leaks[0].context


def test_leak_matching_is_case_insensitive_and_word_bounded():
    needles = span_needles("Quill", "PERSON")
    assert [x.text for x in find_leaks("INMATE QUILL: yes", needles)] == ["QUILL"]
    assert find_leaks("Quillfeather and Quills", needles) == []


def test_lowercase_common_word_equal_to_a_surname_does_not_block():
    leaks = find_leaks("a rose garden", span_needles("Rose", "PERSON"))
    assert len(leaks) == 1 and not leaks[0].blocking


def test_a_surname_opening_a_sentence_as_the_everyday_word_does_not_block():
    # "May I ...", "Long before ..." listed at Submit where Ms. May testified
    output = "[PERSON_1]: Yes. Long before that, we stopped. May I say something? Long said no."
    needles = span_needles("Long", "PERSON") + span_needles("May", "PERSON")
    leaks = {x.start: x.blocking for x in find_leaks(output, needles)}
    assert leaks == {
        output.index("Long before"): False,
        output.index("May I"): False,
        output.index("Long said"): True,
    }


def test_spelled_forms_of_a_name_are_leaks():
    needles = span_needles("Quill", "PERSON")
    for output in ("Q-U-I-L-L.", "q u i l l", "Q.U.I.L.L."):
        assert blocking_leaks(find_leaks(output, needles)), output


def test_spelled_name_letters_are_a_leak():
    needles = span_needles("Q-U-I-L-L", "SPELLED_NAME")
    assert blocking_leaks(find_leaks("That's Quill.", needles))


def test_cdcr_number_in_any_spacing_is_a_leak():
    needles = span_needles("Victor 12345", "CDCR_ID")
    for output in ("V12345", "v-1-2-3-4-5", "number 12345"):
        assert blocking_leaks(find_leaks(output, needles)), output


def test_tags_are_not_leaks_even_when_a_name_equals_a_tag_word():
    assert find_leaks("On [DAY] we met [PERSON_1].", span_needles("Day", "PERSON")) == []


def test_dates_without_digits_are_not_needles():
    assert span_needles("May", "DATE") == []
    assert find_leaks("You may proceed.", span_needles("May", "DATE")) == []
    assert blocking_leaks(find_leaks("on May 13, 2012", span_needles("May 13, 2012", "DATE")))


def test_organization_leak_is_reported_but_does_not_block():
    leaks = find_leaks("the Quill Foundation", span_needles("Quill Foundation", "ORGANIZATION"))
    assert len(leaks) == 1 and not leaks[0].blocking


def test_cover_page_names_id_institution_and_date_are_needles():
    metadata = {
        "incarcerated_person": "JONAH QUILL",
        "participants": [{"name": "ANN ALDEN", "role": "Presiding Commissioner"}],
        "cdcr_number": "V12345",
        "institution": "MULE CREEK STATE PRISON",
        "hearing_date": "2012-05-13",
    }
    output = "Alden, Jonah, v 12345, Mule Creek State Prison, May 13th, 2012, 05/13/2012."
    leaks = find_leaks(output, cover_needles(metadata))
    assert [x.label for x in leaks] == [
        "PERSON",
        "PERSON",
        "CDCR_ID",
        "ORGANIZATION",
        "DATE",
        "DATE",
    ]
    assert all(x.kind == "cover" and x.blocking for x in leaks)


def test_the_hearing_city_is_a_cover_needle_but_not_its_state():
    metadata = {"location": "Ione, California"}
    leaks = find_leaks("IONE, CALIFORNIA. Back in Ione.", cover_needles(metadata))
    assert [(x.text, x.label, x.blocking) for x in leaks] == [
        ("IONE", "LOCATION", True),
        ("Ione", "LOCATION", True),
    ]
    assert find_leaks("Sacramento", cover_needles({"location": "California"})) == []


def test_a_state_named_again_is_reported_but_a_city_blocks():
    needles = span_needles("California", "LOCATION") + span_needles("Madera", "LOCATION")
    leaks = find_leaks("I parole to California, then Madera.", needles)
    assert [(x.text, x.blocking) for x in leaks] == [("California", False), ("Madera", True)]


def test_allow_listed_terms_are_not_leaks():
    needles = span_needles("Board of Parole Hearings", "ORGANIZATION")
    assert (
        find_leaks("the Board of Parole Hearings", needles, allow=["board of parole hearings"])
        == []
    )


@pytest.mark.django_db
def test_leak_check_service_finds_unannotated_repeat_of_an_accepted_name():
    text = "Mr. Quill spoke. Then Quill left."
    t = make_transcript(text, metadata={})
    Span.objects.create(transcript=t, start=4, end=9, label="PERSON", status="accepted")
    leaks = leak_check(transcript=t)
    assert [(x.start, x.end) for x in leaks] == [(27, 32)]
    assert leaks[0].context.endswith("Quill left.")


@pytest.mark.django_db
def test_leak_check_service_passes_when_every_mention_is_covered():
    text = "Mr. Quill spoke. Then Quill left."
    t = make_transcript(text, metadata={"incarcerated_person": "Jonah Quill"})
    Span.objects.create(transcript=t, start=4, end=9, label="PERSON", status="accepted")
    Span.objects.create(transcript=t, start=22, end=27, label="PERSON", status="added")
    assert leak_check(transcript=t) == []


@pytest.mark.django_db
def test_leak_check_ignores_rejected_and_counts_cover_names():
    text = "Jonah spoke to Alden."
    t = make_transcript(text, metadata={"participants": [{"name": "Ann Alden", "role": "x"}]})
    Span.objects.create(transcript=t, start=0, end=5, label="PERSON", status="rejected")
    leaks = leak_check(transcript=t)
    assert [(x.kind, x.start) for x in leaks] == [("cover", 15)]


@pytest.mark.django_db
def test_leak_check_on_given_output_text_and_allow_list():
    t = make_transcript("The Parole Board met.")
    Span.objects.create(transcript=t, start=4, end=16, label="ORGANIZATION", status="accepted")
    assert len(leak_check(transcript=t, output_text="The Parole Board met.")) == 1
    AllowListTerm.objects.create(term="Parole Board")
    assert leak_check(transcript=t, output_text="The Parole Board met.") == []


@pytest.mark.django_db
def test_still_suggested_span_is_reported_as_suggested_and_blocks():
    """An undecided suggestion is not replaced, so its text would leave in clear."""
    t = make_transcript("Mr. Quill spoke to Reyes.")
    Span.objects.create(transcript=t, start=4, end=9, label="PERSON", status="accepted")
    Span.objects.create(transcript=t, start=19, end=24, label="PERSON", status="suggested")
    leaks = leak_check(transcript=t)
    assert [(x.kind, x.label, x.blocking) for x in leaks] == [("suggested", "PERSON", True)]
    assert blocking_leaks(leaks) == leaks


def test_a_surrogate_equal_to_another_original_is_not_a_leak():
    output = "in 2013 and again in 2013"  # the first is a shifted surrogate of 2012
    needles = span_needles("2013", "DATE")
    assert len(find_leaks(output, needles)) == 2
    assert [x.start for x in find_leaks(output, needles, replaced=[(3, 7)])] == [21]


# --- name-shaped text no accepted span covers --------------------

from engine.pseudonymize.leaks import (  # noqa: E402
    honorific_needles,
    source_offset,
    speaker_tag_needles,
)


def test_a_surname_only_in_a_speaker_tag_is_a_blocking_leak():
    output = "INCARCERATED PERSON QUILLFEATHER: Yes, sir.\n"
    leaks = find_leaks(output, speaker_tag_needles("INCARCERATED PERSON QUILLFEATHER"))
    assert [(x.text, x.kind, x.label, x.blocking) for x in leaks] == [
        ("QUILLFEATHER", "speaker_tag", "PERSON", True)
    ]


@pytest.mark.parametrize(
    "speaker",
    [
        "PRESIDING COMMISSIONER",
        "DEPUTY COMMISSIONER",
        "INCARCERATED PERSON",
        "ATTORNEY",
        "MR.",
        "MS.",
        "THE COURT",
        "VICTIM'S NEXT OF KIN",
        "DEPUTY DISTRICT ATTORNEY",
        "JUROR NO. 5",
        "UNIDENTIFIED SPEAKER",
        "MULTIPLE SPEAKERS",
    ],
)
def test_roles_and_titles_in_speaker_tags_are_not_names(speaker):
    assert speaker_tag_needles(speaker) == []


def test_every_name_part_of_a_speaker_tag_is_a_needle():
    needles = speaker_tag_needles("PRESIDING COMMISSIONER ANN ALDEN-REYES")
    assert {n.pattern for n in needles if n.kind == "speaker_tag"} == {"ANN", "ALDEN\\-REYES"}


def test_cover_names_block_in_any_case():
    needles = cover_needles({"incarcerated_person": "Jonah Quillfeather"})
    for output in ("quillfeather said", "QUILLFEATHER:", "Quillfeather", "jonah"):
        assert blocking_leaks(find_leaks(output, needles)), output


def test_a_capitalised_word_after_a_title_or_honorific_is_a_name():
    text = "Mr. Quillfeather spoke to Deputy Commissioner Alden and to Mr. Chairman; ms. lowercase."
    found = {n.pattern for n in honorific_needles(text) if n.kind == "honorific"}
    assert found == {"Quillfeather", "Alden"}
    assert honorific_needles("the Deputy Attorney General said, Commissioner. I'm") == []
    leaks = find_leaks(text, honorific_needles(text))
    assert [x.text for x in blocking_leaks(leaks)] == ["Quillfeather", "Alden"]


def test_source_offset_maps_output_positions_back_through_replacements():
    from engine.pseudonymize import Replacement

    # "Mr. Quill met Alden." -> "Mr. [PERSON_1] met Alden."
    reps = [Replacement(1, 4, 9, 4, 14, "PERSON_1", "[PERSON_1]")]
    assert source_offset(2, reps) == 2
    assert source_offset(19, reps) == 14  # "Alden"
    assert source_offset(6, reps) == 4  # inside the tag: its source start


@pytest.mark.django_db
def test_speaker_tag_surname_blocks_and_is_placed_in_the_canonical_text():
    text = "INCARCERATED PERSON QUILLFEATHER: Yes.\nPRESIDING COMMISSIONER ALDEN: Thank you.\n"
    t = make_transcript(text)
    start = text.index("ALDEN")
    Span.objects.create(transcript=t, start=start, end=start + 5, label="PERSON", status="accepted")
    leaks = blocking_leaks(leak_check(transcript=t))
    assert [(x.text, x.kind) for x in leaks] == [("QUILLFEATHER", "speaker_tag")]
    assert text[leaks[0].source_start : leaks[0].source_end] == "QUILLFEATHER"


@pytest.mark.django_db
def test_an_annotated_speaker_tag_name_passes():
    text = "INCARCERATED PERSON QUILLFEATHER: Yes.\n"
    t = make_transcript(text)
    start = text.index("QUILLFEATHER")
    Span.objects.create(transcript=t, start=start, end=start + 12, label="PERSON", status="added")
    assert blocking_leaks(leak_check(transcript=t)) == []


@pytest.mark.django_db
def test_an_undecided_safety_net_span_blocks_but_other_suggestions_do_not():
    text = "We went to see Quillfeather about the Bramblewood job."
    t = make_transcript(text)
    s1 = text.index("Quillfeather")
    s2 = text.index("Bramblewood")
    Span.objects.create(
        transcript=t, start=s1, end=s1 + 12, label="PERSON", status="suggested",
        provenance=[{"detector": "safety_net", "score": 0.2}],
    )  # fmt: skip
    Span.objects.create(
        transcript=t, start=s2, end=s2 + 11, label="ORGANIZATION", status="suggested",
        provenance=[{"detector": "spacy", "score": 0.6}],
    )  # fmt: skip
    leaks = leak_check(transcript=t)
    assert [(x.text, x.kind, x.blocking) for x in leaks] == [
        ("Quillfeather", "possible_miss", True),
        ("Bramblewood", "suggested", False),
    ]
    Span.objects.filter(start=s1).update(status="rejected")
    assert blocking_leaks(leak_check(transcript=t)) == []


@pytest.mark.django_db
def test_leak_places_link_to_the_review_page_at_the_utterance_or_the_span():
    from annotations.services.leaks import leak_places

    text = "PRESIDING COMMISSIONER: Good morning.\nINCARCERATED PERSON QUILLFEATHER: Yes.\n"
    t = make_transcript(text)
    places = leak_places(transcript=t, leaks=blocking_leaks(leak_check(transcript=t)))
    assert len(places) == 1
    assert places[0]["url"] == f"/transcripts/{t.pk}/review/?page=1#uo-1"
    assert places[0]["utterance"] == 1 and places[0]["page"] == 1


# --- Findings the annotator cannot act on -------------------------


def test_a_name_part_inside_a_contraction_is_not_a_finding():
    """One person is named Don: "don't" held 25 findings on one hearing."""
    needles = name_part_needles("Don")
    output = "I don't know. Don said so; Don's car. DON'T. Don-"
    found = [(leak.text, leak.start) for leak in find_leaks(output, needles)]
    assert found == [("Don", 14), ("Don", 27), ("Don", 45)]


def test_a_place_inside_a_courts_name_is_no_leak_but_elsewhere_it_is():
    """A cousin was shot in Ontario (a LOCATION); "the Court of Appeal for Ontario" is a
    court's name, public: only the first is a leak."""
    needles = span_needles("Ontario", "LOCATION")
    output = "He was shot in Ontario. The Court of Appeal for Ontario said so."
    found = [(leak.text, leak.start, leak.blocking) for leak in find_leaks(output, needles)]
    assert found == [("Ontario", 15, True)]


def test_a_courts_name_is_read_on_its_own_line_among_many():
    """The court test reads the match's line (not the whole output): a
    court's name on a later line still holds its Ontario, the other lines' Ontario leak."""
    needles = span_needles("Ontario", "LOCATION")
    lines = [f"Q: Line {i} of the hearing." for i in range(50)]
    lines[10] = "A: He was shot in Ontario."
    lines[40] = "THE COURT: The Court of Appeal for Ontario said so, in Ontario."
    output = "\n".join(lines)
    found = [(leak.text, leak.start) for leak in find_leaks(output, needles)]
    line40 = output.index(lines[40])
    assert found == [
        ("Ontario", output.index("Ontario")),
        ("Ontario", line40 + lines[40].rindex("Ontario")),
    ]


def test_a_spelled_and_a_multi_word_needle_are_still_found_after_the_prefilter():
    needles = span_needles("Dana Quill", "PERSON") + span_needles("D-A-N-A", "SPELLED_NAME")
    output = "Dana  Quill spelled d a n a, or D.A.N.A., not DANAX or x-D-A-N-Ax."
    found = [leak.text for leak in find_leaks(output, needles)]
    assert found == ["Dana  Quill", "d a n a", "D.A.N.A"]


@pytest.mark.django_db
def test_a_finding_caused_by_an_accepted_wrong_span_points_back_to_it(client):
    """An accepted PERSON "Um" makes every other "Um" a leak: each finding says which span
    causes it, so the annotator rejects that one instead of adding spans everywhere."""
    from django.urls import reverse

    from annotations.services.leaks import leak_places
    from tests.factories import make_user

    annotator = make_user("ann-um", role="annotator")
    t = make_transcript(
        "INMATE QUILL: Um, yes. Um, I know.\nCOMMISSIONER ALDEN: Um. Thank you.\n",
        state="in_review", assignees=[annotator],
    )  # fmt: skip
    um = Span.objects.create(transcript=t, start=14, end=16, label="PERSON", status="accepted")
    for word in ("QUILL", "ALDEN"):
        start = t.text.index(word)
        Span.objects.create(transcript=t, start=start, end=start + 5, label="PERSON",
                            status="accepted")  # fmt: skip
    leaks = blocking_leaks(leak_check(transcript=t))
    assert [x.text for x in leaks] == ["Um", "Um"]
    places = leak_places(transcript=t, leaks=leaks)
    assert [p["cause"]["id"] for p in places] == [um.pk, um.pk]
    client.force_login(annotator)
    response = client.post(reverse("annotations:submit", args=[t.pk]))
    body = response.content.decode()
    assert response.status_code == 409 and body.count("reject it instead") == 2
    assert f'name="span" value="{um.pk}"' in body


def test_a_two_letter_name_is_spelled_with_a_dash_only():
    # The surname "Ma" spelled "M A" matched "I'm a" at Submit
    needles = span_needles("Ma", "PERSON")
    assert not blocking_leaks(find_leaks("I'm a commissioner.", needles))
    assert blocking_leaks(find_leaks("That's M-A.", needles))


def test_a_surname_inside_a_domain_programme_does_not_block():
    # The surname "Long" inside "Long-Term Offender Program" blocked at Submit
    output = "I mentor guys in Long-Term Offender Program now. Long said so."
    leaks = {x.start: x.blocking for x in find_leaks(output, span_needles("Long", "PERSON"))}
    assert leaks == {output.index("Long-Term"): False, output.index("Long said"): True}
