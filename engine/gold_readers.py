"""Gold files as a researcher has them: our JSON Lines, a spaCy DocBin, or a split
folder of either (``export_gold --split``). Django-free.

    read_gold(path)               # training: a file, or a folder's train (+ dev) part
    read_gold(path, part="test")  # scoring: a file, or a folder's test part

Anything else is refused with a sentence (``GoldFormatError``), never a traceback: a
DocBin given where JSON Lines were expected, a CoNLL file, an empty folder.
"""

from __future__ import annotations

from pathlib import Path

from engine.gold import GoldDoc, GoldFormatError, GoldSpan, read_jsonl

READABLE = "JSON Lines (.jsonl), a spaCy DocBin (.spacy) or a split folder of either"


def read_docbin(path: str | Path) -> list[GoldDoc]:
    """The documents of a DocBin: text, entities, and the id our export stores."""
    import spacy
    from spacy.tokens import DocBin

    try:
        docs = list(DocBin().from_disk(path).get_docs(spacy.blank("en").vocab))
    except (ValueError, KeyError, TypeError) as exc:
        raise GoldFormatError(f"{path}: not a spaCy DocBin ({exc.__class__.__name__})") from exc
    out = []
    for i, doc in enumerate(docs):
        spans = [GoldSpan(e.start_char, e.end_char, e.label_) for e in doc.ents]
        doc_id = str((doc.user_data or {}).get("id") or f"{Path(path).stem}-{i}")
        out.append(GoldDoc(doc_id, doc.text, sorted(spans)))
    return out


def _read_file(path: Path) -> list[GoldDoc]:
    if path.suffix == ".spacy":
        return read_docbin(path)
    if path.suffix in (".jsonl", ".json"):
        try:
            return read_jsonl(path)
        except UnicodeDecodeError as exc:
            raise GoldFormatError(
                f"{path.name} is not text: give {READABLE} (a DocBin ends in .spacy)"
            ) from exc
    raise GoldFormatError(f"{path.name} is not read here: give {READABLE}")


def read_gold(path: str | Path, *, part: str = "train") -> list[GoldDoc]:
    """The documents at ``path`` (see the module docstring). ``part="train"`` reads a
    folder's train file and then its dev file (their documents last, where the training
    command holds out its selection set); ``part="test"`` its test file."""
    path = Path(path).expanduser()
    if not path.exists():
        raise GoldFormatError(f"{path} does not exist")
    if path.is_file():
        return _read_file(path)
    parts = ("train", "dev") if part == "train" else (part,)
    docs: list[GoldDoc] = []
    found = False
    for name in parts:
        for ext in ("jsonl", "spacy"):
            file = path / f"{name}.{ext}"
            if file.is_file():
                docs += _read_file(file)
                found = True
                break
    if not found:
        wanted = " or ".join(f"{name}.jsonl/.spacy" for name in parts)
        raise GoldFormatError(f"{path.name} holds no {wanted}: give {READABLE}")
    return docs
