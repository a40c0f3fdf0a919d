"""The hearing recognizers, one module per label family (like Presidio's
``predefined_recognizers``): ``ids``, ``spelled``, ``measures``, ``dates``, ``locations``,
``organizations``, ``persons``, ``nrp``, ``name_shapes``, ``venues``. Django-free; imports
neither Presidio nor spaCy.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.detectors.recognizers.base import Found, RegexRecognizer
from engine.detectors.recognizers.dates import HearingDateRecognizer, HearingTimeRecognizer
from engine.detectors.recognizers.ids import CdcrIdRecognizer, LinkRecognizer, OtherIdRecognizer
from engine.detectors.recognizers.locations import (
    AddressRecognizer,
    CountyRecognizer,
    PlaceRecognizer,
    is_known_place,
)
from engine.detectors.recognizers.measures import AgeRecognizer, HeightRecognizer
from engine.detectors.recognizers.name_shapes import NameShapeRecognizer
from engine.detectors.recognizers.nrp import NrpRecognizer
from engine.detectors.recognizers.organizations import OrganizationRecognizer
from engine.detectors.recognizers.persons import (
    PartyNameRecognizer,
    PersonContextRecognizer,
    SpeakerTagRecognizer,
)
from engine.detectors.recognizers.spelled import (
    SpelledNameRecognizer,
    SpelledOutItemRecognizer,
)
from engine.detectors.recognizers.venues import VenueRecognizer, VenueStreetRecognizer

HEARING_RECOGNIZERS: tuple[type[RegexRecognizer], ...] = (
    SpelledNameRecognizer,
    SpelledOutItemRecognizer,
    CdcrIdRecognizer,
    OtherIdRecognizer,
    HeightRecognizer,
    AgeRecognizer,
    HearingDateRecognizer,
    HearingTimeRecognizer,
    AddressRecognizer,
    OrganizationRecognizer,
    PlaceRecognizer,
    CountyRecognizer,
    PersonContextRecognizer,
    SpeakerTagRecognizer,
    PartyNameRecognizer,
    NrpRecognizer,
    NameShapeRecognizer,
    VenueRecognizer,
    VenueStreetRecognizer,
    LinkRecognizer,
)


def find_hearing_entities(
    text: str, recognizers: Iterable[RegexRecognizer] | None = None
) -> list[Found]:
    """Run the hearing recognizers without Presidio (tests, quick checks)."""
    recognizers = recognizers or [cls() for cls in HEARING_RECOGNIZERS]
    found: list[Found] = []
    for recognizer in recognizers:
        found.extend(recognizer.find_all(text))
    return sorted(found, key=lambda f: (f.start, f.end, f.label))


__all__ = [
    "HEARING_RECOGNIZERS",
    "AddressRecognizer",
    "AgeRecognizer",
    "CdcrIdRecognizer",
    "CountyRecognizer",
    "Found",
    "HearingDateRecognizer",
    "HearingTimeRecognizer",
    "HeightRecognizer",
    "LinkRecognizer",
    "NameShapeRecognizer",
    "NrpRecognizer",
    "OtherIdRecognizer",
    "OrganizationRecognizer",
    "PartyNameRecognizer",
    "PersonContextRecognizer",
    "PlaceRecognizer",
    "RegexRecognizer",
    "SpelledNameRecognizer",
    "SpeakerTagRecognizer",
    "SpelledOutItemRecognizer",
    "VenueRecognizer",
    "VenueStreetRecognizer",
    "find_hearing_entities",
    "is_known_place",
]
