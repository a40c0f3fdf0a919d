"""Load the synthetic demo hearings (idempotent).

Generates a few synthetic hearing PDFs with the project's generator
(``engine.synthetic``), imports them assigned to the demo annotator
(``create_demo_accounts``) and queues their automatic annotation. Running it
again imports nothing new: a demo hearing is recognised by its file name
(``synthetic-demo-<seed>.pdf``) and, failing that, by its sha256.

``--reviewed N`` adds N more hearings (``synthetic-demo-reviewed-<seed>.pdf``) that are
annotated here, reviewed by the scripted reviewer that follows the generator's gold
(``annotations.services.scripted_review``; audited as ``review.scripted``), submitted
and approved by the demo lead, so that the dashboard, the exports and training have an
approved transcript to show on a new installation. Their titles say so.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from engine.importing.errors import ImportRejected
from transcripts.models import Transcript
from transcripts.services.importing import transcript_import

DEMO_SEEDS = (101, 102, 103)
DEMO_WORDS = 4000
REVIEWED_SEEDS = (201, 202, 203)
REVIEWED_WORDS = 3000


def reviewed_seeds(count: int) -> list[int]:
    """``count`` distinct seeds for the reviewed demo hearings: 201, 202, 203, then 204,
    205, ... (``--reviewed 10`` makes ten, not three)."""
    return [
        REVIEWED_SEEDS[i] if i < len(REVIEWED_SEEDS) else REVIEWED_SEEDS[-1] + i - 1
        for i in range(count)
    ]


class Command(BaseCommand):
    help = "Import the synthetic demo hearings assigned to the demo annotator (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=len(DEMO_SEEDS), help="How many hearings.")
        parser.add_argument("--words", type=int, default=DEMO_WORDS, help="Words per hearing.")
        parser.add_argument("--assign", default="annotator", help="Assign to this user.")
        parser.add_argument("--no-annotate", action="store_true", help="Do not queue annotation.")
        parser.add_argument(
            "--reviewed",
            type=int,
            default=0,
            help="Also add this many hearings annotated here, reviewed by a script from the "
            "generator's gold and approved by --lead (for the dashboard and exports).",
        )
        parser.add_argument(
            "--lead", default="lead", help="Approve the reviewed ones as this user."
        )

    def handle(self, *args, **options):
        from engine.synthetic import generate_hearing, render_pdf_bytes

        user = get_user_model().objects.filter(username=options["assign"]).first()
        if user is None:
            self.stdout.write(
                self.style.WARNING(
                    f"No user {options['assign']!r} (run create_demo_accounts first); "
                    "importing the demo hearings unassigned."
                )
            )
        seeds = [
            DEMO_SEEDS[i] if i < len(DEMO_SEEDS) else 100 + i + 1 for i in range(options["count"])
        ]
        created = 0
        for seed in seeds:
            name = f"synthetic-demo-{seed}.pdf"
            if Transcript.objects.filter(original_name=name).exists():
                self.stdout.write(f"{name}: already imported")
                continue
            hearing = generate_hearing(seed, words=options["words"])
            try:
                transcript = transcript_import(
                    name=name,
                    data=render_pdf_bytes(hearing),
                    assignees=[user] if user else [],
                    annotate=not options["no_annotate"],
                )
            except ImportRejected as exc:
                self.stdout.write(f"{name}: {exc.message}")
                continue
            created += 1
            note = f"; {transcript.annotation_error}" if transcript.annotation_error else ""
            queued = "annotation queued" if transcript.annotation_job else "annotation not queued"
            self.stdout.write(
                self.style.SUCCESS(
                    f"{name}: imported as transcript {transcript.pk} "
                    f"({transcript.page_count} pages), {queued}{note}"
                )
            )
        self.stdout.write(
            f"Demo hearings: {created} imported, {len(seeds) - created} already there."
        )
        if options["reviewed"]:
            self._reviewed(options["reviewed"], user, options["lead"])

    def _reviewed(self, count: int, annotator, lead_name: str) -> None:
        from annotations.services import workflow
        from annotations.services.annotation import ensemble_build, transcript_annotate
        from annotations.services.scripted_review import transcript_review_from_gold
        from engine.synthetic import generate_hearing, render_pdf_bytes

        lead = get_user_model().objects.filter(username=lead_name).first()
        if annotator is None or lead is None:
            self.stdout.write(
                self.style.WARNING("Reviewed demo hearings need the demo annotator and lead.")
            )
            return
        ensemble = None
        for seed in reviewed_seeds(count):
            name = f"synthetic-demo-reviewed-{seed}.pdf"
            if Transcript.objects.filter(original_name=name).exists():
                self.stdout.write(f"{name}: already imported")
                continue
            if ensemble is None:
                self.stdout.write("Loading the detectors for the reviewed demo hearings...")
                ensemble = ensemble_build()
                ensemble.load()
            hearing = generate_hearing(seed, words=REVIEWED_WORDS)
            try:
                transcript = transcript_import(
                    name=name,
                    data=render_pdf_bytes(hearing),
                    assignees=[annotator],
                    annotate=False,
                )
            except ImportRejected as exc:
                self.stdout.write(f"{name}: {exc.message}")
                continue
            transcript.title = f"{transcript.title} (demo: reviewed by a script from the gold)"
            transcript.save(update_fields=["title"])
            transcript_annotate(transcript=transcript, ensemble=ensemble)
            counts = transcript_review_from_gold(
                transcript=transcript, gold=hearing.gold, annotator=annotator, answer_leaks=True
            )
            try:
                workflow.transcript_approve(transcript=transcript, actor=lead)
                outcome = "approved"
            except workflow.TransitionError as exc:
                outcome = f"left submitted: {exc}"
            self.stdout.write(
                self.style.SUCCESS(
                    f"{name}: transcript {transcript.pk}, scripted review "
                    f"({counts['accepted']} accepted, {counts['rejected']} rejected, "
                    f"{counts['added']} added), {outcome}"
                )
            )
