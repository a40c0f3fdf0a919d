"""Gold data formats: JSONL, spaCy DocBin, CoNLL BIO and SVALA JSON. Django-free.

SVALA JSON (Wirén et al. 2019, used by SweLL for pseudonymization) holds the source
tokens, the target (pseudonymized) tokens and edges linking them; an edge over a
replaced mention carries the label and the reference id::

    {"source": [{"id": "s0", "text": "John "}, ...],
     "target": [{"id": "t0", "text": "[PERSON_1] "}, ...],
     "edges": {"e-s0-t0": {"id": "e-s0-t0", "ids": ["s0", "t0"],
               "labels": ["PERSON", "PERSON_1"], "manual": true}}}

Tokens keep their trailing whitespace, so joining ``text`` gives the full text back.

Every format carries each document's identity (:func:`doc_identity`: ``id``, the
transcript's id and its pseudonymous title, never a name): JSONL in ``id`` and ``meta``,
the DocBin in ``Doc.user_data``, CoNLL in ``# id = `` comment lines, SVALA in the
document's ``id``/``transcript``/``title`` keys.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable

from engine.gold import GoldDoc

_TOKEN = re.compile(r"\S+\s*|\s+")
CONLL_DOCSTART = "-DOCSTART- -X- O O"


def to_jsonl(docs: Iterable[GoldDoc]) -> bytes:
    return "".join(json.dumps(d.to_json(), ensure_ascii=False) + "\n" for d in docs).encode()


def _non_overlapping(doc: GoldDoc):
    kept, last_end = [], -1
    for span in sorted(doc.spans, key=lambda s: (s.start, -(s.end - s.start))):
        if span.start >= last_end:
            kept.append(span)
            last_end = span.end
    return kept


_BLANK = None


def _blank():
    global _BLANK
    if _BLANK is None:
        import spacy

        _BLANK = spacy.blank("en")
    return _BLANK


def doc_identity(gold: GoldDoc) -> dict:
    """What every exported document carries: its id, transcript id and pseudonymous
    title (never a name), from ``gold.id`` and ``gold.meta``."""
    meta = gold.meta or {}
    identity = {"id": gold.id}
    for key in ("transcript", "title"):
        if meta.get(key) not in (None, ""):
            identity[key] = meta[key]
    return identity


def spacy_doc(gold: GoldDoc, nlp=None):
    """A spaCy ``Doc`` of ``gold.text`` whose tokens break at every span boundary, with
    the spans as ``doc.ents`` (exactly: ``P-E-R-R-Y.`` gives ``P-E-R-R-Y`` + ``.``, where
    the default tokenizer keeps ``Y.`` whole) and the document's identity in
    ``doc.user_data``."""
    from spacy.tokens import Doc

    nlp = nlp or _blank()
    spans = _non_overlapping(gold)
    cuts = sorted({s.start for s in spans} | {s.end for s in spans})
    words: list[str] = []
    spaces: list[bool] = []
    for token in nlp.make_doc(gold.text):
        start, end = token.idx, token.idx + len(token.text)
        inner = [c for c in cuts if start < c < end]
        bounds = [start, *inner, end]
        for a, b in itertools.pairwise(bounds):
            words.append(gold.text[a:b])
            spaces.append(False)
        spaces[-1] = bool(token.whitespace_)
    doc = Doc(nlp.vocab, words=words, spaces=spaces)
    if doc.text != gold.text:  # pragma: no cover - the tokenizer keeps every character
        raise ValueError(f"{gold.id}: the tokens do not give the text back")
    ents = []
    for span in spans:
        ent = doc.char_span(span.start, span.end, label=span.label)
        if ent is not None:
            ents.append(ent)
    doc.ents = ents
    doc.user_data.update(doc_identity(gold))
    return doc


def to_docbin(docs: Iterable[GoldDoc]) -> bytes:
    """A spaCy ``DocBin`` with the spans as ``doc.ents`` (token boundaries at every span
    edge) and ``doc.user_data`` = ``{"id", "transcript", "title"}``."""
    from spacy.tokens import DocBin

    nlp = _blank()
    doc_bin = DocBin(store_user_data=True)
    for gold in docs:
        doc_bin.add(spacy_doc(gold, nlp))
    return doc_bin.to_bytes()


def to_conll(docs: Iterable[GoldDoc]) -> bytes:
    """CoNLL BIO: ``token<TAB>tag`` per line, a blank line between utterances.

    Each document opens with the CoNLL-2003 delimiter ``-DOCSTART- -X- O O`` and its
    identity as comment lines (``# id = ...``, ``# transcript = ``, ``# title = ``, the
    CoNLL-U convention; readers with a comment symbol skip them). For spaCy's CoNLL-2003
    reader (``spacy convert -c ner``), drop the ``# `` lines first (docs/measurements.md)."""
    nlp = _blank()
    lines: list[str] = []
    for gold in docs:
        doc = spacy_doc(gold, nlp)
        tags = ["O"] * len(doc)
        for ent in doc.ents:
            for i in range(ent.start, ent.end):
                tags[i] = ("B-" if i == ent.start else "I-") + ent.label_
        lines.append(CONLL_DOCSTART)
        for key, value in doc_identity(gold).items():
            lines.append(f"# {key} = {value}")
        lines.append("")
        blank = True
        for token, tag in zip(doc, tags, strict=True):
            if token.is_space or not token.text.strip():
                if "\n" in token.text and not blank:
                    lines.append("")
                    blank = True
                continue
            lines.append(f"{token.text}\t{tag}")
            blank = False
        if not blank:
            lines.append("")
    return ("\n".join(lines) + "\n").encode()


def svala_doc(doc: GoldDoc, *, strategy: str = "tags", seed=None) -> dict:
    """One document as SVALA JSON (see module docstring).

    A whole PERSON mention (``Shannon Perry``) is one edge whose target holds the tags
    of its name parts (``[PERSON_1] [PERSON_2]``) and whose labels are ``["PERSON",
    "PERSON_1 PERSON_2"]``; ``meta["refs"]`` gives a whole mention's refs the same way.
    """
    from engine.detectors.names import person_name_parts
    from engine.pseudonymize import SpanInput, pseudonymize

    refs = (doc.meta or {}).get("refs", {})
    spans = []
    owner: dict[tuple[int, int], tuple[int, int]] = {}
    for s in doc.spans:
        ref = refs.get(f"{s.start}:{s.end}:{s.label}")
        pieces = [(s.start, s.end)]
        if s.label == "PERSON":
            pieces = person_name_parts(doc.text, s.start, s.end) or pieces
        piece_refs = (ref or "").split()
        if len(piece_refs) != len(pieces):
            piece_refs = [ref if len(pieces) == 1 else None] * len(pieces)
        for (a, b), piece_ref in zip(pieces, piece_refs, strict=True):
            spans.append(SpanInput(a, b, s.label, ref=piece_ref))
            owner[(a, b)] = (s.start, s.end)
    result = pseudonymize(doc.text, spans, strategy=strategy, seed=seed)
    # Replacements of the name parts of one whole mention become one edge.
    groups: list[list] = []
    for r in result.replacements:
        mention = owner.get((r.start, r.end), (r.start, r.end))
        if groups and owner.get((groups[-1][0].start, groups[-1][0].end)) == mention:
            groups[-1].append(r)
        else:
            groups.append([r])
    source: list[dict] = []
    target: list[dict] = []
    edges: dict[str, dict] = {}

    def tokens(text: str, into: list[dict], prefix: str) -> list[str]:
        ids = []
        for m in _TOKEN.finditer(text):
            token_id = f"{prefix}{len(into)}"
            into.append({"id": token_id, "text": m.group(0)})
            ids.append(token_id)
        return ids

    def edge(ids: list[str], labels: list[str], manual: bool) -> None:
        edge_id = "e-" + "-".join(ids)
        edges[edge_id] = {"id": edge_id, "ids": ids, "labels": labels, "manual": manual}

    pos = 0
    for group in groups:
        first, last = group[0], group[-1]
        for m in _TOKEN.finditer(doc.text[pos : first.start]):
            s_ids = tokens(m.group(0), source, "s")
            t_ids = tokens(m.group(0), target, "t")
            edge(s_ids + t_ids, [], False)
        s_ids = tokens(doc.text[first.start : last.end], source, "s")
        replaced = result.text[first.out_start : last.out_end]
        t_ids = tokens(replaced, target, "t") if replaced else []
        edge(s_ids + t_ids, [first.label, " ".join(r.ref for r in group)], True)
        pos = last.end
    for m in _TOKEN.finditer(doc.text[pos:]):
        s_ids = tokens(m.group(0), source, "s")
        t_ids = tokens(m.group(0), target, "t")
        edge(s_ids + t_ids, [], False)
    return {**doc_identity(doc), "source": source, "target": target, "edges": edges}


def to_svala(docs: Iterable[GoldDoc]) -> bytes:
    """A JSON list of SVALA documents."""
    return json.dumps([svala_doc(d) for d in docs], ensure_ascii=False, indent=1).encode()
