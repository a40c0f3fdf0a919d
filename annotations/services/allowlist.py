"""The allow-list: domain terms that are never personal data (kept as data, edited by leads)."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from annotations.models import AllowListTerm
from anonreview import roles
from anonreview.core.audit import audit_record
from engine.detectors.clean import normalise_term


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
    return item


@transaction.atomic
def allowlist_term_delete(*, term_id: int, user) -> None:
    _require_lead(user)
    item = AllowListTerm.objects.select_for_update().get(pk=term_id)
    audit_record(actor=user, event_type="allowlist.delete", before={"term": item.term})
    item.delete()
