"""Cleaning and merging of detections: the paper's rules, order-independent."""

import random
from dataclasses import replace

from engine.detectors.allow import AllowList
from engine.detectors.base import Detection
from engine.detectors.clean import clean
from engine.detectors.extent import trim
from engine.detectors.merge import merge


def spans(result, text):
    return [(text[s.start : s.end], s.label) for s in result]


def test_exact_duplicates_become_one_span_keeping_every_detector_and_score():
    text = "Mr. Quill went home."
    merged = merge(
        [Detection(4, 9, "PERSON", 0.85, "spacy"), Detection(4, 9, "PERSON", 0.7, "transformer")],
        text,
    )
    assert len(merged) == 1
    assert merged[0].provenance == [
        {"detector": "spacy", "score": 0.85},
        {"detector": "transformer", "score": 0.7},
    ]
    assert merged[0].score == 0.85


def test_same_start_keeps_the_longer_span_and_absorbs_the_shorter():
    text = "Mule Creek State Prison is far."
    merged = merge(
        [
            Detection(0, 10, "LOCATION", 0.85, "spacy"),
            Detection(0, 23, "ORGANIZATION", 1.0, "cover"),
        ],
        text,
    )
    assert spans(merged, text) == [("Mule Creek State Prison", "ORGANIZATION")]
    assert {p["detector"] for p in merged[0].provenance} == {"spacy", "cover"}
    assert [p for p in merged[0].provenance if p["detector"] == "spacy"][0]["label"] == "LOCATION"


def test_same_end_keeps_the_longer_span():
    text = "On May 3, 1980 we met."
    merged = merge(
        [Detection(10, 14, "DATE", 0.6, "presidio"), Detection(3, 14, "DATE", 0.85, "spacy")], text
    )
    assert spans(merged, text) == [("May 3, 1980", "DATE")]
    assert merged[0].detectors == ["presidio", "spacy"]


def test_partial_overlaps_are_split():
    text = "Tulare County Jail Road"
    # "Tulare County Jail" (ORG) and "Jail Road" (LOCATION) overlap on "Jail"
    merged = merge(
        [
            Detection(0, 18, "ORGANIZATION", 0.85, "spacy"),
            Detection(14, 23, "LOCATION", 0.7, "transformer"),
        ],
        text,
    )
    assert spans(merged, text) == [("Tulare County Jail", "ORGANIZATION"), ("Road", "LOCATION")]


def test_structured_label_wins_over_named_entity_on_the_same_text():
    text = "Quill, Q-U-I-L-L, yes."
    merged = merge(
        [
            Detection(7, 16, "PERSON", 0.85, "spacy"),
            Detection(7, 16, "SPELLED_NAME", 0.9, "presidio"),
        ],
        text,
    )
    assert spans(merged, text) == [("Q-U-I-L-L", "SPELLED_NAME")]


def test_merge_is_the_same_whatever_order_detectors_finish_in():
    text = "Thomas Quill was at Mule Creek State Prison on May 3, 1980, V12345, in Ione."
    detections = [
        Detection(0, 6, "PERSON", 0.85, "spacy"),
        Detection(0, 12, "PERSON", 0.85, "presidio"),
        Detection(7, 12, "PERSON", 0.7, "transformer"),
        Detection(20, 30, "LOCATION", 0.85, "spacy"),
        Detection(20, 43, "ORGANIZATION", 1.0, "cover"),
        Detection(25, 43, "ORGANIZATION", 0.5, "transformer"),
        Detection(47, 58, "DATE", 0.85, "presidio"),
        Detection(54, 58, "DATE", 0.6, "spacy"),
        Detection(60, 66, "CDCR_ID", 0.85, "presidio"),
        Detection(60, 66, "ORGANIZATION", 0.85, "spacy"),
        Detection(71, 75, "LOCATION", 0.85, "spacy"),
        Detection(68, 75, "LOCATION", 0.5, "transformer"),
    ]
    reference = [
        (s.start, s.end, s.label, tuple(map(str, s.provenance))) for s in merge(detections, text)
    ]
    rng = random.Random(7)
    for _ in range(25):
        shuffled = detections[:]
        rng.shuffle(shuffled)
        again = [
            (s.start, s.end, s.label, tuple(map(str, s.provenance))) for s in merge(shuffled, text)
        ]
        assert again == reference
    starts = [s[0] for s in reference]
    assert starts == sorted(starts)
    for a, b in zip(reference, reference[1:], strict=False):
        assert a[1] <= b[0]  # never overlapping


def test_clean_strips_titles_and_possessives_from_person_into_name_parts():
    text = "Deputy Commissioner Ann Lee-Park's file and Mr. Quill's."
    out = clean(
        text,
        [Detection(0, 33, "PERSON", 0.85, "spacy"), Detection(44, 56, "PERSON", 0.85, "spacy")],
    )
    assert [text[d.start : d.end] for d in out] == ["Ann", "Lee-Park", "Quill"]


def test_clean_drops_dates_without_number_month_or_weekday():
    text = "Today's hearing, last year, on Monday, in 1998, two years ago."
    out = clean(
        text,
        [
            Detection(0, 7, "DATE", 0.85, "spacy"),
            Detection(17, 26, "DATE", 0.85, "spacy"),
            Detection(31, 37, "DATE", 0.85, "spacy"),
            Detection(42, 46, "DATE", 0.85, "spacy"),
            Detection(48, 61, "DATE", 0.85, "spacy"),
        ],
    )
    assert [text[d.start : d.end] for d in out] == ["Monday", "1998"]


def test_a_url_or_email_without_an_address_shape_is_dropped_so_the_name_wins():
    text = "Ms. Hensley. H-E-N-S-L-E-Y. Mail hensley@example.org or www.example.org."

    def at(part: str, label: str, detector: str, score: float = 0.9) -> Detection:
        start = text.index(part)
        return Detection(start, start + len(part), label, score, detector)

    out = merge(
        clean(
            text,
            [
                at("Hensley", "PERSON", "spacy", 0.85),
                at("H-E-N-S-L-E-Y", "SPELLED_NAME", "presidio"),
                at("Hensley. H-E-N-S-L-E-Y", "URL", "transformer"),
                at("Hensley", "EMAIL_ADDRESS", "transformer", 0.8),
                at("hensley@example.org", "EMAIL_ADDRESS", "transformer"),
                at("www.example.org", "URL", "transformer"),
            ],
        )
    )
    assert [(text[d.start : d.end], d.label) for d in out] == [
        ("Hensley", "PERSON"),
        ("H-E-N-S-L-E-Y", "SPELLED_NAME"),
        ("hensley@example.org", "EMAIL_ADDRESS"),
        ("www.example.org", "URL"),
    ]


def test_a_spoken_address_keeps_its_url_or_email_label():
    text = "It was jay smith at example dot com, and example dot org for the form."
    out = clean(
        text,
        [
            Detection(7, 35, "EMAIL_ADDRESS", 0.9, "transformer"),
            Detection(41, 56, "URL", 0.9, "transformer"),
        ],
    )
    assert [(text[d.start : d.end], d.label) for d in out] == [
        ("jay smith at example dot com", "EMAIL_ADDRESS"),
        ("example dot org", "URL"),
    ]


def test_clean_drops_times_without_a_clock_and_stutters():
    text = "Good morning. At 9:00 a.m. th-th-that place."
    out = clean(
        text,
        [
            Detection(0, 12, "TIME", 0.85, "spacy"),
            Detection(17, 26, "TIME", 0.85, "presidio"),
            Detection(27, 37, "ORGANIZATION", 0.5, "spacy"),
        ],
    )
    assert [text[d.start : d.end] for d in out] == ["9:00 a.m."]


def test_allow_list_drops_terms_and_words_inside_multiword_terms_case_insensitively():
    allow = AllowList(["Board of Parole Hearings", "Alcoholics Anonymous", "Commissioner"])
    text = "The Board of Parole Hearings and alcoholics anonymous; Commissioner Alden."
    out = clean(
        text,
        [
            Detection(4, 28, "ORGANIZATION", 0.85, "spacy"),
            Detection(13, 19, "PERSON", 0.5, "transformer"),
            Detection(33, 53, "ORGANIZATION", 0.85, "spacy"),
            Detection(55, 73, "PERSON", 0.85, "spacy"),
        ],
        allow,
    )
    assert [(text[d.start : d.end], d.label) for d in out] == [("Alden", "PERSON")]


def test_a_place_inside_a_spelled_out_item_does_not_split_it():
    text = "B as in Boy, U as in Union, C as in Charles."
    merged = merge(
        [
            Detection(0, 43, "SPELLED_OUT_ITEM", 0.9, "patterns", "letter-as-in-word"),
            Detection(21, 26, "LOCATION", 0.9, "patterns", "gazetteer-place"),
        ],
        text,
    )
    assert [(s.start, s.end, s.label) for s in merged] == [(0, 43, "SPELLED_OUT_ITEM")]


def test_titled_and_first_name_spans_labelled_as_bodies_become_person_parts():
    text = "Officer Cantu met Amber Martinez in San Diego."
    out = clean(
        text,
        [
            Detection(0, 13, "ORGANIZATION", 0.85, "spacy"),
            Detection(18, 32, "ORGANIZATION", 0.85, "spacy"),
            Detection(36, 45, "LOCATION", 0.85, "spacy"),
        ],
    )
    assert [(text[d.start : d.end], d.label) for d in out] == [
        ("Cantu", "PERSON"),
        ("Amber", "PERSON"),
        ("Martinez", "PERSON"),
        ("San Diego", "LOCATION"),
    ]


def test_a_rule_with_its_context_decides_the_label_over_the_models_votes():
    text = "It's a long drive from Eureka."
    merged = merge(
        [
            Detection(23, 29, "PERSON", 0.85, "spacy"),
            Detection(23, 29, "PERSON", 0.9, "transformer"),
            Detection(23, 29, "LOCATION", 0.9, "presidio", "PlaceRecognizer"),
        ],
        text,
    )
    assert spans(merged, text) == [("Eureka", "LOCATION")]


def test_a_weak_rule_only_votes_so_the_models_keep_a_given_name():
    text = "There were letters from Logan."
    merged = merge(
        [
            Detection(24, 29, "PERSON", 0.85, "spacy"),
            Detection(24, 29, "PERSON", 0.9, "transformer"),
            Detection(24, 29, "LOCATION", 0.6, "presidio", "PlaceRecognizer"),
        ],
        text,
    )
    assert spans(merged, text) == [("Logan", "PERSON")]


def test_a_county_is_one_span_not_a_place_and_a_stray_county():
    text = "I'd go to Alameda County, away from them."
    merged = merge(
        clean(
            text,
            [
                Detection(10, 24, "LOCATION", 0.85, "spacy"),
                Detection(10, 24, "LOCATION", 0.9, "patterns", "county"),
            ],
        ),
        text,
    )
    assert spans(merged, text) == [("Alameda County", "LOCATION")]


def test_named_entities_are_cut_at_line_breaks():
    text = "PLEASANT VALLEY STATE PRISON\nCOALINGA, CALIFORNIA"
    out = clean(text, [Detection(0, 37, "ORGANIZATION", 0.85, "spacy")])
    assert [(text[d.start : d.end], d.label) for d in out] == [
        ("PLEASANT VALLEY STATE PRISON", "ORGANIZATION"),
        ("COALINGA", "ORGANIZATION"),
    ]


def test_function_words_alone_are_no_organization_or_place():
    text = "I'm a peer mentor. That's it."
    out = clean(
        text,
        [
            Detection(0, 5, "ORGANIZATION", 0.85, "spacy"),
            Detection(19, 25, "LOCATION", 0.85, "spacy"),
        ],
    )
    assert out == []


def test_a_name_in_capitals_before_a_number_in_a_footer_becomes_person_parts():
    text = "CODE.\nMATTHEW MORALES P85939 09/18/2020"
    out = clean(text, [Detection(6, 28, "ORGANIZATION", 0.85, "spacy", "ORG")])
    assert [(text[d.start : d.end], d.label) for d in out] == [
        ("MATTHEW", "PERSON"),
        ("MORALES", "PERSON"),
    ]


def test_last_name_and_good_luck_are_not_names():
    text = "Last name Williams. Good luck to you."
    out = clean(
        text,
        [Detection(0, 4, "PERSON", 0.85, "spacy"), Detection(19, 23, "PERSON", 0.85, "spacy")],
    )
    assert out == []


def test_a_form_number_is_no_date_but_a_year_is():
    text = "that's Form 1073, signed in 2019."
    out = clean(
        text,
        [Detection(7, 16, "DATE", 0.85, "spacy"), Detection(28, 32, "DATE", 0.85, "spacy")],
    )
    assert [text[d.start : d.end] for d in out] == ["2019"]


def test_propagation_does_not_match_misspellings_among_header_capitals():
    from engine.detectors.base import Document
    from engine.detectors.propagation import PropagationDetector

    text = "We stayed with Paige. Paige helped.\nMORALES P85939 DECISION PAGE 1"
    document = Document(text, {})
    document.artifacts["detections"] = [Detection(15, 20, "PERSON", 0.85, "spacy")]
    out = PropagationDetector().detect(document)
    assert sorted({text[d.start : d.end] for d in out}) == ["Paige"]


def test_a_count_of_years_is_not_dropped_as_a_form_number():
    text = "settled for close to 100 years."
    out = clean(text, [Detection(12, 30, "DATE", 0.85, "spacy")])
    assert [text[d.start : d.end] for d in out] == ["close to 100 years"]


def at(text, needle, label, detector="spacy", explanation="ORG"):
    start = text.index(needle)
    return Detection(start, start + len(needle), label, 0.85, detector, explanation)


def test_a_capitalised_ordinary_english_word_is_no_body_whatever_the_transcript_writes():
    # "Chess" is an ordinary English word by frequency, even where the transcript never
    # writes it in lower case; "Kaiser" is a name (gazetteer), even where the transcript
    # also writes "kaiser rolls": one text's lower-case use no longer decides.
    text = "Chess is thinking ahead. Anger is loud. Kaiser hired me; kaiser rolls."
    out = clean(
        text,
        [
            at(text, "Chess", "ORGANIZATION"),
            at(text, "Anger", "ORGANIZATION"),
            at(text, "Kaiser", "ORGANIZATION", "presidio", "SpacyRecognizer"),
        ],
    )
    assert [text[d.start : d.end] for d in out] == ["Kaiser"]
    # A pattern recognizer's organisation is not second-guessed this way.
    kept = clean(text, [at(text, "Chess", "ORGANIZATION", "presidio", "EmployerRecognizer")])
    assert [text[d.start : d.end] for d in kept] == ["Chess"]


def test_boilerplate_of_function_words_and_domain_terms_is_no_organization():
    text = "UNLESS THE BOARD NOTIFIES YOU. Ask Harbor House."
    allow = AllowList(["Board"])
    out = clean(
        text,
        [at(text, "UNLESS THE BOARD", "ORGANIZATION"), at(text, "Harbor House", "ORGANIZATION")],
        allow,
    )
    assert [text[d.start : d.end] for d in out] == ["Harbor House"]


def test_certification_labels_are_no_names():
    text = "Transcribed by: Ann Lee Signed: Dated: today"
    out = clean(text, [at(text, "Ann Lee Signed", "PERSON", explanation="PERSON")])
    assert [text[d.start : d.end] for d in out] == ["Ann", "Lee"]


def test_a_propagated_misspelling_names_its_original_in_the_merged_provenance():
    from engine.detectors.base import Document
    from engine.detectors.propagation import PropagationDetector

    text = "Mr. Stevenson came. Later Stevenston wrote."
    document = Document(text, {})
    document.artifacts["detections"] = [at(text, "Stevenson", "PERSON", "cover", "")]
    copies = PropagationDetector().detect(document)
    merged = merge(clean(text, [*document.artifacts["detections"], *copies]), text)
    provenance = {text[m.start : m.end]: m.provenance for m in merged}
    [copy] = provenance["Stevenston"]
    assert (copy["detector"], copy["original"]) == ("propagation", "stevenson")
    assert all("original" not in item for item in provenance["Stevenson"])


def test_a_refined_date_keeps_its_detector_reason_and_original():
    text = "It was Friday, September 18, 2020 at the hearing."
    d = at(text, "Friday, September 18, 2020", "DATE", "spacy", "DATE")
    out = clean(text, [replace(d, original="copied")])
    assert {text[o.start : o.end] for o in out} >= {"Friday", "September 18, 2020"}
    assert {(o.detector, o.explanation, o.original) for o in out} == {("spacy", "DATE", "copied")}


def test_merged_provenance_is_structured_with_reasons():
    text = "Call Quill at 555-123-4567."
    merged = merge(
        [
            at(text, "Quill", "PERSON", "spacy", "PERSON"),
            at(text, "Quill", "LOCATION", "presidio", "SpacyRecognizer"),
        ],
        text,
    )
    [span] = merged
    assert span.provenance == [
        {"detector": "presidio", "score": 0.85, "reason": "SpacyRecognizer", "label": "LOCATION"},
        {"detector": "spacy", "score": 0.85, "reason": "PERSON"},
    ]


def test_what_a_body_keeps_between_two_kept_names_is_no_name():
    text = "in Tembley v. Okonkwo and DORA K. VARGA"
    raw = [
        Detection(3, 21, "ORGANIZATION", 0.85, "spacy"),  # "Tembley v. Okonkwo"
        Detection(3, 10, "PERSON", 0.9, "patterns", "case-party"),
        Detection(14, 21, "PERSON", 0.9, "patterns", "case-party"),
        Detection(26, 39, "ORGANIZATION", 0.85, "spacy"),  # "DORA K. VARGA"
        Detection(26, 30, "PERSON", 0.9, "patterns", "caps-name"),
        Detection(34, 39, "PERSON", 0.9, "patterns", "caps-name"),
    ]
    spans = {(text[m.start : m.end], m.label) for m in merge(raw, text)}
    assert spans == {
        ("Tembley", "PERSON"),
        ("Okonkwo", "PERSON"),
        ("DORA", "PERSON"),
        ("VARGA", "PERSON"),
    }


def test_allow_list_lookups_agree_with_a_scan_of_every_occurrence():
    rng = random.Random(7)
    terms = ["Board of Parole Hearings", "Parole Hearings", "Life Prisoner", "Penal Code"]
    words = ["the", "Board", "of", "Parole", "Hearings", "Life", "Prisoner", "Penal", "Code", "x"]
    text = " ".join(rng.choice(words) for _ in range(400))
    allow = AllowList(terms)
    regions = allow.regions(text)
    assert regions == sorted(regions) and all(
        a[1] <= b[0] for a, b in zip(regions, regions[1:], strict=False)
    )
    for _ in range(2000):
        start = rng.randrange(len(text))
        end = rng.randrange(start, min(len(text), start + 40) + 1)
        scanned_inside = text[start:end] in allow or any(
            s <= start and end <= e for s, e in regions
        )
        scanned_overlap = any(s < end and start < e for s, e in regions)
        assert allow.allows(text, start, end) is scanned_inside
        assert allow.overlaps_term(text, start, end) is scanned_overlap


def test_a_sentence_pronoun_after_an_initial_is_cut_from_a_find():
    text = "I'm a clerk on Facility Q. I work from six."
    found = clean(text, [Detection(15, 28, "ORGANIZATION", 0.85, "spacy", "ORG")])
    assert [text[d.start : d.end] for d in found] == ["Facility Q"]
    # an "I" before a capitalised word may be an initial: kept
    text = "Paid to Acme Q. I Holdings."
    d = trim(text, Detection(8, 17, "ORGANIZATION", 0.85, "spacy", "ORG"))
    assert text[d.start : d.end] == "Acme Q. I"


def test_a_body_of_only_function_words_and_roles_is_dropped_also_as_a_merge_piece():
    text = "last name spelled K-E-N-T. I'm a Commissioner with the Board"
    assert clean(text, [Detection(27, 45, "ORGANIZATION", 0.85, "spacy", "ORG")]) == []
    merged = merge(
        [
            Detection(18, 45, "ORGANIZATION", 0.85, "spacy", "ORG"),
            Detection(18, 25, "SPELLED_NAME", 0.9, "presidio", "SpelledNameRecognizer"),
        ],
        text,
    )
    assert spans(merged, text) == [("K-E-N-T", "SPELLED_NAME")]


def test_a_function_word_in_capitals_is_no_name_part_but_a_surname_after_an_honorific_is():
    text = "ORDER SIGNED BY SEN. MORAYO OGINDAN AT SAN QUENTIN"
    found = clean(text, [Detection(21, 38, "PERSON", 0.85, "spacy", "PERSON")])
    assert [text[d.start : d.end] for d in found] == ["MORAYO", "OGINDAN"]
    text = "MR. ON: Thank you."
    found = clean(text, [Detection(4, 6, "PERSON", 0.85, "presidio", "SpeakerTagRecognizer")])
    assert [text[d.start : d.end] for d in found] == ["ON"]


def test_a_person_two_detectors_found_outranks_one_models_longer_place_on_the_same_words():
    text = "Logan Mckee said so."
    merged = merge(
        [
            Detection(0, 5, "PERSON", 0.85, "transformer", "GIVEN_NAME"),
            Detection(0, 5, "PERSON", 0.8, "domain", "domain model"),
            Detection(6, 11, "PERSON", 0.85, "transformer", "SURNAME"),
            Detection(6, 11, "PERSON", 0.8, "domain", "domain model"),
            Detection(0, 11, "LOCATION", 0.85, "spacy", "GPE"),
        ],
        text,
    )
    assert spans(merged, text) == [("Logan", "PERSON"), ("Mckee", "PERSON")]
