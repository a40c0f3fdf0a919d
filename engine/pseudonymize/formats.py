"""Gold data formats: JSONL, spaCy DocBin, CoNLL BIO and SVALA JSON. Django-free.

SVALA JSON (Wirén et al. 2019, used by SweLL for pseudonymization) holds the source
tokens, the target (pseudonymized) tokens and edges linking them; an edge over a
replaced mention carries the label and the reference id::

    {"source": [{"id": "s0", "text": "John "}, ...],
     "target": [{"id": "t0", "text": "[PERSON_1] "}, ...],
     "edges": {"e-s0-t0": {"id": "e-s0-t0", "ids": ["s0", "t0"],
               "labels": ["PERSON", "PERSON_1"], "manual": true}}}

Tokens keep their trailing whitespace, so joining ``text`` gives the full text back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from engine.gold import GoldDoc

_TOKEN = re.compile(r"\S+\s*|\s+")


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


def to_docbin(docs: Iterable[GoldDoc]) -> bytes:
    """A spaCy ``DocBin`` with the spans as ``doc.ents`` (token-aligned, expanded)."""
    from spacy.tokens import DocBin

    nlp = _blank()
    doc_bin = DocBin(store_user_data=False)
    for gold in docs:
        doc = nlp.make_doc(gold.text)
        ents, last = [], -1
        for span in _non_overlapping(gold):
            ent = doc.char_span(span.start, span.end, label=span.label, alignment_mode="expand")
            if ent is not None and ent.start >= last:
                ents.append(ent)
                last = ent.end
        doc.ents = ents
        doc_bin.add(doc)
    return doc_bin.to_bytes()


def to_conll(docs: Iterable[GoldDoc]) -> bytes:
    """CoNLL BIO: ``token<TAB>tag`` per line, a blank line between utterances/documents."""
    nlp = _blank()
    lines: list[str] = []
    for gold in docs:
        doc = nlp.make_doc(gold.text)
        tags = ["O"] * len(doc)
        for span in _non_overlapping(gold):
            ent = doc.char_span(span.start, span.end, alignment_mode="expand")
            if ent is None:
                continue
            for i in range(ent.start, ent.end):
                tags[i] = ("B-" if i == ent.start else "I-") + span.label
        lines.append(f"# id = {gold.id}")
        blank = True
        for token, tag in zip(doc, tags, strict=True):
            if token.is_space:
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
    """One document as SVALA JSON (see module docstring)."""
    from engine.pseudonymize import SpanInput, pseudonymize

    refs = (doc.meta or {}).get("refs", {})
    spans = [
        SpanInput(s.start, s.end, s.label, ref=refs.get(f"{s.start}:{s.end}:{s.label}"))
        for s in doc.spans
    ]
    result = pseudonymize(doc.text, spans, strategy=strategy, seed=seed)
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
    for r in result.replacements:
        for m in _TOKEN.finditer(doc.text[pos : r.start]):
            s_ids = tokens(m.group(0), source, "s")
            t_ids = tokens(m.group(0), target, "t")
            edge(s_ids + t_ids, [], False)
        s_ids = tokens(doc.text[r.start : r.end], source, "s")
        t_ids = tokens(r.replacement, target, "t") if r.replacement else []
        edge(s_ids + t_ids, [r.label, r.ref], True)
        pos = r.end
    for m in _TOKEN.finditer(doc.text[pos:]):
        s_ids = tokens(m.group(0), source, "s")
        t_ids = tokens(m.group(0), target, "t")
        edge(s_ids + t_ids, [], False)
    return {"id": doc.id, "source": source, "target": target, "edges": edges}


def to_svala(docs: Iterable[GoldDoc]) -> bytes:
    """A JSON list of SVALA documents."""
    return json.dumps([svala_doc(d) for d in docs], ensure_ascii=False, indent=1).encode()
