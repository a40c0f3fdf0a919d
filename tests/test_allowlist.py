"""The allow-list: seeded domain terms, lead-only editing, and the engine honouring it."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from annotations.models import AllowListTerm, Span
from annotations.services import allowlist as services
from annotations.services import annotation
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db


def test_migration_seeds_the_domain_terms():
    terms = set(services.allowlist_terms())
    for term in [
        "Board of Parole Hearings",
        "CDCR",
        "Commissioner",
        "Panel",
        "Comprehensive Risk Assessment",
        "Alcoholics Anonymous",
        "Narcotics Anonymous",
        "Marsy's Law",
        "Petition to Advance",
    ]:
        assert term in terms


def test_lead_adds_and_removes_a_term_with_an_audit_row(lead):
    item = services.allowlist_term_add(
        term="  Creative   Writing Class ", user=lead, note="programme"
    )
    assert item.term == "Creative Writing Class"
    assert AuditEvent.objects.filter(event_type="allowlist.add", actor=lead).exists()
    services.allowlist_term_delete(term_id=item.pk, user=lead)
    assert not AllowListTerm.objects.filter(pk=item.pk).exists()
    assert AuditEvent.objects.filter(event_type="allowlist.delete").exists()


def test_duplicates_in_any_case_and_empty_terms_are_refused(lead):
    with pytest.raises(ValidationError):
        services.allowlist_term_add(term="board of parole hearings", user=lead)
    with pytest.raises(ValidationError):
        services.allowlist_term_add(term=" ", user=lead)


def test_annotators_cannot_edit(annotator):
    with pytest.raises(PermissionDenied):
        services.allowlist_term_add(term="Facility C", user=annotator)


def test_page_lists_terms_and_leads_add_with_htmx(client, lead):
    client.force_login(lead)
    page = client.get(reverse("annotations:allowlist"))
    assert page.status_code == 200
    assert b"Board of Parole Hearings" in page.content
    assert b'id="allowlist-add"' in page.content
    partial = client.post(
        reverse("annotations:allowlist"), {"term": "Victim Impact Class"}, HTTP_HX_REQUEST="true"
    )
    assert partial.status_code == 200
    assert b"Victim Impact Class" in partial.content
    assert b"<html" not in partial.content  # only the partial
    dup = client.post(
        reverse("annotations:allowlist"), {"term": "victim impact class"}, HTTP_HX_REQUEST="true"
    )
    assert dup.status_code == 422 and b"already" in dup.content
    item = AllowListTerm.objects.get(term="Victim Impact Class")
    gone = client.post(reverse("annotations:allowlist-delete", args=[item.pk]))
    assert gone.status_code == 302
    assert not AllowListTerm.objects.filter(pk=item.pk).exists()


def test_annotators_see_the_list_but_cannot_post(client, annotator):
    client.force_login(annotator)
    page = client.get(reverse("annotations:allowlist"))
    assert page.status_code == 200 and b'id="allowlist-add"' not in page.content
    assert client.post(reverse("annotations:allowlist"), {"term": "Facility C"}).status_code == 403


def test_the_engine_reads_the_allow_list_from_the_database(settings, lead):
    settings.DETECTORS = [{"NAME": "engine.detectors.cover.CoverPageDetector"}]
    text = "ALDEN: Welcome to Wasco State Prison.\n"
    meta = {"institution": "Wasco State Prison", "participants": [{"name": "Ann Alden"}]}
    transcript = make_transcript(text, state=Transcript.State.IMPORTED, metadata=meta)
    annotation.transcript_annotate(transcript=transcript)
    assert Span.objects.filter(transcript=transcript, label="ORGANIZATION").exists()

    services.allowlist_term_add(term="Wasco State Prison", user=lead)
    annotation.transcript_annotate(transcript=transcript)
    labels = set(Span.objects.filter(transcript=transcript).values_list("label", flat=True))
    assert labels == {"PERSON"}


def test_allowlist_falls_back_to_the_default_terms_when_the_table_is_missing(monkeypatch):
    from django.db import OperationalError

    from annotations.models import AllowListTerm
    from annotations.services.allowlist import allowlist_terms_or_default, default_allowlist_terms

    class Missing:
        def order_by(self, *args):
            raise OperationalError("no such table")

    monkeypatch.setattr(AllowListTerm, "objects", Missing())
    terms, from_database = allowlist_terms_or_default()
    assert not from_database
    assert terms == default_allowlist_terms()
    assert "Board of Parole Hearings" in terms


def test_default_allowlist_is_what_a_migrated_database_starts_with(db):
    from annotations.services.allowlist import allowlist_terms_or_default, default_allowlist_terms

    terms, from_database = allowlist_terms_or_default()
    assert from_database
    assert set(default_allowlist_terms()) <= set(terms)
