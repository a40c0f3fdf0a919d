"""The one way to write an AuditEvent; call it inside the service's transaction."""

from anonreview.core.models import AuditEvent


def audit_record(
    *,
    actor,
    event_type: str,
    transcript=None,
    span=None,
    before: dict | None = None,
    after: dict | None = None,
) -> AuditEvent:
    """``actor``: a user, ``None`` (the system), or a name (``str``) for someone outside
    the app — the operating-system user who ran a command (``os:NAME``)."""
    is_user = actor is not None and getattr(actor, "is_authenticated", False)
    if is_user:
        username = actor.get_username()
    else:
        username = actor[:150] if isinstance(actor, str) and actor else "system"
    return AuditEvent.objects.create(
        actor=actor if is_user else None,
        actor_username=username,
        event_type=event_type,
        transcript=transcript,
        span=span,
        before=before or {},
        after=after or {},
    )
