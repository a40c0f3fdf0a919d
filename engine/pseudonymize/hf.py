"""Gold data for Hugging Face ``datasets``: ``tokens`` and ``ner_tags`` per utterance.

One JSON object a line: ``{"id", "document", "tokens", "ner_tags"}`` — an utterance (a
line of the transcript) as the tokens of the exported files (spaCy's English tokenizer
cut at every span edge, whitespace tokens not counted: the CoNLL export's token lines,
the datasheet's count) and its BIO tags as integers into :func:`tag_names` (``O``, then
``B-``/``I-`` of every label in the schema's order, the same ids in every export). A
split export's ``README.md`` opens with the dataset card's YAML (:func:`card_yaml`:
label names, splits), so ``datasets.load_dataset("json", data_files=...)`` or
``load_dataset(FOLDER)`` reads it with the label names. Django-free.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from engine.gold import GoldDoc
from engine.labels import LABELS
from engine.pseudonymize.formats import _blank, spacy_doc


def tag_names() -> list[str]:
    """Every BIO tag, ``O`` first, then ``B-``/``I-`` of each label (fixed ids)."""
    return ["O", *(f"{kind}-{label}" for label in LABELS for kind in "BI")]


def hf_records(docs: Iterable[GoldDoc]) -> Iterable[dict]:
    """One record per utterance (a run of tokens between line breaks)."""
    ids = {name: i for i, name in enumerate(tag_names())}
    nlp = _blank()
    for gold in docs:
        doc = spacy_doc(gold, nlp)
        tags = ["O"] * len(doc)
        for ent in doc.ents:
            for i in range(ent.start, ent.end):
                tags[i] = ("B-" if i == ent.start else "I-") + ent.label_
        lines: list[tuple[list[str], list[int]]] = [([], [])]
        for token, tag in zip(doc, tags, strict=True):
            if token.is_space or not token.text.strip():
                if "\n" in token.text and lines[-1][0]:
                    lines.append(([], []))
                continue
            lines[-1][0].append(token.text)
            lines[-1][1].append(ids[tag])
        for n, (tokens, ner) in enumerate(line for line in lines if line[0]):
            yield {"id": f"{gold.id}-{n}", "document": gold.id, "tokens": tokens, "ner_tags": ner}


def to_hf(docs: Iterable[GoldDoc]) -> bytes:
    """The records as JSON Lines."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in hf_records(docs)).encode()


def card_yaml(splits: Sequence[str], ext: str = "jsonl") -> str:
    """The dataset card's YAML header (between ``---`` lines): the files of each split
    and the features, ``ner_tags`` as a class label with :func:`tag_names`."""
    lines = ["---", "configs:", "- config_name: default", "  data_files:"]
    for split in splits:
        name = "validation" if split == "dev" else split
        lines += [f"  - split: {name}", f"    path: {split}.{ext}"]
    lines += [
        "dataset_info:",
        "  features:",
        "  - name: id",
        "    dtype: string",
        "  - name: document",
        "    dtype: string",
        "  - name: tokens",
        "    sequence: string",
        "  - name: ner_tags",
        "    sequence:",
        "      class_label:",
        "        names:",
    ]
    lines += [f"          '{i}': {name}" for i, name in enumerate(tag_names())]
    lines += ["task_categories:", "- token-classification", "language:", "- en", "---", ""]
    return "\n".join(lines)
