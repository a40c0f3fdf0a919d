"""Import hearing transcripts from PDFs, .txt, .md, .rst, .docx, .rtf, .vtt and .srt files
(captions and timestamped speech-to-text transcripts too), folders and .zip archives.

    python manage.py import_transcripts PATH... [--assign USER] [--dry-run] [--json]

``--dry-run --json`` writes nothing and prints
``{"files": [{"path", "ok", "error", "metadata": {...}, "utterances": N, "text": "..."}]}``
(DESIGN.md; each file also has ``notices`` and ``layout``). A dry run needs no database:
on a checkout that was never migrated it still parses (the duplicate check is skipped). Each file is imported on its own: a bad file is reported and the others
go on. Exit status 1 when a file failed (a duplicate alone is not a failure).
"""

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from transcripts.services.importing import sources_from_paths, transcripts_import_batch


class Command(BaseCommand):
    help = (
        "Import hearing transcripts (PDF, .txt, .md, .rst, .docx, .rtf, .vtt, .srt, folders, "
        ".zip); see docs/importing.md."
    )

    def add_arguments(self, parser):
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument(
            "--assign", metavar="USER", help="Assign the imported transcripts to USER."
        )
        parser.add_argument("--dry-run", action="store_true", help="Parse only; write nothing.")
        parser.add_argument("--json", action="store_true", help="Print the results as JSON.")
        parser.add_argument(
            "--no-annotate", action="store_true", help="Do not queue the automatic annotation."
        )

    def handle(self, *args, **options):
        assignees = []
        if options["assign"]:
            User = get_user_model()
            try:
                assignees = [User.objects.get(username=options["assign"])]
            except User.DoesNotExist as exc:
                raise CommandError(f"No user named {options['assign']!r}.") from exc
        dry_run = options["dry_run"]
        outcomes = transcripts_import_batch(
            sources=sources_from_paths(options["paths"]),
            assignees=assignees,
            dry_run=dry_run,
            annotate=not options["no_annotate"],
        )
        if options["json"]:
            files = [o.to_json(with_text=dry_run) for o in outcomes]
            self.stdout.write(json.dumps({"files": files}, ensure_ascii=False, indent=1))
        else:
            for o in outcomes:
                if o.ok and dry_run:
                    note = f" ({o.error})" if o.error else ""
                    self.stdout.write(
                        f"OK    {o.path}: {o.pages} pages, {o.utterances} utterances (dry run){note}"
                    )
                elif o.ok:
                    line = f"OK    {o.path} → transcript {o.transcript_id}: {o.pages} pages, {o.utterances} utterances"
                    if o.annotation_error:
                        line += f"; {o.annotation_error}"
                    self.stdout.write(self.style.SUCCESS(line))
                elif o.code == "duplicate":
                    self.stdout.write(self.style.WARNING(f"SKIP  {o.path}: {o.error}"))
                else:
                    self.stdout.write(self.style.ERROR(f"ERROR {o.path}: {o.error}"))
                for notice in o.notices:
                    self.stdout.write(f"      note: {notice}")
            done = sum(o.ok for o in outcomes)
            self.stdout.write(
                f"{done} of {len(outcomes)} file(s) {'parsed' if dry_run else 'imported'}."
            )
        if any(not o.ok and o.code != "duplicate" for o in outcomes):
            raise SystemExit(1)
