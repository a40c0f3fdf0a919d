"""Synthetic parole suitability hearings with gold spans. Django-free.

``generate_hearing(seed)`` is deterministic per seed: one ``random.Random(seed)`` drives the
choices and one seeded Faker instance gives every person's name. Utterances are written as
marked strings (``model.m``) so the gold spans are exact by construction.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence

from faker import Faker

from engine.gold import GoldDoc
from engine.labels import (
    EMAIL_ADDRESS,
    PHONE_NUMBER,
)

from . import hard_cases, layout, model, unseen, vocab
from .marks import D, L, P, Person
from .model import m
from .opening import Opening
from .printed import _index_pages, _split_offsets, _token_at
from .sections import Sections

# 2: the second set of hard cases, ``hard_cases.ROUND_TWO`` (the same seed gives another
# text than version 1)
GENERATOR_VERSION = 2

# Hard cases a hearing of the default size always contains (``SyntheticHearing.hard_cases``).
HARD_CASES: tuple[str, ...] = (
    "spelled_name",
    "spelled_name_split",  # filled from the layout: a spelled name printed across two lines
    "phonetic_spelling",
    "cdcr_id_plain",
    "cdcr_id_phonetic",
    "misspelled_name",
    "name_also_place",
    "place_same_as_name",
    "stutter",
    "date_words",
    "date_numeric",
    "date_decade",
    "date_apostrophe_year",
    "time_digits",
    "time_words",
    "age_words",
    "age_digits",
    "height_words",
    "height_digits",
    *hard_cases.NAMES,  # cases from unseen transcripts (hard_cases.py)
    *hard_cases.ROUND_TWO,  # what still leaked on unseen transcripts after NAMES
)


class _Gen(Opening, Sections):
    def __init__(self, seed: int, words: int) -> None:
        self.seed = seed
        self.target = words
        self.rng = random.Random(seed)
        self.fake = Faker("en_US")
        self.fake.seed_instance(seed)
        self.b = model.TextBuilder()
        self._used_last: set[str] = set()
        self.section_lines: dict[str, int] = {}
        self.id_checks = 0
        self._cast_done = False

    # ------------------------------------------------------------------ helpers
    def pick(self, seq: Sequence):
        return seq[self.rng.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def person(self, gender: str | None = None, last: str | None = None) -> Person:
        gender = gender or self.pick("MF")
        while True:
            first = self.fake.first_name_male() if gender == "M" else self.fake.first_name_female()
            if first.isalpha() and first == first.capitalize():
                break
        while last is None:
            cand = self.fake.last_name()
            if (
                cand.isalpha()
                and cand == cand.capitalize()
                and len(cand) >= 4
                and cand not in self._used_last
                and cand not in vocab.PLACE_SURNAMES
                and cand not in vocab.AVOID_SURNAMES
            ):
                last = cand
        if not self._cast_done:  # the cast's surnames are unique; others only avoid them
            self._used_last.add(last)
        return Person(first, last, gender)

    def say(self, who: str, text: str) -> None:
        tag, role = self.tags[who]
        self.b.add(text, speaker=tag, role=role)

    def heading(self, text: str) -> None:
        self.b.add(text, kind=model.HEADING)

    def um(self) -> str:
        return self.pick(("uh,", "um,", "you know,", "uh", "I mean,", ""))

    def date_words(self, d: dt.date, tag: str | None = None) -> str:
        return D(f"{vocab.MONTHS[d.month - 1]} {d.day}, {d.year}", tag)

    def date_ordinal(self, d: dt.date) -> str:
        return D(f"{vocab.MONTHS[d.month - 1]} {vocab.ordinal(d.day)}, {d.year}", "date_words")

    def date_numeric(self, d: dt.date) -> str:
        return D(f"{d.month:02d}/{d.day:02d}/{d.year}", "date_numeric")

    def some_date(self, start_year: int, end_year: int) -> dt.date:
        year = self.rng.randint(start_year, max(start_year, end_year))
        return dt.date(year, self.rng.randint(1, 12), self.rng.randint(1, 28))

    def height_digits(self) -> str:
        feet = self.rng.choice((5, 5, 6))
        inches = self.rng.randint(4, 11) if feet == 5 else self.rng.randint(0, 4)
        return f"{feet}'{inches}\""

    def phone(self) -> str:
        area = self.pick(vocab.CA_AREA_CODES)
        a, b = self.rng.randint(200, 989), self.rng.randint(0, 9999)
        fmt = self.rng.randrange(3)
        if fmt == 0:
            num = f"({area}) {a}-{b:04d}"
        elif fmt == 1:
            num = f"{area}-{a}-{b:04d}"
        else:
            num = f"{area}.{a}.{b:04d}"
        return m(PHONE_NUMBER, num)

    def email(self, p: Person) -> str:
        local = self.pick(
            (
                f"{p.first.lower()}.{p.last.lower()}",
                f"{p.first[0].lower()}{p.last.lower()}{self.rng.randint(1, 99)}",
                f"{p.last.lower()}{p.first.lower()}",
            )
        )
        return m(EMAIL_ADDRESS, f"{local}@{self.fake.free_email_domain()}")

    def street_address(self) -> str:
        number = self.rng.randint(100, 19999)
        street = self.fake.street_name()
        if not all(part.isalpha() for part in street.split()):
            street = f"{self.fake.last_name()} {self.pick(vocab.STREET_SUFFIXES)}"
        return L(f"{number} {street}")

    def city(self) -> str:
        return self.pick(vocab.CA_CITIES)

    def years_ago(self, n: int) -> int:
        return self.hearing_date.year - n

    # ------------------------------------------------------------------ cast and facts
    def cast(self) -> None:
        r = self.rng
        self.pc = self.person()
        self.dc = self.person()
        self.att = self.person()
        self.has_da = self.chance(0.75)
        self.da = self.person()
        self.has_vnok = self.chance(0.6)
        self.ip = self.person("M" if self.chance(0.85) else "F")
        self.transcriber = self.person()
        self.victim = self.person()
        self.mother = self.person("F", last=self.ip.last if self.chance(0.5) else None)
        self.father = self.person("M", last=self.ip.last)
        self.sibling = self.person(None, last=self.ip.last)
        self.psych = self.person()
        self.sponsor = self.person()
        self.employer_contact = self.person()
        self.codefendant = self.person("M")
        self.counselor = self.person()
        # Next of kin shares the victim's surname most of the time.
        self.vnok = self.person(None, last=self.victim.last if self.chance(0.7) else None)
        # Name that is also a place: a relative or friend with a place-like surname.
        place_last = self.pick(sorted(vocab.PLACE_SURNAMES))
        self.place_person = self.person(last=place_last)
        self.place_of_name = vocab.PLACE_SURNAMES[place_last]

        self.inst, self.inst_city = self.pick(vocab.INSTITUTIONS)
        self.hometown = self.city()
        self.crime_city = self.pick((self.hometown, self.city()))
        self.county = self.pick(vocab.CA_COUNTIES)
        # dates
        year = r.randint(2019, 2026)
        d = dt.date(year, r.randint(1, 12), r.randint(1, 28))
        while d.weekday() > 4:
            d += dt.timedelta(days=1)
        self.hearing_date = d
        hour = r.choice((8, 9, 9, 10, 13))
        minute = r.choice((0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50))
        self.hearing_time = dt.time(hour, minute)
        self.age_at_offense = r.randint(16, 29)
        self.years_in = r.randint(12, 32)
        self.offense_date = self.some_date(year - self.years_in - 1, year - self.years_in - 1)
        self.birth_year = self.offense_date.year - self.age_at_offense
        self.age_now = year - self.birth_year
        self.received_date = self.offense_date + dt.timedelta(days=r.randint(300, 800))
        self.offense, self.sentence = self.pick(vocab.OFFENSES)
        self.weapon = self.pick(vocab.WEAPONS)
        # CDCR number: one letter + 5 digits (V12345) or two letters + 4 digits.
        letters = "ABCDEFGHJKLMNPRTVWXY"
        if self.chance(0.5):
            self.cdcr = f"{self.pick(letters)}{r.randint(10000, 99999)}"
        else:
            self.cdcr = f"{self.pick(letters)}{self.pick(letters)}{r.randint(1000, 9999)}"
        self.substance = self.pick([x for x in vocab.SUBSTANCES if x != "alcohol"])
        self.nationality = self.pick(vocab.NATIONALITIES)
        self.religion = self.pick(vocab.RELIGIONS)
        self.ethnic = self.pick(vocab.ETHNIC_GROUPS)
        self.company = f"{self.fake.last_name()} {self.pick(vocab.TRANSCRIPTION_SUFFIXES)}"
        self.employer = self.fake.company()
        self.program = f"{self.fake.last_name()} House"
        self.program_site = f"www.{self.program.lower().replace(' ', '')}reentry.org"
        self.school = self.pick(
            (f"{self.hometown} High School", f"{self.fake.last_name()} High School")
        )
        self.middle_school = f"{self.fake.last_name()} Middle School"
        self.hospital = self.pick(
            (f"{self.crime_city} General Hospital", f"{self.fake.last_name()} Memorial Hospital")
        )
        self.police = f"{self.crime_city} Police Department"
        self.jail = f"{self.county} Jail"
        self.risk = self.pick(vocab.RISK_LEVELS)
        self.cra_date = self.hearing_date - dt.timedelta(days=r.randint(60, 400))
        self.misspelled = self._misspell(self.victim.last)
        self._used_last.add(self.misspelled)
        self.victim_age = r.randint(18, 55)
        self.birth_date = dt.date(self.birth_year, r.randint(1, 12), r.randint(1, 28))
        self.second_city = self.city()
        self.grandmother = self.person("F")
        self.partner = self.person("F" if self.ip.gender == "M" else "M")
        self.child = self.person(last=self.ip.last)
        self.child_birth = self.some_date(self.offense_date.year - 3, self.offense_date.year - 1)
        self.ged_date = self.some_date(self.received_date.year + 1, self.hearing_date.year - 3)
        self.sobriety_date = self.some_date(self.hearing_date.year - 12, self.hearing_date.year - 2)
        self.prior_prison = self.pick([name for name, _ in vocab.INSTITUTIONS if name != self.inst])
        self.sponsor_director = self.person()
        self.plan_city = self.city()

        full_tag = self.chance(0.5)
        ip_tag = (
            P(self.ip.full.upper())
            if full_tag
            else f"INCARCERATED PERSON {P(self.ip.last.upper())}"
        )
        self.tags: dict[str, tuple[str, str]] = {
            "pc": (f"PRESIDING COMMISSIONER {P(self.pc.last.upper())}", "Presiding Commissioner"),
            "dc": (f"DEPUTY COMMISSIONER {P(self.dc.last.upper())}", "Deputy Commissioner"),
            "att": (f"ATTORNEY {P(self.att.last.upper())}", "Attorney for Incarcerated Person"),
            "da": (
                f"DEPUTY DISTRICT ATTORNEY {P(self.da.last.upper())}",
                "Deputy District Attorney",
            ),
            "ip": (ip_tag, "Incarcerated Person"),
            "vnok": (f"VICTIM'S NEXT OF KIN {P(self.vnok.last.upper())}", "Victim's Next of Kin"),
        }

    def _misspell(self, name: str) -> str:
        r = self.rng
        ops = []
        vowels = "aeiou"
        for i in range(1, len(name)):
            if name[i] in vowels and i < len(name) - 1:
                ops.append(("swapv", i))
        if r.random() < 0.5 or not ops:
            i = r.randrange(2, len(name))
            return name[:i] + name[i - 1] + name[i:]  # doubled letter
        _, i = r.choice(ops)
        repl = r.choice([v for v in vowels if v != name[i]])
        return name[:i] + repl + name[i + 1 :]

    def metadata(self) -> dict:
        participants = [
            {"name": self.pc.full, "role": "Presiding Commissioner"},
            {"name": self.dc.full, "role": "Deputy Commissioner"},
            {"name": self.ip.full, "role": "Incarcerated Person"},
            {"name": self.att.full, "role": "Attorney for Incarcerated Person"},
        ]
        if self.has_da:
            participants.append({"name": self.da.full, "role": "Deputy District Attorney"})
        if self.has_vnok:
            participants.append({"name": self.vnok.full, "role": "Victim's Next of Kin"})
        return {
            "incarcerated_person": self.ip.full,
            "cdcr_number": self.cdcr,
            "institution": self.inst,
            "location": f"{self.inst_city}, California",
            "hearing_date": self.hearing_date.isoformat(),
            "hearing_time": self.hearing_time.strftime("%H:%M"),
            "participants": participants,
            "transcriber": self.transcriber.full,
        }

    def build(self) -> None:
        self.cast()
        self._cast_done = True
        self.opening()
        self.section_lines["commitment"] = len(self.b.lines)
        self.commitment_offense()
        self.section_lines["record"] = len(self.b.lines)
        self.criminal_history()
        hard_cases.exchanges(self)
        hard_cases.neighbours(self)
        self.section_lines["childhood"] = len(self.b.lines)
        self.childhood()
        self.section_lines["programming"] = len(self.b.lines)
        self.programming()
        self.section_lines["risk"] = len(self.b.lines)
        self.risk_assessment()
        self.section_lines["plans"] = len(self.b.lines)
        self.parole_plans()
        self.questions()
        hard_cases.round_two(self)
        unseen.board(self)
        self.section_lines["closing"] = len(self.b.lines)
        self.closing()
        hard_cases.caps_boilerplate(self)
        self.section_lines["decision"] = len(self.b.lines)
        self.decision()
        self.certification()


def generate_hearing(seed: int, *, words: int = 15000) -> model.SyntheticHearing:
    """A synthetic parole suitability hearing of about ``words`` words, deterministic per seed.

    ``text`` is the canonical text (notes/canonical_text.md); ``gold.spans`` are offsets
    into it; ``pages`` is the printed layout that ``render_pdf`` draws.
    """
    g = _Gen(seed, words)
    g.build()
    b = g.b
    text = b.text
    pages = layout.paginate(b.lines)
    first_page = layout.line_pages(pages)
    hard = {k: list(v) for k, v in b.hard_cases.items()}
    # Spelled names printed across a line (or page) break.
    splits = _split_offsets(pages, b.lines)
    split_offsets = [off for off, _ in splits]
    hard["spelled_name_split"] = [
        (s, e) for s, e in hard.get("spelled_name", []) if any(s < off < e for off in split_offsets)
    ]
    # Not guaranteed (about one seed in four): a token split at the foot of a page.
    hard["token_split_across_pages"] = [
        _token_at(text, off) for off, page_end in splits if page_end
    ]
    utterances = [
        model.SyntheticUtterance(
            speaker=line.speaker,
            role=line.role,
            text=line.body,
            page=first_page.get(i, 0),
            section=line.section,
            start=line.start,
            end=line.end,
            kind=line.kind,
        )
        for i, line in enumerate(b.lines)
    ]
    hid = f"synthetic-{seed:05d}"
    metadata = g.metadata()
    gold = GoldDoc(
        id=hid,
        text=text,
        spans=sorted(set(b.spans)),
        meta={
            "source": "synthetic",
            "generator_version": GENERATOR_VERSION,
            "seed": seed,
            "words": len(text.split()),
            "metadata": metadata,
        },
    )
    hearing = model.SyntheticHearing(
        id=hid,
        seed=seed,
        metadata=metadata,
        utterances=utterances,
        text=text,
        gold=gold,
        hard_cases=hard,
        pages=pages,
        company=g.company,
        index=_index_pages(g, pages, first_page),
    )
    return hearing
