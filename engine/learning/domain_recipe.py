"""The shipped domain model's data: generated hearings of seeds no evaluation uses.

Training seeds start at ``TRAIN_SEED_START`` (70000), the held-out hearings that pick
the best epoch (the selection set, "dev") at ``DEV_SEED_START`` (70900), and the held-out
hearings that decide activation (the gate set, ``gate_docs``) at ``GATE_SEED_START``
(70950): a model is never judged on the documents it was selected on. Every seed the tests, the benchmarks, ``evaluate``/``measure`` runs and the
documentation use lies below 10,000 (0-9201 when this was written: ``grep -rnE
"seed"``), so the 70000s are disjoint from all of them; evaluate the model on any other
seed. Every layout family takes its turn (``gold_families``: ``bph`` through
``engine.synthetic.generate_hearing``, the others through ``family_document(...).gold``),
so the model does not learn one layout. Django-free.
"""

from __future__ import annotations

from engine.gold import GoldDoc
from engine.progress import checkpoint

TRAIN_SEED_START = 70000
DEV_SEED_START = 70900
GATE_SEED_START = 70950
HEARINGS = 10
DEV_HEARINGS = 2
GATE_HEARINGS = 4
WORDS = 15000


def gold_families() -> tuple[str, ...]:
    """The layout families whose generator writes gold, ``bph`` first
    (``engine.synthetic.families.FAMILIES``: the board layouts, the federal trial, the
    appellate argument and the question-and-answer testimony families)."""
    from engine.synthetic.families import FAMILIES

    return ("bph", *[f for f in FAMILIES if f != "bph"])


def hearing_gold(seed: int, family: str, words: int) -> GoldDoc:
    """The gold document of the generated hearing ``seed`` in layout ``family``."""
    if family == "bph":
        from engine.synthetic import generate_hearing

        return generate_hearing(seed, words=words).gold
    from engine.synthetic.families import family_document

    gold = family_document(seed, family, words=words).gold
    if gold is None:
        raise ValueError(f"the {family} family writes no gold")
    return gold


def recipe_plan(
    hearings: int = HEARINGS, dev: int = DEV_HEARINGS, words: int = WORDS
) -> dict[str, list]:
    """Which seed in which family: ``{"train": [(seed, family)], "dev": [...]}``. The
    families take turns; the dev hearings start at another family than the first
    training hearing where there is more than one."""
    fams = gold_families()
    train = [(TRAIN_SEED_START + i, fams[i % len(fams)]) for i in range(hearings)]
    held = [(DEV_SEED_START + i, fams[(i + 1) % len(fams)]) for i in range(dev)]
    return {"train": train, "dev": held, "words": words}


def recipe_docs(
    hearings: int = HEARINGS, dev: int = DEV_HEARINGS, words: int = WORDS
) -> tuple[list[GoldDoc], list[GoldDoc]]:
    """The training and held-out documents of the recipe (deterministic)."""
    plan = recipe_plan(hearings, dev, words)
    train, held = [], []
    for seed, family in plan["train"]:
        checkpoint()  # a cancelled job stops between hearings (engine.progress.watching)
        train.append(hearing_gold(seed, family, words))
    for seed, family in plan["dev"]:
        checkpoint()
        held.append(hearing_gold(seed, family, words))
    return train, held


def gate_plan(gate: int = GATE_HEARINGS) -> list[tuple[int, str]]:
    """The gate hearings: seeds from ``GATE_SEED_START``, the families in turn from the
    third (the selection hearings start at the second)."""
    fams = gold_families()
    return [(GATE_SEED_START + i, fams[(i + 2) % len(fams)]) for i in range(gate)]


def gate_docs(gate: int = GATE_HEARINGS, words: int = WORDS) -> list[GoldDoc]:
    """The generated hearings the activation gate reads (never trained or selected on).
    A cancellation point between hearings (``engine.progress.checkpoint``)."""
    out = []
    for seed, family in gate_plan(gate):
        checkpoint()
        out.append(hearing_gold(seed, family, words))
    return out


def recipe_meta(hearings: int = HEARINGS, dev: int = DEV_HEARINGS, words: int = WORDS) -> dict:
    """What ``training.json`` says about the data (``data``: seeds, families, words)."""
    plan = recipe_plan(hearings, dev, words)
    return {
        "source": "generated",
        "seeds": [seed for seed, _ in plan["train"]],
        "dev_seeds": [seed for seed, _ in plan["dev"]],
        "families": sorted({f for _, f in plan["train"] + plan["dev"]}),
        "plan": {k: [list(x) for x in v] for k, v in plan.items() if k != "words"},
        "words": words,
    }
