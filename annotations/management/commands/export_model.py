"""``manage.py export_model --out DIR [--model PATH]``: the domain model as a standard
spaCy pipeline that a researcher loads with ``spacy.load(DIR)`` and reads ``doc.ents``
from (``engine.learning.pipeline``); by default the active model, else the shipped one.

    python manage.py export_model --out /tmp/anonreview_domain
    python -m spacy package /tmp/anonreview_domain /tmp/packages   # a wheel of it
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Export the domain model as a spaCy pipeline that sets doc.ents (spacy.load)."

    def add_arguments(self, parser):
        parser.add_argument("--out", required=True, help="a new folder for the pipeline")
        parser.add_argument(
            "--model",
            default="",
            help="the model directory to export (default: the active domain model, else "
            "the shipped one)",
        )

    def handle(self, *args, out: str, model: str, **options):
        from annotations.services.learning_loop import active_domain_dir
        from engine.detectors.domain import SHIPPED_MODEL
        from engine.learning.pipeline import NotADomainModel, export_pipeline

        source = Path(model or active_domain_dir() or SHIPPED_MODEL)
        try:
            path = export_pipeline(source, Path(out))
        except (NotADomainModel, FileExistsError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Exported {source} to {path}: spacy.load('{path}') gives doc.ents "
            "wherever anonreview is installed (its spaCy entry points)."
        )
