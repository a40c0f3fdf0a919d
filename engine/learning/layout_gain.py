"""What approved transcripts of one layout teach the domain model (``bench_layout_gain``).

For each run seed: ``approved`` transcripts of ``layout`` stand for the approved ones (their
gold is what the reviewers decided, as an approved transcript holds it), ``test``
transcripts of the same layout with other generator seeds stand for held-out approved
ones. The current model (``model_dir``, the shipped one by default) is scored on the test
transcripts (``scoring.score_model``: its own whole-mention exact figures, what
``evaluate --model`` says), retrained the way a retraining of the loop is
(``domain.retrain_config``: the model's recipe started from its head; training on the
approved transcripts but ``selection`` of them plus a sample of the recipe's
generated hearings, so that it does not forget; the best epoch picked on the held-out
approved ones plus one recipe selection hearing, never on the test set), and scored
again. Each *variant* is one training data:

- ``reviews``: the approved transcripts once beside the recipe sample (the loop's recipe);
- ``generated``: the recipe sample alone, the same budget (what generated text alone
  gives: the control);
- ``reviewsN`` (e.g. ``reviews3``): the approved transcripts repeated N times (weighted).

The layouts are ``engine.synthetic.formats.FORMATS`` (imported from captions,
speech-to-text exports and markup: the recipe generates none of them) and the layout
families (``families.FAMILIES``, which the recipe takes in turn). A format's transcript
is a family's (in turn) written in that format, its gold the imported text's.

Seeds: run seed ``s`` takes generator seeds ``SEED_START + 1000 s`` on (approved) and
``SEED_START + 1000 s + 500`` on (test); the recipe's are 70000 on, so no set shares a
document with another (``run_seed`` checks the ids and texts and raises if one does).
Seeds run in parallel processes (``jobs``). Django-free; docs/learning.md.
"""

from __future__ import annotations

import functools
import json
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from engine.gold import GoldDoc

SEED_START = 30000
TEST_OFFSET = 500
DEFAULT_VARIANTS = ("reviews", "generated")


def layouts() -> tuple[str, ...]:
    from engine.synthetic.families import FAMILIES
    from engine.synthetic.formats import FORMATS

    return (*FORMATS, *FAMILIES)


def layout_gold(layout: str, seed: int, words: int, turn: int = 0) -> GoldDoc:
    """The gold of generated transcript ``seed`` of ``layout``; a format's transcript is
    the ``turn``-th layout family's (in turn) written in that format."""
    from engine.synthetic.families import FAMILIES
    from engine.synthetic.formats import FORMATS, format_document

    if layout in FORMATS:
        family = FAMILIES[turn % len(FAMILIES)]
        return format_document(seed, layout, family=family, words=words).gold
    if layout in FAMILIES:
        from engine.learning.domain_recipe import hearing_gold

        return hearing_gold(seed, layout, words)
    raise ValueError(f"unknown layout {layout!r}; one of {', '.join(layouts())}")


@dataclass(frozen=True, slots=True)
class GainConfig:
    layout: str = "stt"
    seeds: int = 3
    approved: int = 4  # approved transcripts per seed, ``selection`` of them held out
    selection: int = 1
    test: int = 3  # held-out approved transcripts the models are scored on
    words: int = 3000
    recipe_hearings: int = 3  # the recipe sample trained beside the approved ones
    recipe_words: int = 3000
    epochs: int = 8
    cpu_seconds: float = 120.0  # each training's CPU budget (DomainConfig.max_seconds)
    variants: tuple[str, ...] = DEFAULT_VARIANTS
    jobs: int = 1  # seeds trained at once (processes)
    model_dir: str = ""  # "" = the shipped model


@dataclass(slots=True)
class SeedData:
    approved_train: list[GoldDoc]
    approved_selection: list[GoldDoc]
    test: list[GoldDoc]
    recipe_train: list[GoldDoc]
    recipe_selection: list[GoldDoc]
    plan: dict = field(default_factory=dict)


def seed_data(config: GainConfig, run_seed: int) -> SeedData:
    """The documents of run seed ``run_seed`` (deterministic)."""
    from engine.learning import domain_recipe

    base = SEED_START + 1000 * run_seed
    approved = [
        layout_gold(config.layout, base + i, config.words, turn=run_seed + i)
        for i in range(config.approved)
    ]
    test = [
        layout_gold(config.layout, base + TEST_OFFSET + j, config.words, turn=run_seed + j + 3)
        for j in range(config.test)
    ]
    keep = max(0, len(approved) - config.selection)
    recipe_train, recipe_selection = domain_recipe.recipe_docs(
        hearings=config.recipe_hearings, dev=1, words=config.recipe_words
    )
    return SeedData(approved[:keep], approved[keep:], test, recipe_train, recipe_selection)


def check_disjoint(sets: dict[str, Sequence[GoldDoc]]) -> None:
    """Raise ``ValueError`` when two sets share a document (by id or by text)."""
    seen: dict[str, str] = {}
    for name, docs in sets.items():
        for doc in docs:
            for key in (f"id:{doc.id}", f"text:{hash(doc.text)}"):
                if key in seen and seen[key] != name:
                    raise ValueError(f"{doc.id} is in both {seen[key]} and {name}")
                seen[key] = name


def variant_train(variant: str, data: SeedData) -> list[GoldDoc]:
    """The training documents of ``variant`` (see the module's docstring)."""
    if variant == "generated":
        return list(data.recipe_train)
    if variant.startswith("reviews"):
        times = int(variant[len("reviews") :] or 1)
        if times < 1:
            raise ValueError(f"variant {variant!r}: repeat at least once")
        return list(data.recipe_train) + list(data.approved_train) * times
    raise ValueError(f"unknown variant {variant!r}: reviews, reviewsN or generated")


def _exact(figures: dict) -> dict:
    exact = figures["overall"]["exact"]
    return {k: (round(exact[k], 4) if k in ("p", "r", "f1") else exact[k]) for k in exact}


def _micro(tp: int, fp: int, fn: int) -> dict:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"p": round(p, 4), "r": round(r, 4), "f1": round(f1, 4), "tp": tp, "fp": fp, "fn": fn}


def score_documents(scorer, model_dir: str, docs: Sequence[GoldDoc]) -> dict:
    """Exact whole-mention figures over ``docs`` (micro: the documents' counts summed,
    as ``evaluate`` sums them) and each document's (its id and shape: where the gain is)."""
    per = []
    for doc in docs:
        figures = _exact(scorer(model_dir, [doc]))
        per.append({"id": doc.id, "shape": (doc.meta or {}).get("shape")} | figures)
    total = _micro(*(sum(d[k] for d in per) for k in ("tp", "fp", "fn")))
    return total | {"documents": per}


def default_trainer(train, selection, *, model_dir, out_dir, seed, config: GainConfig) -> dict:
    """Train with the loop's recipe; returns ``{"model_dir", "epochs", "best_epoch",
    "cpu_s", "head_started"}``."""
    from engine.learning.domain import read_training, retrain_config, train_domain

    cfg = retrain_config(
        model_dir,
        out_dir=out_dir,
        seed=seed,
        max_epochs=config.epochs,
        max_seconds=config.cpu_seconds,
    )
    result = train_domain(train, selection, config=cfg)
    record = read_training(result.model_dir)
    return {
        "model_dir": result.model_dir,
        "epochs": record.get("epochs"),
        "best_epoch": record.get("best_epoch"),
        "stopped_by": record.get("stopped_by"),
        "cpu_s": record.get("cpu_s"),
        "training_s": record.get("training_s"),
        # the head started from the model's only with the same labels
        "head_started": list(record.get("labels") or []) == list(cfg.labels or []),
    }


@functools.lru_cache(maxsize=2)
def _loaded(model_dir: str):
    from engine.learning.scoring import load_model

    return load_model(model_dir)


def default_scorer(model_dir: str, docs: Sequence[GoldDoc]) -> dict:
    from engine.learning.scoring import score_model

    return score_model(_loaded(model_dir), docs)


def run_seed(
    config: GainConfig,
    run_seed: int,
    *,
    trainer: Callable[..., dict] = default_trainer,
    scorer: Callable[[str, Sequence[GoldDoc]], dict] = default_scorer,
    data: SeedData | None = None,
) -> dict:
    """One seed: the model before, each variant's retrained model after, on the test set."""
    started = time.monotonic()
    data = data or seed_data(config, run_seed)
    check_disjoint(
        {
            "train": data.approved_train + data.recipe_train,
            "selection": data.approved_selection + data.recipe_selection,
            "test": data.test,
        }
    )
    model_dir = config.model_dir or _shipped()
    before = score_documents(scorer, model_dir, data.test)
    selection = data.approved_selection + data.recipe_selection
    out: dict = {
        "seed": run_seed,
        "sets": {
            "approved_train": [d.id for d in data.approved_train],
            "approved_selection": [d.id for d in data.approved_selection],
            "recipe_train": [d.id for d in data.recipe_train],
            "recipe_selection": [d.id for d in data.recipe_selection],
            "test": [d.id for d in data.test],
        },
        "test_mentions": before["tp"] + before["fn"],
        "before": before,
        "variants": {},
    }
    for variant in config.variants:
        tmp = tempfile.mkdtemp(prefix=f"layout-gain-{run_seed}-{variant}-")
        try:
            trained = trainer(
                variant_train(variant, data),
                selection,
                model_dir=model_dir,
                out_dir=str(Path(tmp, "model")),
                seed=run_seed,
                config=config,
            )
            after = score_documents(scorer, trained["model_dir"], data.test)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        out["variants"][variant] = {
            "after": after,
            "gain": round(after["f1"] - before["f1"], 4),
            "training": {k: v for k, v in trained.items() if k != "model_dir"},
        }
    out["seconds"] = round(time.monotonic() - started, 1)
    return out


def _shipped() -> str:
    from engine.detectors.domain import SHIPPED_MODEL

    return str(SHIPPED_MODEL)


def summarize(rows: Sequence[dict], variants: Sequence[str]) -> dict:
    """Per variant: the gains' mean, std, min and max over the seeds (exact F1 points
    are ``gain × 100``), and the mean before and after."""
    out = {}
    for variant in variants:
        gains = [r["variants"][variant]["gain"] for r in rows]
        out[variant] = {
            "gain_mean": round(statistics.fmean(gains), 4),
            "gain_std": round(statistics.stdev(gains), 4) if len(gains) > 1 else 0.0,
            "gain_min": min(gains),
            "gain_max": max(gains),
            "before_mean": round(statistics.fmean(r["before"]["f1"] for r in rows), 4),
            "after_mean": round(
                statistics.fmean(r["variants"][variant]["after"]["f1"] for r in rows), 4
            ),
            "seeds_with_gain_3_points": sum(1 for g in gains if g >= 0.03),
            "by_shape": _by_shape(rows, variant),
        }
    return out


def _by_shape(rows: Sequence[dict], variant: str) -> dict:
    """Exact F1 before and after per shape of the test transcripts, every seed's summed."""
    counts: dict = {}
    for row in rows:
        after = row["variants"][variant]["after"].get("documents", [])
        for when, docs in (("before", row["before"].get("documents", [])), ("after", after)):
            for doc in docs:
                c = counts.setdefault(doc["shape"], {}).setdefault(when, [0, 0, 0])
                for i, k in enumerate(("tp", "fp", "fn")):
                    c[i] += doc[k]
    return {
        shape: {when: _micro(*c)["f1"] for when, c in sorted(by.items())}
        for shape, by in counts.items()
    }


def _run_seed_job(args: tuple[GainConfig, int]) -> dict:
    config, seed = args
    return run_seed(config, seed)


def run(config: GainConfig, *, report: Callable[[str], None] | None = None, **seed_kwargs) -> dict:
    """Every seed (``config.jobs`` at once in processes of their own with the default
    trainer), then the summary; JSON-ready."""
    if config.layout not in layouts():
        raise ValueError(f"unknown layout {config.layout!r}; one of {', '.join(layouts())}")
    for variant in config.variants:
        variant_train(variant, SeedData([], [], [], [], []))  # a typo fails before training
    started = time.monotonic()
    seeds = list(range(config.seeds))
    rows: list[dict] = []
    if config.jobs > 1 and not seed_kwargs:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=config.jobs, mp_context=context) as pool:
            for row in pool.map(_run_seed_job, [(config, s) for s in seeds]):
                rows.append(row)
                if report:
                    report(_row_line(row))
    else:
        for seed in seeds:
            row = run_seed(config, seed, **seed_kwargs)
            rows.append(row)
            if report:
                report(_row_line(row))
    from dataclasses import asdict

    return {
        "config": asdict(config) | {"variants": list(config.variants)},
        "seeds": rows,
        "summary": summarize(rows, config.variants),
        "seconds": round(time.monotonic() - started, 1),
    }


def _row_line(row: dict) -> str:
    parts = [f"seed {row['seed']}: before {row['before']['f1']:.3f}"]
    for name, v in row["variants"].items():
        parts.append(f"{name} {v['after']['f1']:.3f} ({v['gain'] * 100:+.1f})")
    return ", ".join(parts) + f" [{row['seconds']:.0f} s]"


def dumps(result: dict) -> str:
    return json.dumps(result, indent=2)
