"""Detection proposes the surnames that are role words where the transcript makes them
names ("MR. JUDGE", "Ms. Justice", "GEORGE FOREMAN, having been first duly sworn", "BY MS.
SPEAKER:"), and still no role-only tag nor the role before a name."""

from engine.detectors.base import Detection
from engine.detectors.clean import clean
from engine.detectors.recognizers.persons import SpeakerTagRecognizer
from engine.detectors.role_names import line_names, role_names
from engine.importing import parse_file
from tests.role_deposition import DEPOSITION, role_surname_places


def _kept(text):
    found = SpeakerTagRecognizer().find_all(text)
    detections = [
        Detection(f.start, f.end, "PERSON", 0.9, "presidio", "SpeakerTagRecognizer") for f in found
    ]
    return {(d.start, d.end) for d in clean(text, detections) if d.label == "PERSON"}


def test_every_role_word_surname_of_the_deposition_is_proposed():
    text = parse_file("deposition.txt", DEPOSITION).text
    kept = _kept(text)
    assert [p for p in role_surname_places(text) if p not in kept] == []
    words = {text[s:e] for s, e in kept}
    assert not words & {"SECURITY", "COURTROOM", "VIDEOGRAPHER", "COURT", "DEPUTY", "OFFICER"}
    the_judge = text.index("The Judge who") + 4
    assert (the_judge, the_judge + 5) not in kept


def test_mr_before_a_role_of_address_is_proposed_only_where_the_transcript_names_it_so():
    grand_jury = "THE FOREPERSON: Mr. Foreman, the witness is here.\nMR. CHANG: Thank you.\n"
    assert not any(grand_jury[s:e] == "Foreman" for s, e in _kept(grand_jury))
    sworn = "GEORGE FOREMAN, having been first duly sworn, testified.\n" + grand_jury
    assert any(sworn[s:e] == "Foreman" for s, e in _kept(sworn))


def test_examination_and_swearing_in_lines_name_their_people():
    text = "BY MS. SPEAKER:\nTHE WITNESS, having been duly sworn, said so.\nGEORGE FOREMAN, called as a witness\n"
    assert [w for _s, _e, w in line_names(text)] == ["SPEAKER", "GEORGE", "FOREMAN"]
    assert role_names(text) == {"speaker", "foreman"}


def test_the_roles_of_a_title_stay_roles():
    text = "Thank you, Mr. Chief Justice. Mr. Justice Kennedy asked. Judge Alden ruled."
    assert {text[s:e] for s, e in _kept(text)} <= {"Kennedy", "Alden"}
