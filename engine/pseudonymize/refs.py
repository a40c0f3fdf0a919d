"""Reference ids (``PERSON_2``, ``ID_1``, ``PRISON_1``) from normalised keys. Django-free.

Counters run per prefix in order of first occurrence. A spelled name is linked to the
PERSON whose key it spells (exactly, or within one edit for names of four letters or
more), also when it comes before the plain name; its ref is ``SPELLED_NAME_<person ref>``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.pseudonymize.keys import edit_distance_at_most_one, entity_key
from engine.pseudonymize.subtypes import SUBTYPES, Classifier, rule_subtype, subtype_of

_REF = re.compile(r"^(?P<prefix>[A-Z_]+?)_(?P<n>\d+)$")

PREFIX = {"CDCR_ID": "ID"}


@dataclass
class RefAssigner:
    """Gives refs to (prefix, key) pairs; feed ``known`` to keep refs across documents."""

    known: dict[tuple[str, str], str] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    classifier: Classifier | None = None

    def __post_init__(self) -> None:
        for ref in list(self.known.values()):
            self.reserve(ref)

    def reserve(self, ref: str) -> None:
        match = _REF.match(ref or "")
        if match:
            prefix, n = match.group("prefix"), int(match.group("n"))
            self.counters[prefix] = max(self.counters.get(prefix, 0), n)

    def ref_for(self, prefix: str, key: str) -> str:
        existing = self.known.get((prefix, key))
        if existing:
            return existing
        n = self.counters.get(prefix, 0) + 1
        self.counters[prefix] = n
        ref = f"{prefix}_{n}"
        self.known[(prefix, key)] = ref
        return ref

    def prefix_for(self, label: str, text: str) -> str:
        cache = self.__dict__.setdefault("_prefix_cache", {})
        key = (label, text)
        if key not in cache:
            cache[key] = subtype_of(label, text, classifier=self.classifier) or PREFIX.get(
                label, label
            )
        return cache[key]


@dataclass(frozen=True, slots=True)
class Keyed:
    """A mention with its key and the prefix/ref it was given."""

    index: int
    label: str
    key: str
    prefix: str
    ref: str


def link_spelled(spelled_key: str, person_keys: Iterable[str]) -> str:
    """The PERSON key a spelled name spells (exact, else one edit away), or itself."""
    keys = list(person_keys)
    if spelled_key in keys:
        return spelled_key
    if len(spelled_key) >= 4:
        close = [k for k in keys if len(k) >= 4 and edit_distance_at_most_one(spelled_key, k)]
        if len(close) == 1:
            return close[0]
    return spelled_key


def assign_refs(
    mentions: list[tuple[int, int, str, str | None, str | None]],
    text: str,
    *,
    assigner: RefAssigner | None = None,
) -> list[Keyed]:
    """Refs for ``mentions`` = ``[(start, end, label, ref or None, key or None)]``.

    Mentions with a ref keep it (and reserve its number); the others get the ref of their
    (prefix, key), new numbers in order of first occurrence. Returns one :class:`Keyed`
    per mention, in the input order.
    """
    assigner = assigner or RefAssigner()
    keys: list[str] = []
    prefixes: list[str] = []
    given = [_REF.match(m[3]) if m[3] else None for m in mentions]
    if assigner.classifier is not None and hasattr(assigner.classifier, "prefetch"):
        # One batch for every mention the rules cannot decide (instead of one call each).
        undecided = {
            (label, text[start:end])
            for (start, end, label, ref, _k) in mentions
            if not ref and label in SUBTYPES and rule_subtype(label, text[start:end]) is None
        }
        assigner.classifier.prefetch(
            [(label, mention, SUBTYPES[label]) for label, mention in sorted(undecided)]
        )
    for (start, end, label, _ref, key), match in zip(mentions, given, strict=True):
        mention = text[start:end]
        keys.append(entity_key(label, key) if key else entity_key(label, mention))
        # A given ref names its prefix; only new mentions need the subtype rules/classifier.
        prefixes.append(match.group("prefix") if match else assigner.prefix_for(label, mention))
    # Given refs first, so that new numbers never collide with them.
    for i, (_s, _e, label, ref, _k) in enumerate(mentions):
        if ref:
            assigner.reserve(ref)
            if label == "SPELLED_NAME":
                person_ref = ref.removeprefix("SPELLED_NAME_")
                assigner.reserve(person_ref)
                assigner.known.setdefault(("PERSON", keys[i]), person_ref)
            else:
                assigner.known.setdefault((prefixes[i], keys[i]), ref)
    person_keys = {keys[i] for i, m in enumerate(mentions) if m[2] == "PERSON"}
    person_keys |= {k for (p, k) in assigner.known if p == "PERSON"}
    order = sorted(range(len(mentions)), key=lambda i: (mentions[i][0], mentions[i][1]))
    out: dict[int, Keyed] = {}
    for i in order:
        _s, _e, label, ref, _k = mentions[i]
        key = keys[i]
        if label == "SPELLED_NAME":
            key = link_spelled(key, person_keys)
            person_ref = assigner.ref_for("PERSON", key)
            out[i] = Keyed(i, label, key, "SPELLED_NAME", ref or f"SPELLED_NAME_{person_ref}")
            continue
        prefix = prefixes[i]
        out[i] = Keyed(i, label, key, prefix, ref or assigner.ref_for(prefix, key))
    return [out[i] for i in range(len(mentions))]
