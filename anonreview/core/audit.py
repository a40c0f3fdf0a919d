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
    is_user = actor is not None and getattr(actor, "is_authenticated", False)
    return AuditEvent.objects.create(
        actor=actor if is_user else None,
        actor_username=actor.get_username() if is_user else "system",
        event_type=event_type,
        transcript=transcript,
        span=span,
        before=before or {},
        after=after or {},
    )
