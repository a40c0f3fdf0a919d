"""Fine-tune a token classifier on gold documents. Django-free.

The recipe (GiusBERTo, adapted): BIO tags per label; every word piece labelled;
overlapping windows of at most ``max_length`` pieces that never cut an entity;
cross-entropy weighted per tag (``balanced``: ``n / (k * n_tag)``, as scikit-learn's
heuristic; ``sqrt``: its square root, gentler on precision; ``none``); a held-out
split *by document* (80/20, never by window, so no text is in both); after every
epoch the held-out documents are tagged exactly as at inference and scored per label
(exact span and token P/R/F1, ``engine.evaluation.metrics``); the best epoch (by
exact micro F1, then token F1) is saved with its metrics and label map; training stops
early after ``patience`` epochs without improvement. Deterministic for a seed.

The output directory is a standard transformers directory (``config.json`` with
``id2label``, weights, tokenizer) plus ``training.json`` (settings, split, metrics).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from engine.gold import GoldDoc, GoldSpan
from engine.labels import LABELS
from engine.learning import hf
from engine.learning.encoding import (
    IGNORE_INDEX,
    align_labels,
    bio_tags,
    encode_text,
    make_windows,
    word_starts,
)
from engine.learning.inference import TokenTagger
from engine.progress import Progress, ProgressFn

CLASS_WEIGHTS = ("balanced", "sqrt", "none")


@dataclass(slots=True)
class TrainConfig:
    out_dir: str
    base_model: str | None = None  # a local model directory; None: the packaged MiniLM
    labels: tuple[str, ...] | None = None  # None: every label present in the gold
    epochs: int = 3
    batch_size: int = 8
    learning_rate: float = 1e-4
    weight_decay: float = 0.01
    warmup_ratio: float = 0.1
    max_length: int = 512
    stride: int = 128
    class_weight: str = "balanced"
    val_fraction: float = 0.2
    patience: int = 2
    seed: int = 13
    device: str | None = None  # None: cuda when present, else cpu
    threads: int | None = None  # CPU threads for torch (None: torch's default)
    max_steps_per_epoch: int | None = None  # cap (quick runs and tests)
    eval_batch_size: int = 16


@dataclass(slots=True)
class TrainResult:
    out_dir: str
    labels: list[str]
    best_epoch: int
    best_metrics: dict
    history: list[dict]
    train_ids: list[str]
    val_ids: list[str]
    n_train_windows: int
    elapsed_s: float
    stopped_early: bool
    device: str
    held_out: bool
    class_weights: dict[str, float] = field(default_factory=dict)

    @property
    def n_train_docs(self) -> int:
        return len(self.train_ids)

    @property
    def n_val_docs(self) -> int:
        return len(self.val_ids)


class TrainingError(ValueError):
    """Training cannot start (no documents, no labels, bad settings)."""


def split_by_document(
    docs: Sequence[GoldDoc], *, val_fraction: float, seed: int
) -> tuple[list[GoldDoc], list[GoldDoc]]:
    """Seeded split of whole documents into (train, held-out).

    At least one document is held out when there are two or more; with a single
    document there is no held-out set (the caller then evaluates on the training doc
    and says so).
    """
    ordered = sorted(docs, key=lambda d: d.id)
    random.Random(seed).shuffle(ordered)
    if len(ordered) < 2 or val_fraction <= 0:
        return ordered, []
    n_val = min(len(ordered) - 1, max(1, round(len(ordered) * val_fraction)))
    return ordered[n_val:], ordered[:n_val]


def labels_in(docs: Sequence[GoldDoc]) -> list[str]:
    """Labels present in ``docs``: the 14 in their canonical order, then any others."""
    present = {s.label for d in docs for s in d.spans}
    return [lab for lab in LABELS if lab in present] + sorted(present - set(LABELS))


def training_windows(
    tokenizer, docs: Sequence[GoldDoc], tag2id: dict[str, int], *, max_length: int, stride: int
) -> tuple[list[tuple[list[int], list[int]]], Counter]:
    """``(input_ids, tag_ids)`` per window (with ``[CLS]``/``[SEP]``) and the tag counts
    over the documents' pieces (each piece counted once, however many windows hold it)."""
    id2tag = {v: k for k, v in tag2id.items()}
    windows: list[tuple[list[int], list[int]]] = []
    counts: Counter = Counter()
    cls_id, sep_id = tokenizer.cls_token_id, tokenizer.sep_token_id
    for doc in docs:
        encoded = encode_text(tokenizer, doc.text)
        tags = align_labels(encoded.offsets, [(s.start, s.end, s.label) for s in doc.spans], tag2id)
        counts.update(tags)
        starts = word_starts(doc.text, encoded.offsets)

        def can_cut(i: int, tags=tags, starts=starts) -> bool:
            return i >= len(tags) or (starts[i] and not id2tag[tags[i]].startswith("I-"))

        for s, e in make_windows(
            len(encoded), max_tokens=max_length - 2, stride=stride, can_cut=can_cut
        ):
            windows.append(
                (
                    [cls_id, *encoded.input_ids[s:e], sep_id],
                    [IGNORE_INDEX, *tags[s:e], IGNORE_INDEX],
                )
            )
    return windows, counts


def class_weights(counts: Counter, n_tags: int, mode: str) -> list[float]:
    """Per-tag loss weights from tag counts; tags never seen get weight 1."""
    if mode not in CLASS_WEIGHTS:
        raise TrainingError(f"class_weight must be one of {', '.join(CLASS_WEIGHTS)}")
    weights = [1.0] * n_tags
    if mode == "none":
        return weights
    total = sum(counts.values())
    seen = [t for t in range(n_tags) if counts.get(t)]
    for t in seen:
        w = total / (len(seen) * counts[t])
        weights[t] = math.sqrt(w) if mode == "sqrt" else w
    return weights


def restrict(doc: GoldDoc, labels: Sequence[str]) -> GoldDoc:
    keep = set(labels)
    return GoldDoc(
        doc.id,
        doc.text,
        [GoldSpan(s.start, s.end, s.label) for s in doc.spans if s.label in keep],
        list(doc.ignore),
        dict(doc.meta),
    )


def evaluate_tagger(tagger: TokenTagger, docs: Sequence[GoldDoc]) -> dict:
    """Tag ``docs`` as at inference and score them (``evaluate_documents`` figures)."""
    from engine.evaluation.metrics import evaluate_documents

    predicted = tagger.predict_many([d.text for d in docs])
    return evaluate_documents(docs, {d.id: spans for d, spans in zip(docs, predicted, strict=True)})


def seed_everything(seed: int) -> None:
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed % (2**32))
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def train(
    docs: Sequence[GoldDoc], config: TrainConfig, progress: ProgressFn | None = None
) -> TrainResult:
    """Fine-tune ``config.base_model`` on ``docs``; save the best epoch to ``config.out_dir``."""
    hf.go_offline()
    import os

    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    import torch
    from transformers import AutoModelForTokenClassification

    if not docs:
        raise TrainingError("No gold documents to train on.")
    if config.epochs < 1:
        raise TrainingError("epochs must be at least 1")
    if config.max_length < 16:
        raise TrainingError("max_length must be at least 16")

    def report(event: dict) -> None:
        if progress:
            progress(Progress(event["step"], event["steps"], event["phase"], detail=event))

    started = time.monotonic()
    base = hf.check_model_dir(config.base_model or hf.default_base_model_dir())
    labels = list(config.labels) if config.labels else labels_in(docs)
    if not labels:
        raise TrainingError("The gold documents have no spans of the requested labels.")
    tags = bio_tags(labels)
    tag2id = {t: i for i, t in enumerate(tags)}

    train_docs, val_docs = split_by_document(
        docs, val_fraction=config.val_fraction, seed=config.seed
    )
    held_out = bool(val_docs)
    eval_docs = [restrict(d, labels) for d in (val_docs or train_docs)]

    previous_determinism = torch.are_deterministic_algorithms_enabled()
    previous_threads = torch.get_num_threads()
    torch.use_deterministic_algorithms(True, warn_only=True)
    if config.threads:
        torch.set_num_threads(config.threads)
    try:
        seed_everything(config.seed)
        device = hf.pick_device(config.device)
        tokenizer = hf.load_tokenizer(base)
        model = AutoModelForTokenClassification.from_pretrained(
            str(base),
            num_labels=len(tags),
            id2label=dict(enumerate(tags)),
            label2id=tag2id,
            local_files_only=True,
            ignore_mismatched_sizes=True,
        )
        max_length = min(config.max_length, int(model.config.max_position_embeddings or 512))
        model.to(device)

        windows, counts = training_windows(
            tokenizer, train_docs, tag2id, max_length=max_length, stride=config.stride
        )
        if not windows:
            raise TrainingError("The training documents are empty.")
        weights = class_weights(counts, len(tags), config.class_weight)
        loss_fn = torch.nn.CrossEntropyLoss(
            weight=torch.tensor(weights, dtype=torch.float, device=device),
            ignore_index=IGNORE_INDEX,
        )
        batches_per_epoch = math.ceil(len(windows) / config.batch_size)
        steps_per_epoch = min(batches_per_epoch, config.max_steps_per_epoch or batches_per_epoch)
        total_steps = steps_per_epoch * config.epochs
        decay, no_decay = [], []
        for name, param in model.named_parameters():
            (no_decay if name.endswith("bias") or "LayerNorm" in name else decay).append(param)
        optimizer = torch.optim.AdamW(
            [
                {"params": decay, "weight_decay": config.weight_decay},
                {"params": no_decay, "weight_decay": 0.0},
            ],
            lr=config.learning_rate,
        )
        warmup = max(1, int(total_steps * config.warmup_ratio))

        def lr_lambda(step: int) -> float:
            if step < warmup:
                return (step + 1) / warmup
            return max(0.0, (total_steps - step) / max(1, total_steps - warmup))

        scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)
        generator = torch.Generator().manual_seed(config.seed)
        pad_id = tokenizer.pad_token_id or 0
        tagger = TokenTagger(
            model,
            tokenizer,
            tags,
            max_length=max_length,
            stride=config.stride,
            batch_size=config.eval_batch_size,
            device=device,
        )

        history: list[dict] = []
        best_key: tuple[float, float] | None = None
        best_epoch = 0
        best_metrics: dict = {}
        stale = 0
        stopped_early = False
        out = Path(config.out_dir)
        out.mkdir(parents=True, exist_ok=True)
        step = 0
        for epoch in range(1, config.epochs + 1):
            model.train()
            order = torch.randperm(len(windows), generator=generator).tolist()
            epoch_loss = 0.0
            for b in range(steps_per_epoch):
                batch = [
                    windows[i] for i in order[b * config.batch_size : (b + 1) * config.batch_size]
                ]
                width = max(len(ids) for ids, _ in batch)
                ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
                mask = torch.zeros((len(batch), width), dtype=torch.long)
                target = torch.full((len(batch), width), IGNORE_INDEX, dtype=torch.long)
                for r, (row_ids, row_tags) in enumerate(batch):
                    ids[r, : len(row_ids)] = torch.tensor(row_ids)
                    mask[r, : len(row_ids)] = 1
                    target[r, : len(row_tags)] = torch.tensor(row_tags)
                logits = model(input_ids=ids.to(device), attention_mask=mask.to(device)).logits
                loss = loss_fn(logits.reshape(-1, len(tags)), target.to(device).reshape(-1))
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                step += 1
                epoch_loss += float(loss.detach())
                report(
                    {
                        "phase": "train",
                        "epoch": epoch,
                        "epochs": config.epochs,
                        "step": step,
                        "steps": total_steps,
                        "loss": epoch_loss / (b + 1),
                    }
                )
            report(
                {
                    "phase": "eval",
                    "epoch": epoch,
                    "epochs": config.epochs,
                    "step": step,
                    "steps": total_steps,
                }
            )
            metrics = evaluate_tagger(tagger, eval_docs)
            record = {
                "epoch": epoch,
                "train_loss": epoch_loss / max(1, steps_per_epoch),
                "overall": metrics["overall"],
                "labels": metrics["labels"],
                "leaked_tokens": metrics["leaked_tokens"],
                "elapsed_s": round(time.monotonic() - started, 2),
            }
            history.append(record)
            key = (metrics["overall"]["exact"]["f1"], metrics["overall"]["token"]["f1"])
            improved = best_key is None or key > best_key
            if improved:
                best_key, best_epoch, best_metrics, stale = key, epoch, record, 0
                model.save_pretrained(str(out))
                tokenizer.save_pretrained(str(out))
            else:
                stale += 1
            report(
                {
                    "phase": "epoch",
                    "epoch": epoch,
                    "epochs": config.epochs,
                    "step": step,
                    "steps": total_steps,
                    "loss": record["train_loss"],
                    "f1": key[0],
                    "improved": improved,
                }
            )
            if stale >= config.patience and epoch < config.epochs:
                stopped_early = True
                break

        result = TrainResult(
            out_dir=str(out),
            labels=labels,
            best_epoch=best_epoch,
            best_metrics=best_metrics,
            history=history,
            train_ids=[d.id for d in train_docs],
            val_ids=[d.id for d in val_docs],
            n_train_windows=len(windows),
            elapsed_s=round(time.monotonic() - started, 2),
            stopped_early=stopped_early,
            device=str(device),
            held_out=held_out,
            class_weights={tags[i]: round(w, 4) for i, w in enumerate(weights)},
        )
        write_training_info(out, config=config, result=result, base=base, max_length=max_length)
        return result
    finally:
        torch.use_deterministic_algorithms(previous_determinism)
        torch.set_num_threads(previous_threads)


def write_training_info(
    out: Path, *, config: TrainConfig, result: TrainResult, base: Path, max_length: int
) -> None:
    import torch
    import transformers

    settings = asdict(config)
    settings["max_length"] = max_length
    settings["base_model"] = str(base)
    info = {
        "trained_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "config": settings,
        "labels": result.labels,
        "tags": bio_tags(result.labels),
        "best_epoch": result.best_epoch,
        "best": result.best_metrics,
        "history": result.history,
        "held_out": result.held_out,
        "train_ids": result.train_ids,
        "val_ids": result.val_ids,
        "n_train_windows": result.n_train_windows,
        "class_weights": result.class_weights,
        "elapsed_s": result.elapsed_s,
        "stopped_early": result.stopped_early,
        "device": result.device,
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
    }
    (out / hf.TRAINING_FILE).write_text(json.dumps(info, indent=2), encoding="utf-8")
