import re

from engine.pseudonymize import SpanInput, pseudonymize

TEXT = (
    "INMATE QUILL: I am Jonah Quill, Q-U-I-L-L, number Victor 12345, also V12345. "
    "Mary Alden lives in Fresno, California. Mr. Quill was 23 on May 13, 2012."
)


def spans(*marks):
    out = []
    for needle, label, nth in marks:
        start = [m.start() for m in re.finditer(re.escape(needle), TEXT)][nth - 1]
        out.append(SpanInput(start, start + len(needle), label))
    return out


SPANS = spans(
    ("QUILL", "PERSON", 1),
    ("Jonah", "PERSON", 1),
    ("Quill", "PERSON", 1),
    ("Q-U-I-L-L", "SPELLED_NAME", 1),
    ("Victor 12345", "CDCR_ID", 1),
    ("V12345", "CDCR_ID", 1),
    ("Mary", "PERSON", 1),
    ("Alden", "PERSON", 1),
    ("Fresno", "LOCATION", 1),
    ("California", "LOCATION", 1),
    ("Quill", "PERSON", 2),
    ("23", "AGE", 3),
    ("May 13, 2012", "DATE", 1),
)


def surrogate(seed=7):
    return pseudonymize(TEXT, SPANS, strategy="surrogate", seed=seed)


def test_surrogates_are_deterministic_per_seed_and_differ_across_seeds():
    assert surrogate(7).text == surrogate(7).text
    assert surrogate(7).text != surrogate(8).text


def test_surrogates_are_consistent_per_entity_and_never_the_original():
    out = surrogate()
    by_ref = {}
    for r in out.replacements:
        original = TEXT[r.start : r.end]
        assert r.replacement.casefold() != original.casefold()
        by_ref.setdefault(r.ref, set()).add(r.replacement.casefold())
    assert len(by_ref["PERSON_3"]) == 1  # QUILL, Quill, Quill
    assert len(by_ref["ID_1"]) == 2  # spoken and written forms of one surrogate
    for secret in ("Quill", "Jonah", "12345", "Alden", "2012"):
        assert secret.casefold() not in out.text.casefold()


def test_surrogate_keeps_case_spelling_and_id_shape():
    out = surrogate()
    reps = {TEXT[r.start : r.end]: r.replacement for r in out.replacements}
    assert reps["QUILL"].isupper()
    assert reps["Quill"].upper() == reps["QUILL"]
    assert reps["Q-U-I-L-L"] == "-".join(reps["QUILL"])
    spoken, written = reps["Victor 12345"], reps["V12345"]
    assert re.fullmatch(r"[A-Z][a-z-]+ \d{5}", spoken) and re.fullmatch(r"[A-Z]\d{5}", written)
    assert spoken.split()[0][0] == written[0] and spoken.split()[1] == written[1:]


def test_first_names_keep_gender_and_places_stay_in_the_state():
    import gender_guesser.detector as gender

    from engine.pseudonymize.surrogates import _state_code, _us_geo

    out = surrogate()
    reps = {TEXT[r.start : r.end]: r.replacement for r in out.replacements}
    detector = gender.Detector()
    assert detector.get_gender(reps["Mary"]) in {"female", "mostly_female"}
    assert detector.get_gender(reps["Jonah"]) in {"male", "mostly_male"}
    # the surrogate city lies in the surrogate state ("Fresno, California" never becomes a
    # city of California next to "Idaho")
    state = _state_code(reps["California"])
    assert state and state != "CA"
    assert reps["Fresno"] in _us_geo()["by_state"][state]
    age = int(reps["23"])
    assert 21 <= age <= 25 and age != 23
    year = int(re.search(r"\d{4}", reps["May 13, 2012"]).group(0))
    assert 2010 <= year <= 2014 and year != 2012


def test_surrogates_avoid_given_words():
    text = "Mr. Quill."
    spans = [SpanInput(4, 9, "PERSON")]
    chosen = pseudonymize(text, spans, strategy="surrogate", seed=1).replacements[0].replacement
    again = pseudonymize(text, spans, strategy="surrogate", seed=1, avoid=[chosen])
    assert again.replacements[0].replacement not in {chosen, "Quill"}


def test_a_surname_that_is_also_a_first_name_stays_a_surname():
    text = "My name is Paul Grace. Thank you, Mr. Grace. GRACE: yes."
    spans = [SpanInput(11, 15, "PERSON"), SpanInput(16, 21, "PERSON"), SpanInput(38, 43, "PERSON")]
    out = pseudonymize(text, spans, strategy="surrogate", seed=3)
    reps = [r.replacement for r in out.replacements]
    from engine.pseudonymize.surrogates import _names

    assert reps[0] in _names()["male"]
    assert reps[1] == reps[2] and reps[1] in _names()["last"]


def test_a_surrogate_city_lies_in_the_kept_state_when_the_state_is_not_replaced():
    from engine.pseudonymize.surrogates import _us_geo

    kept = [s for s in SPANS if TEXT[s.start : s.end] != "California"]
    for seed in (1, 2, 3):
        out = pseudonymize(TEXT, kept, strategy="surrogate", seed=seed)
        reps = {TEXT[r.start : r.end]: r.replacement for r in out.replacements}
        assert reps["Fresno"] in _us_geo()["by_state"]["CA"]
        assert "California" in out.text


def test_every_mention_of_a_state_and_its_cities_agree_across_seeds():
    from engine.pseudonymize.surrogates import _state_code, _us_geo

    text = "Blythe, California. Later Fresno, CA. She left California."
    marks = [("Blythe", 0), ("California", 0), ("Fresno", 0), ("CA", 0), ("California", 1)]
    spans_ = []
    for needle, nth in marks:
        start = [m.start() for m in re.finditer(rf"\b{needle}\b", text)][nth]
        spans_.append(SpanInput(start, start + len(needle), "LOCATION"))
    for seed in range(5):
        out = pseudonymize(text, spans_, strategy="surrogate", seed=seed)
        reps = [(text[r.start : r.end], r.replacement) for r in out.replacements]
        states = {_state_code(new) for old, new in reps if old in {"California", "CA"}}
        assert len(states) == 1 and None not in states and "CA" not in states, reps
        (state,) = states
        for old, new in reps:
            if old in {"Blythe", "Fresno"}:
                assert new in _us_geo()["by_state"][state], reps
