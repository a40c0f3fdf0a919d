"""The release text and its leak check are computed once per state of a transcript:
a second read of the same state reuses them; any change they depend on (a
decision, an allow-list term, a "not a leak here", a group's ref) is a new state."""

import pytest

from annotations.models import AllowListTerm, Span
from annotations.services import leaks as leaks_service
from annotations.services import review as rs
from annotations.services.release_state import release_fingerprint
from tests.factories import make_transcript

pytestmark = pytest.mark.django_db
TEXT = "WITNESS: I met Darrow Quill in Fresno.\nQ: Did Quill come back?\nWITNESS: Quill did."


@pytest.fixture
def reviewed(annotator):
    transcript = make_transcript(TEXT, assignees=[annotator])
    start = TEXT.index("Quill")
    span = Span.objects.create(
        transcript=transcript, start=start, end=start + 5, label="PERSON", status="accepted"
    )
    rs.review_assign_entities(transcript=transcript)
    return transcript, span


@pytest.fixture
def computations(monkeypatch):
    """How often the release text is really computed (the real function, counted)."""
    from annotations.services import pseudonymization

    calls = []
    real = pseudonymization.transcript_pseudonymize

    def counted(**kwargs):
        calls.append(kwargs["transcript"].pk)
        return real(**kwargs)

    monkeypatch.setattr(pseudonymization, "transcript_pseudonymize", counted)
    leaks_service._RELEASE_CACHE.clear()
    return calls


def _texts(leaks):
    return sorted((leak.text, leak.blocking) for leak in leaks)


def test_a_second_check_of_the_same_state_reuses_the_first(reviewed, computations):
    transcript, _span = reviewed
    first = leaks_service.leak_check(transcript=transcript)
    again = leaks_service.leak_check(transcript=transcript)
    assert _texts(first) == _texts(again) == [("Quill", True), ("Quill", True)]
    assert len(computations) == 1


def test_a_decision_is_a_new_state_and_its_check_sees_it(reviewed, computations, annotator):
    transcript, span = reviewed
    assert len(leaks_service.leak_check(transcript=transcript)) == 2
    for m in ("Did Quill", "WITNESS: Quill"):
        start = TEXT.index(m) + m.index("Quill")
        rs.span_add(
            transcript=transcript, actor=annotator, start=start, end=start + 5, label="PERSON"
        )
    assert leaks_service.leak_check(transcript=transcript) == []
    rs.span_reject(span=span.pk, actor=annotator)  # the first Quill is now in clear
    (leak,) = leaks_service.leak_check(transcript=transcript)
    assert (leak.source_start, leak.text, leak.blocking) == (TEXT.index("Quill"), "Quill", True)
    assert len(computations) == 3


def test_an_exception_and_an_allow_list_term_are_new_states(reviewed, computations, annotator):
    transcript, _span = reviewed
    fingerprint = release_fingerprint(transcript=transcript)
    start = TEXT.index("Did Quill") + 4
    rs.leak_exception_add(
        transcript=transcript, actor=annotator, start=start, end=start + 5, reason="ordinary_word"
    )
    after_exception = release_fingerprint(transcript=transcript)
    AllowListTerm.objects.create(term="Fresno")
    assert len({fingerprint, after_exception, release_fingerprint(transcript=transcript)}) == 3
    leaks = leaks_service.leak_check(transcript=transcript)
    assert sorted(leak.blocking for leak in leaks) == [False, True]


def test_nothing_is_reused_when_pseudonyms_are_scoped_to_the_corpus(
    reviewed, computations, settings
):
    settings.PSEUDONYM_SCOPE = "corpus"
    transcript, _span = reviewed
    assert release_fingerprint(transcript=transcript) is None
    leaks_service.leak_check(transcript=transcript)
    leaks_service.leak_check(transcript=transcript)
    assert len(computations) == 2
