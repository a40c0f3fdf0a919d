"""Gold as a researcher has it: JSON Lines, a spaCy DocBin, a split folder; anything
else refused with a sentence."""

import pytest

from engine.gold import GoldDoc, GoldFormatError, GoldSpan, write_jsonl
from engine.gold_readers import read_gold
from engine.pseudonymize.formats import to_docbin

DOCS = [
    GoldDoc("a", "WITNESS: Nora Vance lives in Fresno.\n", [GoldSpan(9, 19, "PERSON")]),
    GoldDoc("b", "WITNESS: Ike Ruiz was born in 1990.\n", [GoldSpan(9, 17, "PERSON")]),
]


def _shape(docs):
    return [(d.text, [(s.start, s.end, s.label) for s in d.spans]) for d in docs]


def test_a_docbin_reads_as_the_same_documents_as_json_lines(tmp_path):
    (tmp_path / "g.spacy").write_bytes(to_docbin(DOCS))
    write_jsonl(DOCS, tmp_path / "g.jsonl")

    assert _shape(read_gold(tmp_path / "g.spacy")) == _shape(read_gold(tmp_path / "g.jsonl"))


def test_a_split_folder_gives_train_then_dev_for_training_and_test_for_scoring(tmp_path):
    write_jsonl(DOCS[:1], tmp_path / "train.jsonl")
    (tmp_path / "dev.spacy").write_bytes(to_docbin(DOCS[1:]))
    write_jsonl(DOCS[1:], tmp_path / "test.jsonl")

    assert [d.text for d in read_gold(tmp_path)] == [DOCS[0].text, DOCS[1].text]
    assert [d.text for d in read_gold(tmp_path, part="test")] == [DOCS[1].text]


def test_a_docbin_named_jsonl_is_refused_with_a_sentence_not_a_decode_error(tmp_path):
    (tmp_path / "train.jsonl").write_bytes(to_docbin(DOCS))
    with pytest.raises(GoldFormatError, match="is not text"):
        read_gold(tmp_path / "train.jsonl")


@pytest.mark.parametrize("name", ["g.conll", "g.txt"])
def test_other_files_and_empty_folders_are_refused_with_what_is_read(tmp_path, name):
    (tmp_path / name).write_text("x")
    with pytest.raises(GoldFormatError, match="JSON Lines"):
        read_gold(tmp_path / name)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(GoldFormatError, match="holds no train"):
        read_gold(empty)
