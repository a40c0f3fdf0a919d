"""The migration that makes carried rejections proposals: a row the earlier annotation
rejected by itself (a carried decision, no reviewer) in a transcript not yet approved is
undecided again; a reviewer's rejection and approved history stay as they are."""

import importlib

import pytest
from django.apps import apps

from annotations.models import Span
from tests.factories import make_suggestion, make_transcript
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db

CARRIED = {"detector": "carried", "decision": "reject", "why": "rejected in 2 approved hearings"}


def rejected(t, *, carried: bool, reviewer=None) -> Span:
    span = make_suggestion(t, 7, 12, "PERSON", status="rejected")
    span.provenance = [*span.provenance, CARRIED] if carried else span.provenance
    span.reviewer = reviewer
    span.save(update_fields=["provenance", "reviewer"])
    return span


def test_carried_rejections_nobody_decided_become_undecided_before_approval(annotator):
    migration = importlib.import_module(
        "annotations.migrations.0012_carried_rejections_become_proposals"
    )
    in_review = make_transcript("QUILL: Camry.", state=Transcript.State.IN_REVIEW)
    approved = make_transcript("QUILL: Camry.", state=Transcript.State.APPROVED)
    own = make_transcript("QUILL: Camry.", state=Transcript.State.IN_REVIEW)
    plain = make_transcript("QUILL: Camry.", state=Transcript.State.IN_REVIEW)
    spans = [
        rejected(in_review, carried=True),
        rejected(approved, carried=True),
        rejected(own, carried=True, reviewer=annotator),
        rejected(plain, carried=False),
    ]
    migration.forwards(apps, None)
    statuses = [Span.objects.get(pk=s.pk).status for s in spans]
    assert statuses == ["suggested", "rejected", "rejected", "rejected"]
