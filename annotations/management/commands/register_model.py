"""``manage.py register_model DIR [--actor USERNAME] [--json]``: bring a spaCy pipeline
trained elsewhere (``spacy train`` on the exported config and DocBins, or an exported
domain model fine-tuned further) back into the tool: checked, copied, its checksum
verified or recorded, scored with the active model on the gate documents, and activated
only when the gate says so (``annotations.services.learning_register``). Runs here, in
this process; the Learning page's form queues the same for a worker."""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from annotations.management.database import require_migrated_database


class Command(BaseCommand):
    help = "Register a spaCy pipeline trained elsewhere; activate it if the gate says so."

    def add_arguments(self, parser):
        parser.add_argument("path", help="the model directory (a spaCy pipeline)")
        parser.add_argument("--actor", default="", help="the user who registers it (audited)")
        parser.add_argument("--json", action="store_true", dest="as_json")

    def handle(self, *args, path: str, actor: str, as_json: bool, **options):
        from annotations.services.learning import LearningError
        from annotations.services.learning_register import model_register_job, model_register_start

        require_migrated_database()
        user = None
        if actor:
            user = get_user_model().objects.filter(username=actor).first()
            if user is None:
                raise CommandError(f"No user named {actor!r}.")
        try:
            model = model_register_start(path=path, user=user)
        except LearningError as exc:
            raise CommandError(str(exc)) from exc
        model_register_job(job_id=model.job_id, trained_model_id=model.pk)
        model.refresh_from_db()
        if model.status != model.Status.READY:
            raise CommandError(f"Not registered: {model.error or model.status}.")
        gate = (model.metrics or {}).get("gate", {})
        if as_json:
            out = {"trained_model": model.pk, "active": model.active, "decision": model.decision}
            self.stdout.write(json.dumps({**out, "gate": gate}, indent=2))
            return
        self.stdout.write(f"Model {model.pk} ({model.path}): {model.decision}")
