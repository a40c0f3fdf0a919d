"""The label a hand-written rule reads in a span's words where they stand
(``engine.detectors.rule_labels``): what the form table proposes for a place or body
form the machine labelled with one voice."""

from engine.detectors.rule_labels import rule_labels

TEXT = "\n".join(
    [
        "MR. PARK: Is that in the county?",
        "WITNESS: Yes. Ardenne County.",
        "MR. PARK: Where did you meet in the end?",
        "WITNESS: At the Gioberti Tavern, and later in the bar of the Westin.",
        "MR. PARK: Where did you drive after that?",
        "WITNESS: We drove up to Velmont to see my aunt.",
        "WITNESS: On Brannock, near the school.",
        "WITNESS: Velmont is a word I like.",
    ]
)


def _at(word: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = TEXT.index(word, start + 1)
    return start, start + len(word)


def test_a_county_a_venue_a_hotel_a_town_and_a_street_read_from_their_words():
    asked = {
        "Ardenne County": _at("Ardenne County"),
        "Gioberti Tavern": _at("Gioberti Tavern"),
        "Westin": _at("Westin"),
        "Velmont": _at("Velmont"),
        "Brannock": _at("Brannock"),
    }
    read = rule_labels(TEXT, asked.values())
    assert {word: read.get(extent) for word, extent in asked.items()} == {
        "Ardenne County": "LOCATION",
        "Gioberti Tavern": "ORGANIZATION",
        "Westin": "ORGANIZATION",
        "Velmont": "LOCATION",
        "Brannock": "LOCATION",
    }


def test_words_no_rule_reads_where_they_stand_and_part_of_a_find_are_left_out():
    velmont_alone = _at("Velmont", 1)  # the same town, with nothing around it that says so
    county_word = _at("Ardenne")  # a part of the county's name
    assert rule_labels(TEXT, [velmont_alone, county_word]) == {}


def test_only_the_labels_asked_for_are_read():
    assert rule_labels(TEXT, [_at("Westin")], labels=frozenset({"LOCATION"})) == {}


def test_a_line_read_once_is_not_read_again_on_the_next_call(monkeypatch):
    """The form table asks about the same lines on its page and after every decision (a
    24,000-word transcript's place forms: 447 lines, 0.12 s a request): a line's readings
    are kept by its words."""
    import engine.detectors.rule_labels as module

    reads = []
    real = module.find_hearing_entities

    def counting(line, recognizers):
        reads.append(line)
        return real(line, recognizers)

    monkeypatch.setattr(module, "find_hearing_entities", counting)
    module.clear_line_cache()
    first = rule_labels(TEXT, [_at("Ardenne County"), _at("Westin")])
    assert len(reads) == 2
    moved = "A line before.\n" + TEXT  # the same lines elsewhere in another transcript
    shift = len("A line before.\n")
    again = rule_labels(moved, [(s + shift, e + shift) for s, e in first])
    assert len(reads) == 2
    assert list(again.values()) == list(first.values())
