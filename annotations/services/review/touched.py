"""What a review action changed, reported by the services themselves.

Every review service writes its audit event through one helper (``snapshots._record``,
or ``touched_add`` for the flag and undo events), which also reports the same
before/after snapshots here. A caller that needs to know what to redraw wraps its call in
``review_touched()`` and reads the collected ``Touched``: no audit-log query, and only this
call's changes (a concurrent user's actions are not mixed in).

The collector is per context (``contextvars``), so nested or concurrent requests never
share one. An action that fails rolls back; its caller discards the collector (nothing
was changed).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass
class Touched:
    """The spans an action touched (ids, start offsets, labels) and the groups it touched
    or created: what the review view redraws. ``states`` holds, per span, every
    ``(start, end, label, status)`` its snapshots showed, and ``existed`` the spans that
    were there before the action: such a span whose extent never changed can be redrawn
    alone instead of its whole line (a new or recreated one has no element to replace)."""

    spans: set[int] = field(default_factory=set)
    offsets: set[int] = field(default_factory=set)
    entities: set[int] = field(default_factory=set)
    labels: set[str] = field(default_factory=set)
    states: dict[int, set[tuple[int, int, str, str]]] = field(default_factory=dict)
    existed: set[int] = field(default_factory=set)  # spans in a ``before`` side

    def add_snapshot(self, snap: dict) -> None:
        self.spans.add(snap["id"])
        self.states.setdefault(snap["id"], set()).add(
            (snap["start"], snap["end"], snap["label"], snap.get("status", ""))
        )
        self.offsets.add(snap["start"])
        self.labels.add(snap["label"])
        if snap.get("entity_id"):
            self.entities.add(snap["entity_id"])

    def add_sides(self, before: dict | None, after: dict | None) -> None:
        """Add an audit event's ``before``/``after`` (span snapshots, created groups,
        removed span ids)."""
        for snap in (before or {}).get("spans", []) or []:
            self.existed.add(snap["id"])
        for side in (before or {}, after or {}):
            for snap in side.get("spans", []) or []:
                self.add_snapshot(snap)
            self.entities.update(side.get("created_entities", []) or [])
            self.spans.update(side.get("removed", []) or [])


_current: ContextVar[Touched | None] = ContextVar("review_touched", default=None)


@contextmanager
def review_touched() -> Iterator[Touched]:
    """Collect what the review services called inside the block touched."""
    touched = Touched()
    token = _current.set(touched)
    try:
        yield touched
    finally:
        _current.reset(token)


def touched_add(before: dict | None, after: dict | None) -> None:
    """Report one recorded action's before/after to the active collector, if any."""
    touched = _current.get()
    if touched is not None:
        touched.add_sides(before, after)
