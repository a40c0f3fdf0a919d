"""Transcripts, their utterances, and background jobs.

Offsets everywhere are character offsets into ``Transcript.text`` (the canonical
text), end exclusive. The canonical text never changes after import.
"""

from django.conf import settings
from django.db import models
from django.db.models.signals import post_delete
from django.dispatch import receiver

from anonreview import roles
from transcripts.storage import originals_storage


class TranscriptQuerySet(models.QuerySet):
    def visible_to(self, user) -> "TranscriptQuerySet":
        """Leads and admins see every transcript; annotators only those assigned to them.

        The role is needed as well as the assignment: someone removed from the
        ``annotator`` group (or never in a role) sees nothing, assigned or not."""
        if not getattr(user, "is_authenticated", False) or not getattr(user, "is_active", False):
            return self.none()
        if roles.is_lead(user):
            return self
        if not roles.is_annotator(user):
            return self.none()
        return self.filter(assignees=user).distinct()


class Transcript(models.Model):
    class State(models.TextChoices):
        IMPORTED = "imported", "Imported"
        ANNOTATING = "annotating", "Annotating"
        READY = "ready", "Ready for review"
        IN_REVIEW = "in_review", "In review"
        SUBMITTED = "submitted", "Submitted"
        APPROVED = "approved", "Approved"
        RELEASED = "released", "Released"
        RETURNED = "returned", "Returned"
        FAILED = "failed", "Failed"

    class Format(models.TextChoices):
        PDF = "pdf", "PDF"
        TEXT = "txt", "Text"

    title = models.CharField(max_length=255)
    text = models.TextField(help_text="Canonical text; immutable after import.")
    metadata = models.JSONField(default=dict, blank=True, help_text="Cover-page metadata.")
    source_format = models.CharField(max_length=8, choices=Format.choices, default=Format.TEXT)
    original_name = models.CharField(max_length=255, blank=True)
    original_file = models.FileField(upload_to="originals/", blank=True, storage=originals_storage)
    sha256 = models.CharField(max_length=64, unique=True)
    page_count = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=16, choices=State.choices, default=State.IMPORTED)
    state_reason = models.TextField(blank=True, help_text="Why it failed or was returned.")
    assignees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="assigned_transcripts"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="imported_transcripts",
    )
    version = models.PositiveIntegerField(default=1)
    # Double annotation (transcripts/services/assignment.py): the second annotator works
    # on a copy of the transcript (same text, the machine's suggestions) that points back
    # to the original; copies are compared for agreement and never approved or released.
    double_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="double_annotations",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = TranscriptQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Transcript {self.pk}"

    def excerpt(self, start: int, end: int) -> str:
        return self.text[start:end]


class Utterance(models.Model):
    class Section(models.TextChoices):
        BODY = "body", "Hearing"
        CERTIFICATION = "certification", "Certification"

    transcript = models.ForeignKey(Transcript, on_delete=models.CASCADE, related_name="utterances")
    index = models.PositiveIntegerField()
    speaker = models.CharField(max_length=255, blank=True)
    role = models.CharField(max_length=64, blank=True)
    page = models.PositiveIntegerField(default=0)
    section = models.CharField(max_length=16, choices=Section.choices, default=Section.BODY)
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()

    class Meta:
        ordering = ["transcript", "index"]
        constraints = [
            models.UniqueConstraint(fields=["transcript", "index"], name="utterance_unique_index"),
        ]
        indexes = [models.Index(fields=["transcript", "page"])]

    def __str__(self) -> str:
        return f"Utterance {self.index} of transcript {self.transcript_id}"

    @property
    def text(self) -> str:
        return self.transcript.text[self.start : self.end]


class Job(models.Model):
    """A background job the UI can show: kind, status, progress and errors in words.

    Tasks update their Job through ``transcripts.services.jobs``; the pages poll it with htmx.
    """

    class Kind(models.TextChoices):
        IMPORT = "import", "Import"
        ANNOTATE = "annotate", "Annotation"
        EVALUATE = "evaluate", "Evaluation"
        TRAIN = "train", "Training"
        EXPORT = "export", "Export"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        # Cancelled by a lead (the Cancel button): its work stops at its next check
        # (transcripts.services.jobs.JobReporter, docs/workers.md).
        CANCELLED = "cancelled", "Cancelled"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="0-100")
    message = models.CharField(max_length=255, blank=True)
    error = models.TextField(blank=True)
    result = models.JSONField(default=dict, blank=True)
    transcript = models.ForeignKey(
        Transcript, null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    task_result_id = models.CharField(max_length=64, blank=True)
    # An upload of several files is one batch Job (the page shows it) with one import
    # Job per file under it, so that every worker can take a file.
    batch = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="batch_jobs"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # The liveness key (``core.WorkerProcess.key``) of the worker process running the
    # job; "" when it runs in the process that queued it (``annotate --sync``, tests).
    worker = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} job {self.pk} ({self.status})"

    @property
    def is_active(self) -> bool:
        return self.status in {self.Status.QUEUED, self.Status.RUNNING}


class StagedUpload(models.Model):
    """An uploaded file waiting for its import job.

    The upload request streams the file to ``UPLOAD_STAGING_DIR`` (``path``, relative
    to it) and answers at once; the worker reads it from there (held in memory
    and written into the database inside the request, a 180 MB zip timed out at 1.7 GB).
    Workers on other machines mount the same directory. ``data`` holds the bytes of
    rows staged before (read if ``path`` is empty). Rows and their files are deleted
    when the job ends, whether it succeeded or failed (deleting a row removes its file).
    """

    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="staged_uploads")
    index = models.PositiveIntegerField()
    original_name = models.CharField(max_length=255)
    data = models.BinaryField(blank=True, default=b"")
    path = models.CharField(max_length=255, blank=True)
    size = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="staged_upload_job_index")
        ]

    def __str__(self) -> str:
        return f"staged upload {self.index} of job {self.job_id}"

    def read(self) -> bytes:
        """The staged bytes (from the staging directory, or the row itself)."""
        if self.path:
            from transcripts.storage import staging_path

            return staging_path(self.path).read_bytes()
        return bytes(self.data)


@receiver(post_delete, sender=StagedUpload)
def _staged_file_delete(sender, instance: StagedUpload, **kwargs) -> None:
    """Deleting a staged row (the job ended, the sweep, a cascade) removes its file."""
    if instance.path:
        from transcripts.storage import staging_path

        staging_path(instance.path).unlink(missing_ok=True)


class StoredFile(models.Model):
    """A file kept in the database by :class:`transcripts.storage.DatabaseStorage`.

    Originals of imported transcripts live here by default, so that the worker that
    imports a file and the web process (or another worker) share it through the database
    alone, and an import that fails rolls its original back with everything else.
    """

    name = models.CharField(max_length=255, unique=True)
    data = models.BinaryField()
    size = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name
