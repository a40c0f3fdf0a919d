import pytest

from annotations.models import AllowListTerm, Span
from annotations.services.leaks import blocking_leaks, leak_check
from engine.pseudonymize.leaks import cover_needles, find_leaks, span_needles
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
def test_still_suggested_span_is_reported_as_unreviewed_without_blocking():
    t = make_transcript("Mr. Quill spoke to Reyes.")
    Span.objects.create(transcript=t, start=4, end=9, label="PERSON", status="accepted")
    Span.objects.create(transcript=t, start=19, end=24, label="PERSON", status="suggested")
    leaks = leak_check(transcript=t)
    assert [(x.kind, x.label, x.blocking) for x in leaks] == [("suggested", "PERSON", False)]
    assert blocking_leaks(leaks) == []


def test_a_surrogate_equal_to_another_original_is_not_a_leak():
    output = "in 2013 and again in 2013"  # the first is a shifted surrogate of 2012
    needles = span_needles("2013", "DATE")
    assert len(find_leaks(output, needles)) == 2
    assert [x.start for x in find_leaks(output, needles, replaced=[(3, 7)])] == [21]
