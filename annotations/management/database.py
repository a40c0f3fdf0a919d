"""Commands that read the database (the allow-list) say so clearly when it is not set up."""

from django.core.management.base import CommandError
from django.db import DatabaseError

NOT_MIGRATED = (
    "The database is not set up (the allow-list lives there): run "
    "`python manage.py migrate` (or `make run`) first."
)


def require_migrated_database() -> None:
    """Raise a ``CommandError`` in words when the tables do not exist yet."""
    from annotations.models import AllowListTerm

    try:
        AllowListTerm.objects.exists()
    except DatabaseError as exc:
        raise CommandError(NOT_MIGRATED) from exc
