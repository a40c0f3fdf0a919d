"""Give a transcript to a second annotator for agreement (double annotation).

    python manage.py double_annotate 42 --to annotator2 [--by lead]

Calls the same service as the assignment form (``transcripts.services.assignment
.transcript_assign``): the transcript keeps its first annotator and the second gets a copy
with the machine's suggestions (docs/workflow.md, "Double annotation"). Refuses in a
sentence what the form refuses (a transcript already submitted, the same annotator twice,
someone who is not an annotator, an actor who is not a lead).
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from transcripts.models import Transcript
from transcripts.services.assignment import AssignmentError, transcript_assign


class Command(BaseCommand):
    help = "Give a transcript to a second annotator (a copy for agreement)."

    def add_arguments(self, parser):
        parser.add_argument("transcript", type=int, help="the transcript's id")
        parser.add_argument("--to", required=True, help="the second annotator's username")
        parser.add_argument("--by", default="lead", help="the lead who assigns (default: lead)")

    def handle(self, *args, **options):
        users = get_user_model().objects
        transcript = Transcript.objects.filter(pk=options["transcript"]).first()
        if transcript is None:
            raise CommandError(f"There is no transcript {options['transcript']}.")
        second = users.filter(username=options["to"]).first()
        if second is None:
            raise CommandError(f"There is no user {options['to']!r}.")
        lead = users.filter(username=options["by"]).first()
        if lead is None:
            raise CommandError(f"There is no user {options['by']!r} (--by names the lead).")
        first = transcript.assignees.order_by("pk").first()
        if first is None:
            raise CommandError(
                "The transcript has no first annotator yet: assign one on its page first."
            )
        if first.pk == second.pk:
            raise CommandError(
                f"{second.get_username()} is its first annotator: double annotation needs "
                "two different annotators."
            )
        had = Transcript.objects.filter(double_of=transcript, assignees=second).first()
        if had is not None:
            raise CommandError(f"{second.get_username()} already reviews copy {had.pk}.")
        try:
            transcript_assign(transcript=transcript, annotators=[first, second], actor=lead)
        except AssignmentError as exc:
            raise CommandError(str(exc)) from exc
        copy = Transcript.objects.get(double_of=transcript, assignees=second)
        self.stdout.write(
            self.style.SUCCESS(
                f"Transcript {transcript.pk}: {first.get_username()} keeps it; "
                f"{second.get_username()} reviews copy {copy.pk} for agreement."
            )
        )
