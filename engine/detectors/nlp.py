"""spaCy models, loaded once per process, and the one parse per transcript they share.

``spacy_doc(document, model)`` parses ``document.text`` once and keeps the result in
``document.artifacts`` so the spaCy NER detector and Presidio (through its
``nlp_artifacts``) read the same parse. Long transcripts are parsed line batch by line
batch with ``nlp.pipe`` and joined with ``Doc.from_docs``; the joined Doc's text is the
transcript's text, so character offsets need no mapping back.

Only the components NER needs are run (for ``en_core_web_*`` the ``ner`` component
has its own token-to-vector layer; tagger, parser and lemmatizer are skipped), which is
what makes the shared parse cheaper than a full ``nlp(text)`` pass. Extra ``ner`` heads
trained on that component's token vectors (the learned domain model) run in the same
parse on the same vectors (``engine.detectors.heads``). Django-free.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from engine.detectors.base import Document
from engine.progress import PROGRESS, ProgressFn, checkpoint

# Nothing in the detection core may reach for the network.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

_MODELS: dict[str, Any] = {}
_LOCK = threading.Lock()
NER_ONLY_KEEP = ("ner", "entity_ruler", "transformer", "curated_transformer")
BATCH_CHARS = 4000
PIPE_BATCH = 16  # line batches per spaCy batch


def load_spacy(model: str) -> Any:
    """Load spaCy ``model`` (an installed package name or a directory) once per process.

    Raises ``OSError`` when the model is not installed (nothing is downloaded).
    """
    nlp = _MODELS.get(model)
    if nlp is not None:
        return nlp
    with _LOCK:
        nlp = _MODELS.get(model)
        if nlp is None:
            import spacy

            nlp = spacy.load(model)
            _MODELS[model] = nlp
    return nlp


def ner_components_disabled(nlp: Any) -> list[str]:
    """The pipeline components NER does not need (listeners' sources are kept)."""
    keep = set(NER_ONLY_KEEP)
    for name in list(keep):
        if name in nlp.pipe_names:
            component = nlp.get_pipe(name)
            model = getattr(component, "model", None)
            if model is None:
                continue
            # A component listening to a shared tok2vec/transformer needs it.
            for node in model.walk():
                upstream = getattr(node, "upstream_name", None) or (
                    node.attrs.get("upstream_name") if hasattr(node, "attrs") else None
                )
                if upstream and upstream != "*":
                    keep.add(upstream)
                elif upstream == "*":
                    keep.update({"tok2vec", "transformer"})
    return [name for name in nlp.pipe_names if name not in keep]


def line_batches(text: str, max_chars: int = BATCH_CHARS) -> list[str]:
    """Split ``text`` into consecutive pieces ending at line breaks (joined = ``text``)."""
    pieces: list[str] = []
    start = 0
    n = len(text)
    while start < n:
        end = min(n, start + max_chars)
        if end < n:
            cut = text.rfind("\n", start, end)
            end = cut + 1 if cut >= start else end
        pieces.append(text[start:end])
        start = end
    return pieces


def parse(
    nlp: Any,
    text: str,
    *,
    max_chars: int = BATCH_CHARS,
    progress: ProgressFn | None = None,
    heads: dict[str, Any] | None = None,
    found: dict[str, list] | None = None,
) -> Any:
    """Parse ``text`` with the NER components of ``nlp``, batched by lines; one Doc back.
    ``progress``: a cancellation point after every batch (``engine.progress.checkpoint``).
    ``heads``: extra ``ner`` heads on the ``ner``'s own token vectors
    (``engine.detectors.heads``), run when ``ner`` is the only component NER needs; their
    spans go to ``found[key]`` (a key is absent when its head could not run)."""
    disabled = ner_components_disabled(nlp)
    pieces = line_batches(text, max_chars)
    if not pieces:
        return nlp.make_doc("")
    docs = []
    if heads and [n for n in nlp.pipe_names if n not in disabled] == ["ner"]:
        from engine.detectors.heads import run_batch

        outputs: dict[str, list] = {key: [] for key in heads}
        offset = 0
        for i in range(0, len(pieces), PIPE_BATCH):
            batch = [nlp.make_doc(p) for p in pieces[i : i + PIPE_BATCH]]
            offsets = []
            for piece in pieces[i : i + PIPE_BATCH]:
                offsets.append(offset)
                offset += len(piece)
            run_batch(nlp, batch, heads, outputs, offsets)
            docs.extend(batch)
            checkpoint(progress)
        if found is not None:
            found.update(outputs)
    else:
        for doc in nlp.pipe(pieces, disable=disabled, batch_size=PIPE_BATCH):
            docs.append(doc)
            checkpoint(progress)
    doc = docs[0] if len(docs) == 1 else join(nlp, docs, text, [len(p) for p in pieces])
    if len(doc) and doc[-1].idx + len(doc[-1].text_with_ws) != len(text):  # pragma: no cover
        # spaCy keeps every character; a token array that ends elsewhere would shift offsets
        raise RuntimeError("spaCy changed the text while parsing; offsets would be wrong")
    return doc


def join(nlp: Any, docs: list, text: str, lengths: list[int]) -> Any:
    """One Doc of the consecutive ``docs`` parsed from ``text``'s pieces (``lengths``:
    each piece's length): their tokens and entities (what the detectors read).
    ``Doc.from_docs`` does the same and more (user data, spans, every token attribute) but
    builds a Python object per token: 0.5 s of a 15,000-word hearing; this reads the docs'
    arrays (``doc.text`` also builds a token object per token: 0.2 s)."""
    import numpy
    from spacy.attrs import ENT_IOB, ENT_TYPE, IDX, LENGTH, SPACY
    from spacy.tokens import Doc

    words: list[str] = []
    spaces: list[bool] = []
    ents = []
    offset = 0
    for doc, piece_length in zip(docs, lengths, strict=True):
        rows = doc.to_array([IDX, LENGTH, SPACY])
        for idx, length, space in rows.tolist():
            words.append(text[offset + idx : offset + idx + length])
            spaces.append(bool(space))
        ents.append(doc.to_array([ENT_IOB, ENT_TYPE]))
        offset += piece_length
    joined = Doc(nlp.vocab, words=words, spaces=spaces)
    joined.from_array([ENT_IOB, ENT_TYPE], numpy.concatenate(ents))
    return joined


def spacy_doc(document: Document, model: str) -> Any:
    """The shared parse of ``document`` by ``model`` (computed once, kept in artifacts).
    Heads registered for ``model`` (``engine.detectors.heads.register``) run in it."""
    key = f"spacy:{model}"
    doc = document.artifacts.get(key)
    if doc is None:
        from engine.detectors.heads import OUTPUT, registered

        heads = registered(document, model)
        found: dict[str, list] = {}
        # a job's progress callback, its cancellation point (engine.progress)
        doc = parse(
            load_spacy(model),
            document.text,
            progress=document.artifacts.get(PROGRESS),
            heads=heads,
            found=found,
        )
        for name, spans in found.items():
            document.artifacts[OUTPUT + name] = spans
        document.artifacts[key] = doc
    return doc
