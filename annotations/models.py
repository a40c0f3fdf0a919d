"""Spans, reference groups (entities), the allow-list and trained models (the audit
log is ``anonreview.core.models.AuditEvent``).

``Span.start``/``Span.end`` are character offsets into ``Transcript.text``,
end exclusive: ``transcript.text[span.start:span.end]`` is the mention.
"""

from django.conf import settings
from django.db import models

from engine.labels import LABELS
from transcripts.models import Transcript

LABEL_CHOICES = [(label, label.replace("_", " ").title()) for label in LABELS]


class Entity(models.Model):
    """A reference group: many mentions, one pseudonym (``PERSON_3``)."""

    transcript = models.ForeignKey(Transcript, on_delete=models.CASCADE, related_name="entities")
    label = models.CharField(max_length=32, choices=LABEL_CHOICES)
    ref = models.CharField(max_length=64, help_text="Reference id, e.g. PERSON_3.")
    key = models.CharField(max_length=255, blank=True, help_text="Normalised original form.")
    pseudonym = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["transcript", "label", "id"]
        verbose_name_plural = "entities"
        constraints = [
            models.UniqueConstraint(fields=["transcript", "ref"], name="entity_unique_ref"),
        ]

    def __str__(self) -> str:
        return self.ref


class Proposal(models.Model):
    """What the machine proposed, as it proposed it: written when the detectors run,
    never edited by the review. ``Span.proposal`` links a suggestion to it; a span the
    reviewer deleted leaves its proposal behind, so the dashboard's Tables 3 and 5 still
    count it (no rebuilding from the audit log)."""

    transcript = models.ForeignKey(Transcript, on_delete=models.CASCADE, related_name="proposals")
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    label = models.CharField(max_length=32, choices=LABEL_CHOICES)
    provenance = models.JSONField(default=list, blank=True)
    score = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["transcript", "start", "end"]
        indexes = [models.Index(fields=["transcript", "start"], name="proposal_transcript_start")]

    def __str__(self) -> str:
        return f"proposed {self.label} [{self.start}:{self.end}]"

    @property
    def shape(self) -> tuple[int, int, str]:
        return (self.start, self.end, self.label)


class Span(models.Model):
    class Status(models.TextChoices):
        SUGGESTED = "suggested", "Suggested"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"
        ADDED = "added", "Added"

    transcript = models.ForeignKey(Transcript, on_delete=models.CASCADE, related_name="spans")
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    label = models.CharField(max_length=32, choices=LABEL_CHOICES)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SUGGESTED)
    provenance = models.JSONField(
        default=list, blank=True, help_text='[{"detector": "spacy", "score": 0.85}, ...]'
    )
    score = models.FloatField(default=0.0)
    entity = models.ForeignKey(
        Entity, null=True, blank=True, on_delete=models.SET_NULL, related_name="spans"
    )
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The machine's proposal this span started as (None: a reviewer made it).
    proposal = models.ForeignKey(
        Proposal, null=True, blank=True, on_delete=models.SET_NULL, related_name="spans"
    )
    version = models.PositiveIntegerField(default=1, help_text="Optimistic locking.")
    flagged = models.BooleanField(
        default=False, help_text="Marked for the lead (a question or a doubt)."
    )
    lead_note = models.TextField(blank=True, default="", help_text="A comment for the lead.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["transcript", "start", "end"]
        indexes = [
            models.Index(fields=["transcript", "start"]),
            models.Index(fields=["transcript", "status"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end__gt=models.F("start")), name="span_nonempty"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} [{self.start}:{self.end}]"

    @property
    def is_decided(self) -> bool:
        return self.status != self.Status.SUGGESTED

    @property
    def counts_as_gold(self) -> bool:
        return self.status in {self.Status.ACCEPTED, self.Status.ADDED}

    @property
    def detectors(self) -> list[str]:
        return [item.get("detector", "") for item in self.provenance or []]


class AllowListTerm(models.Model):
    """A domain term that is never personal data (``Board of Parole Hearings``)."""

    term = models.CharField(max_length=255, unique=True)
    note = models.CharField(max_length=255, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["term"]

    def __str__(self) -> str:
        return self.term


class LeakException(models.Model):
    """ "Not a leak here": one occurrence the leak check reports that a reviewer decided is
    no identifier *at this place*. Per occurrence, never global: it holds the
    place (characters into ``Transcript.text``, end exclusive), never the text; audited
    (``review.not_a_leak``) and shown to the lead on the approval screen."""

    class Reason(models.TextChoices):
        ORDINARY_WORD = "ordinary_word", "Ordinary word here"
        PUBLIC_ROLE = "public_role", "Public role or office"
        PART_OF_WORD = "part_of_word", "Part of another word"
        OTHER = "other", "Other (say why)"

    transcript = models.ForeignKey(
        Transcript, on_delete=models.CASCADE, related_name="leak_exceptions"
    )
    start = models.PositiveIntegerField()
    end = models.PositiveIntegerField()
    reason = models.CharField(max_length=32, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["transcript", "start"]
        constraints = [
            models.UniqueConstraint(
                fields=["transcript", "start", "end"], name="leak_exception_unique_place"
            ),
            models.CheckConstraint(
                condition=models.Q(end__gt=models.F("start")), name="leak_exception_nonempty"
            ),
        ]

    def __str__(self) -> str:
        return f"not a leak [{self.start}:{self.end}] ({self.reason})"


class TrainedModel(models.Model):
    """A detector trained on gold data: the domain model (``kind=domain``, spaCy on the
    CPU, ``engine.learning.domain``; retrained by the learning loop, at most one
    ``active``, which the ensemble reads) or a transformer (``engine.learning.train``).

    ``path`` is the model directory (transformers files + ``training.json``);
    ``metrics`` holds the best epoch's held-out figures (``evaluate`` shape:
    ``{"overall": {"exact": {...}, "token": {...}}, "labels": {...}}``).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        TRAINING = "training", "Training"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    class Kind(models.TextChoices):
        TRANSFORMER = "transformer", "Transformer (GPU recipe)"
        DOMAIN = "domain", "Domain model (spaCy, CPU)"

    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    path = models.CharField(max_length=500)
    base_model = models.CharField(max_length=500, blank=True)
    source = models.CharField(max_length=32, help_text="approved transcripts or a gold file")
    labels = models.JSONField(default=list, blank=True)
    train_documents = models.PositiveIntegerField(default=0)
    heldout_documents = models.PositiveIntegerField(default=0)
    epochs = models.PositiveSmallIntegerField(default=3)
    best_epoch = models.PositiveSmallIntegerField(default=0)
    seed = models.IntegerField(default=13)
    metrics = models.JSONField(default=dict, blank=True)
    history = models.JSONField(default=list, blank=True)
    training_seconds = models.FloatField(null=True, blank=True)
    error = models.TextField(blank=True)
    job = models.ForeignKey(
        "transcripts.Job", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    trained_at = models.DateTimeField(null=True, blank=True)
    # The learning loop: which family, what started it, whether the ensemble
    # reads it now, and how it compared with the model that was active when it finished.
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.TRANSFORMER)
    trigger = models.CharField(max_length=16, blank=True, help_text="button, approvals or command")
    active = models.BooleanField(default=False)
    activated_at = models.DateTimeField(null=True, blank=True)
    baseline = models.JSONField(
        default=dict, blank=True, help_text="the then active model's figures on the same gold"
    )
    decision = models.CharField(max_length=600, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["active"],
                condition=models.Q(active=True),
                name="trained_model_one_active",
            ),
            # One training at a time across every worker and command: at most one row
            # queued or training (an index on a constant, partial on those states; both
            # SQLite and PostgreSQL refuse the second insert, whatever the race).
            models.UniqueConstraint(
                models.Value(1),
                condition=models.Q(status__in=["queued", "training"]),
                name="trained_model_one_training",
            ),
        ]

    def __str__(self) -> str:
        return f"Trained model {self.pk} ({self.status})"

    @property
    def f1(self) -> float | None:
        """Held-out exact-span micro F1 of the best epoch."""
        try:
            return float(self.metrics["overall"]["exact"]["f1"])
        except (KeyError, TypeError):
            return None
