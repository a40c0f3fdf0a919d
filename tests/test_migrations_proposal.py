"""Migration 0007 stores, once, the machine's proposals that were rebuilt from the audit
log before: the shape before a reviewer's resize, and proposals a reviewer deleted."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from annotations import selectors
from annotations.models import Proposal, Span

BEFORE = [("annotations", "0006_proposal"), ("core", "0001_initial")]
TEXT = "ALDEN: Mr. Quill lives in Fresno.\n"


def snap(pk, start, end, label, status="suggested", detector="spacy"):
    return {
        "id": pk,
        "start": start,
        "end": end,
        "label": label,
        "status": status,
        "provenance": [{"detector": detector, "score": 0.9}],
        "score": 0.9,
    }


@pytest.mark.django_db(transaction=True)
def test_proposals_are_filled_from_the_audit_log_for_existing_spans(django_user_model):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldSpan = old.get_model("annotations", "Span")
    Event = old.get_model("core", "AuditEvent")
    reviewer = old.get_model("auth", "User").objects.create(username="rev")
    t = old.get_model("transcripts", "Transcript").objects.create(
        title="t", text=TEXT, sha256="b" * 64
    )
    machine = [{"detector": "spacy", "score": 0.9}]
    quill = OldSpan.objects.create(  # proposed as "Mr. Quill", resized to "Quill"
        transcript=t, start=11, end=16, label="PERSON", status="accepted", provenance=machine
    )
    Event.objects.create(
        transcript=t,
        actor_id=reviewer.pk,
        event_type="review.resize",
        before={"spans": [snap(quill.pk, 7, 16, "PERSON")]},
        after={"spans": [snap(quill.pk, 11, 16, "PERSON", "accepted")]},
    )
    Event.objects.create(  # "lives" was proposed, then deleted by the reviewer
        transcript=t,
        actor_id=reviewer.pk,
        event_type="review.delete",
        before={"spans": [snap(999, 17, 22, "PERSON")]},
        after={"spans": []},
    )
    OldSpan.objects.create(  # the reviewer's own span: no proposal
        transcript=t,
        start=26,
        end=32,
        label="LOCATION",
        status="added",
        provenance=[{"detector": "human", "score": 1.0}],
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    shapes = sorted(
        Proposal.objects.filter(transcript_id=t.pk).values_list("start", "end", "label")
    )
    assert shapes == [(7, 16, "PERSON"), (17, 22, "PERSON")]
    assert Span.objects.get(pk=quill.pk).proposal.shape == (7, 16, "PERSON")
    assert Span.objects.get(label="LOCATION").proposal is None
    preds = selectors.machine_predictions(t)
    assert [(p.start, p.end) for p in preds] == [(7, 16), (17, 22)]
