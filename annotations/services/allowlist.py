"""The allow-list: domain terms that are never personal data (kept as data, edited by leads).

A term hides nothing in a transcript that gives a name it holds (``Moreno was`` in Mr.
Moreno's hearing; ``engine.detectors.given.is_given_name_term``). Adding a term is also a
review action on every transcript in review whose text holds it
(:data:`IN_REVIEW_STATES`): it changes what that transcript's leak check reports, so the
lead who added it cannot approve that transcript (the four-eyes rule,
``annotations.services.workflow.approval_refusal``; audit rows
``allowlist.in_review``, one per such transcript)."""

import re

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from annotations.models import AllowListTerm
from anonreview import roles
from anonreview.core.audit import audit_record
from engine.detectors.allow import normalise_term
from transcripts.models import Transcript

S = Transcript.State
# From the end of the automatic annotation to the approval: assigned and ready, in review,
# submitted, or returned for another look.
IN_REVIEW_STATES = frozenset({S.READY, S.IN_REVIEW, S.SUBMITTED, S.RETURNED})
IN_REVIEW_EVENT = "allowlist.in_review"


def allowlist_terms() -> list[str]:
    """Selector: every allow-listed term (what the detection engine is given)."""
    return list(AllowListTerm.objects.order_by("term").values_list("term", flat=True))


# The migrations that seed the allow-list; their TERMS are the default allow-list.
_SEED_MIGRATIONS = ("0003_allowlist_seed", "0004_allowlist_hearing_terms")


def default_allowlist_terms() -> list[str]:
    """The allow-list a fresh database starts with (the seed migrations' terms)."""
    import importlib

    terms: set[str] = set()
    for name in _SEED_MIGRATIONS:
        module = importlib.import_module(f"annotations.migrations.{name}")
        terms.update(term for term, _note in module.TERMS)
    return sorted(terms)


def allowlist_terms_or_default() -> tuple[list[str], bool]:
    """(terms, from_database): the database's allow-list, or the default one when the
    database was never migrated (headless runs such as ``anonymize``)."""
    from django.db import DatabaseError

    try:
        return allowlist_terms(), True
    except DatabaseError:
        return default_allowlist_terms(), False


def _require_lead(user) -> None:
    if not roles.is_lead(user):
        raise PermissionDenied("Only leads may change the allow-list.")


@transaction.atomic
def allowlist_term_add(*, term: str, user, note: str = "") -> AllowListTerm:
    """Add ``term`` (whitespace collapsed); a term already there (any case) is an error."""
    _require_lead(user)
    cleaned = " ".join(term.split())
    if len(cleaned) < 2:
        raise ValidationError("A term needs at least two characters.")
    if len(cleaned) > 255:
        raise ValidationError("A term may have at most 255 characters.")
    existing = {normalise_term(t) for t in allowlist_terms()}
    if normalise_term(cleaned) in existing:
        raise ValidationError("This term is already on the allow-list.")
    item = AllowListTerm.objects.create(term=cleaned, note=note.strip()[:255], created_by=user)
    audit_record(actor=user, event_type="allowlist.add", after={"term": cleaned})
    for transcript in transcripts_holding(cleaned):
        # The term's id only: the term itself may be part of a name ("Moreno was").
        audit_record(
            actor=user,
            event_type=IN_REVIEW_EVENT,
            transcript=transcript,
            after={"term_id": item.pk},
        )
    return item


def _term_regex(term: str) -> re.Pattern:
    """Where ``term`` occurs as the allow-list matches it: whole words, any case, any
    whitespace between its words, a possessive or plural ``s`` after it."""
    words = r"\s+".join(re.escape(w) for w in term.split())
    return re.compile(rf"(?<!\w){words}(?:['’]s|s)?(?!\w)", re.IGNORECASE)


def transcripts_holding(term: str) -> list[Transcript]:
    """Transcripts in review (:data:`IN_REVIEW_STATES`) whose text holds ``term``: the
    database narrows by the term's longest word, a regular expression decides."""
    words = term.split()
    if not words:
        return []
    longest = max(words, key=len)
    regex = _term_regex(term)
    candidates = Transcript.objects.filter(state__in=IN_REVIEW_STATES)
    if longest.isascii():  # SQLite's LIKE folds the case of ASCII letters only
        candidates = candidates.filter(text__icontains=longest)
    candidates = candidates.only("pk", "text").order_by("pk")
    return [t for t in candidates.iterator(chunk_size=20) if regex.search(t.text)]


@transaction.atomic
def allowlist_term_delete(*, term_id: int, user) -> None:
    _require_lead(user)
    item = AllowListTerm.objects.select_for_update().get(pk=term_id)
    audit_record(actor=user, event_type="allowlist.delete", before={"term": item.term})
    item.delete()
