"""Roles are Django groups: ``annotator``, ``lead`` and ``admin``.

Superusers count as admins. Leads and admins see every transcript; annotators
see only those assigned to them (``Transcript.objects.visible_to``).
"""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

ANNOTATOR = "annotator"
LEAD = "lead"
ADMIN = "admin"
ROLES = (ANNOTATOR, LEAD, ADMIN)


def _groups(user: AbstractBaseUser | AnonymousUser) -> set[str]:
    if not getattr(user, "is_authenticated", False):
        return set()
    cached = getattr(user, "_anonreview_groups", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True))
        user._anonreview_groups = cached
    return cached


def is_admin(user) -> bool:
    return bool(getattr(user, "is_superuser", False)) or ADMIN in _groups(user)


def is_lead(user) -> bool:
    """Leads and admins: see all transcripts, approve, download keys."""
    return is_admin(user) or LEAD in _groups(user)


def is_annotator(user) -> bool:
    return ANNOTATOR in _groups(user) or is_lead(user)
