"""``python manage.py annotate [TRANSCRIPT_ID... | --all] [--sync]`` (DESIGN.md).

Runs the automatic annotation of transcripts: queued for the workers (``db_worker``),
or in this process with ``--sync``. ``--all`` takes every transcript that is imported
or failed. Named transcripts may also be ready (re-annotation keeps reviewed spans).
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from annotations.services.annotation import transcript_annotate_job
from annotations.services.annotation_queue import annotation_enqueue
from transcripts.models import Job, Transcript
from transcripts.services import jobs

S = Transcript.State
ANNOTATABLE = (S.IMPORTED, S.FAILED, S.READY, S.ANNOTATING)


class Command(BaseCommand):
    help = "Run the automatic annotation (detector ensemble) of transcripts."

    def add_arguments(self, parser):
        parser.add_argument("ids", nargs="*", type=int, metavar="TRANSCRIPT_ID")
        parser.add_argument(
            "--all", action="store_true", help="every imported or failed transcript"
        )
        parser.add_argument("--sync", action="store_true", help="run here instead of queueing")

    def handle(self, *args, ids, all, sync, **options):
        if bool(ids) == bool(all):
            raise CommandError("Give transcript ids or --all (not both).")
        if all:
            transcripts = list(
                Transcript.objects.filter(state__in=[S.IMPORTED, S.FAILED]).order_by("pk")
            )
        else:
            found = {t.pk: t for t in Transcript.objects.filter(pk__in=ids)}
            missing = [i for i in ids if i not in found]
            if missing:
                raise CommandError(f"No transcript with id {', '.join(map(str, missing))}.")
            transcripts = [found[i] for i in ids]
            wrong = [t.pk for t in transcripts if t.state not in ANNOTATABLE]
            if wrong:
                raise CommandError(
                    f"Transcript {', '.join(map(str, wrong))} is in review or later; it cannot be re-annotated."
                )
        failed = 0
        for transcript in transcripts:
            if sync:
                with transaction.atomic():
                    job = jobs.job_create(kind=Job.Kind.ANNOTATE, transcript=transcript)
                transcript_annotate_job(job_id=job.pk, transcript_id=transcript.pk)
                job.refresh_from_db()
                ok = job.status == Job.Status.DONE
                failed += not ok
                line = f"transcript {transcript.pk}: {job.message}"
                if job.error:
                    line += f" ({job.error})"
                self.stdout.write(line if ok else self.style.ERROR(line))
            else:
                job = annotation_enqueue(transcript=transcript)
                self.stdout.write(f"transcript {transcript.pk}: queued (job {job.pk})")
        if not transcripts:
            self.stdout.write("Nothing to annotate.")
        if failed:
            raise CommandError(f"{failed} transcript(s) failed.")
