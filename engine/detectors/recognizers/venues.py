"""Hotels, venues and meeting places.

A hotel or a venue where people met says where they were: the schema makes it an
ORGANIZATION (a company: ``engine.pseudonymize.subtypes`` reads hotel, inn, diner...),
and a street named alone after it (``the Hilton on Fifth``) a LOCATION.

* a venue by its kind after its name (``the Gioberti Tavern``, ``the Oakwood Inn``);
* a hotel chain's name after ``the`` (``at the Marriott``, ``the Hilton on Fifth``): the
  chains are general knowledge; without ``the`` the word is a person or a brand
  (``Paris Hilton``, ``Marriott's shares``).

Django-free.
"""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import RegexRecognizer, _c

_CHAINS = (
    r"Hilton|Marriott|Hyatt|Sheraton|Radisson|Westin|Holiday Inn(?: Express)?|Ritz(?:-Carlton)?|"
    r"Four Seasons|Best Western|Days Inn|Travelodge|Premier Inn|Novotel|Ibis|DoubleTree|"
    r"Doubletree|Hampton Inn|Comfort Inn|Embassy Suites|Crowne Plaza|InterContinental|"
    r"Intercontinental|Motel 6|Super 8|La Quinta|Red Roof Inn|Wyndham|Savoy|Dorchester|"
    r"Waldorf(?:-Astoria| Astoria)?|Fairmont"
)
_VENUE_HEADS = (
    r"Hotel|Motel|Inn|Lodge|Tavern|Diner|Café|Cafe|Coffee House|Restaurant|Grill|Bar & Grill|"
    r"Pub|Arms|Suites|Resort|Casino|Banquet Hall|Social Club|Country Club|Golf Club"
)
# a name of one to three capitalised words before the head ("Gioberti Tavern", "Red Lion
# Arms"); a sentence's first word or "The" is no part of it (``accept``)
_VENUE = _c(rf"(?<![\w'’-])(?P<span>(?:[A-Z][\w'’&-]*[ ]){{1,3}}(?:{_VENUE_HEADS}))(?![\w-])")
_CHAIN = _c(rf"\b(?i:the)[ ](?P<span>(?:{_CHAINS})(?:[ ](?:Hotel|Suites|Inn|Resort))?)(?![\w'’-])")
_NOT_VENUE_START = frozenset(
    "The A An This That My His Her Our Their Your Then And But So Old New".split()
)


class VenueRecognizer(RegexRecognizer):
    """``the Gioberti Tavern``, ``at the Marriott``, ``the Holiday Inn`` (ORGANIZATION)."""

    ENTITY = "ORGANIZATION"
    PATTERNS = (("venue", _VENUE, 0.85), ("hotel-chain", _CHAIN, 0.85))

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        if name == "hotel-chain":
            return True
        words = match.group("span").split(" ")
        return words[0] not in _NOT_VENUE_START or len(words) > 2


_ORDINAL_STREET = (
    r"First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth"
)
# a street named alone after a venue: "the Hilton on Fifth", "the Oakwood Inn on Grand"
_VENUE_STREET = _c(
    rf"(?:{_CHAINS}|{_VENUE_HEADS})[ ](?:on|off)[ ](?P<span>(?:{_ORDINAL_STREET}|[A-Z][a-z]+)"
    r"(?:[ ](?:Street|Avenue|St\.|Ave\.|Road|Boulevard))?)(?![\w'’-])"
)
# an ordinal after a venue is a street whatever a model reads ("the Westin on Eighth"); a
# capitalised word there only votes ("on Broadway", but also "on Christmas")
_VENUE_ORDINAL_STREET = _c(
    rf"(?:{_CHAINS}|{_VENUE_HEADS})[ ](?:on|off)[ ](?P<span>(?:{_ORDINAL_STREET})"
    r"(?:[ ](?:Street|Avenue|St\.|Ave\.|Road|Boulevard))?)(?![\w'’-])"
)


class VenueStreetRecognizer(RegexRecognizer):
    """A street named alone after a venue (``the Hilton on Fifth``): LOCATION."""

    ENTITY = "LOCATION"
    PATTERNS = (
        ("venue-street", _VENUE_STREET, 0.8),
        ("venue-ordinal-street", _VENUE_ORDINAL_STREET, 0.88),
    )

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        from engine import vocab

        word = match.group("span").split(" ")[0]
        return word not in vocab.WEEKDAYS and word not in vocab.MONTHS  # "on Monday"
