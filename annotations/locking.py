"""Optimistic locking of review actions: parsing posted versions, and group versions.

Every span action carries the span's ``version`` (an integer, bumped by each change);
merge and split carry the versions of what they move. A reference group (``Entity``) has
no counter of its own: its version is a short fingerprint of its mentions' ids and
versions (:func:`group_version`), which changes whenever a mention changes, joins or
leaves the group. Django-free.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping


class VersionError(ValueError):
    """A posted version is missing or malformed (the message is fit for users)."""


MISSING = "This action needs the version of the span you saw (reload the page and try again)."


def parse_version(value: object) -> int:
    """The posted ``version`` as a positive integer, or :class:`VersionError`."""
    text = str(value).strip() if value is not None else ""
    if not text:
        raise VersionError(MISSING)
    if not text.isdigit() or int(text) < 1:
        raise VersionError(f"“{text[:20]}” is not a span version; reload the page and try again.")
    return int(text)


def group_version(members: Iterable[tuple[int, int]]) -> str:
    """The version of a reference group: a fingerprint of its ``(span id, version)`` pairs."""
    pairs = ",".join(f"{span_id}:{version}" for span_id, version in sorted(members))
    return hashlib.sha256(pairs.encode()).hexdigest()[:16]


def group_versions(rows: Iterable) -> dict[int, str]:
    """``{entity id: group version}`` from rows with ``id``, ``version`` and ``entity_id``."""
    members: dict[int, list[tuple[int, int]]] = {}
    for row in rows:
        if row.entity_id is not None:
            members.setdefault(row.entity_id, []).append((row.id, row.version))
    return {entity_id: group_version(pairs) for entity_id, pairs in members.items()}


def parse_group_versions(values: Iterable[str], *, required: Iterable[str]) -> dict[str, str]:
    """``{ref: version}`` from posted ``REF:VERSION`` items; every ``required`` ref must
    be there, else :class:`VersionError`."""
    out: dict[str, str] = {}
    for value in values:
        ref, sep, version = str(value).rpartition(":")
        if sep and ref and version.isalnum():
            out[ref] = version
    missing = [ref for ref in required if ref and ref not in out]
    if missing:
        raise VersionError(
            f"This action needs the version of group {missing[0]} as you saw it "
            "(reload the page and try again)."
        )
    return out


def stale(expected: Mapping[str, str], current: Mapping[str, str]) -> list[str]:
    """The refs whose posted version differs from the current one."""
    return [ref for ref, version in expected.items() if current.get(ref) != version]
