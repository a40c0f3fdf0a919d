"""Synthetic parole suitability hearings with gold spans. Django-free.

``generate_hearing(seed)`` is deterministic per seed: one ``random.Random(seed)`` drives the
choices and one seeded Faker instance gives every person's name. Utterances are written as
marked strings (``model.m``) so the gold spans are exact by construction.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from faker import Faker

from annotations.gold import GoldDoc
from annotations.labels import (
    AGE,
    CDCR_ID,
    DATE,
    EMAIL_ADDRESS,
    HEIGHT,
    LOCATION,
    NRP,
    ORGANIZATION,
    PERSON,
    PHONE_NUMBER,
    SPELLED_NAME,
    SPELLED_OUT_ITEM,
    TIME,
    URL,
)

from . import layout, model, vocab
from .model import m

GENERATOR_VERSION = 1

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
)


@dataclass(slots=True)
class Person:
    first: str
    last: str
    gender: str  # "M" | "F"

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def title(self) -> str:
        return "Mr." if self.gender == "M" else "Ms."

    @property
    def pronoun(self) -> str:
        return "he" if self.gender == "M" else "she"

    @property
    def possessive(self) -> str:
        return "his" if self.gender == "M" else "her"

    @property
    def object(self) -> str:
        return "him" if self.gender == "M" else "her"


def P(text: str, tag: str | None = None) -> str:  # noqa: N802 - short mark helpers
    return m(PERSON, text, tag)


def L(text: str, tag: str | None = None) -> str:  # noqa: N802
    return m(LOCATION, text, tag)


def O(text: str) -> str:  # noqa: N802, E743
    return m(ORGANIZATION, text)


def D(text: str, tag: str | None = None) -> str:  # noqa: N802
    return m(DATE, text, tag)


def T(text: str, tag: str | None = None) -> str:  # noqa: N802
    return m(TIME, text, tag)


def A(text: str, tag: str | None = None) -> str:  # noqa: N802
    return m(AGE, text, tag)


def N(text: str) -> str:  # noqa: N802
    return m(NRP, text)


def spelled(word: str) -> str:
    return m(SPELLED_NAME, "-".join(word.upper()), "spelled_name")


def phonetic(word: str) -> str:
    letters = [c for c in word.upper() if c.isalpha()]
    return m(
        SPELLED_OUT_ITEM,
        ", ".join(f"{c} as in {vocab.PHONETIC[c]}" for c in letters),
        "phonetic_spelling",
    )


def stutter(word: str) -> str:
    return m("", word, "stutter")


class _Gen:
    def __init__(self, seed: int, words: int) -> None:
        self.seed = seed
        self.target = words
        self.rng = random.Random(seed)
        self.fake = Faker("en_US")
        self.fake.seed_instance(seed)
        self.b = model.TextBuilder()
        self._used_last: set[str] = set()
        self.section_lines: dict[str, int] = {}

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
        self.place_person = Person(
            self.fake.first_name_male() if self.chance(0.5) else self.fake.first_name_female(),
            place_last,
            "M",
        )
        while not self.place_person.first.isalpha():
            self.place_person.first = self.fake.first_name_female()
        self.place_person.gender = "M" if self.chance(0.5) else "F"
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
        self.substance = self.pick(vocab.SUBSTANCES)
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

    # ------------------------------------------------------------------ sections
    def time_said(self, t: dt.time, tag: str | None = "time_digits") -> str:
        h = t.hour % 12 or 12
        ampm = "a.m." if t.hour < 12 else "p.m."
        return T(f"{h}:{t.minute:02d} {ampm}", tag)

    def opening(self) -> None:
        ip, pc = self.ip, self.pc
        self.heading("PROCEEDINGS")
        self.say(
            "dc",
            self.pick(
                ("We're on the record.", "We are on the record.", "And we're on the record, sir.")
            ),
        )
        wd = vocab.WEEKDAYS[self.hearing_date.weekday()]
        mepd = self.received_date.replace(year=self.received_date.year + self.rng.randint(12, 22))
        self.say(
            "pc",
            f"All right. Today's date is, uh, {D(wd)}, {self.date_words(self.hearing_date, 'date_words')}. "
            f"The time is {self.time_said(self.hearing_time)}. This is a subsequent Parole Suitability "
            f"Hearing for {ip.title} {P(ip.last)}, who is currently housed at {O(self.inst)} in "
            f"{L(self.inst_city)}, {L('California')}. {ip.title} {P(ip.last)} was received by the "
            f"Department of Corrections and Rehabilitation on {self.date_words(self.received_date)} "
            f"from {L(self.county)} for the controlling offense of {self.offense}. "
            f"{ip.pronoun.capitalize()} received a term of {self.sentence}, and "
            f"{ip.pronoun} has a minimum eligible parole date of {self.date_words(mepd)}. "
            "Today's proceedings are being audio recorded. So for the purpose of voice "
            "identification, each of us will state our first and last name, spelling our last "
            f"name. {ip.title} {P(ip.last)}, when we get to you, we will also need your CDCR "
            f"number. I'll go first. My name is {P(pc.full)}, last name spelled {spelled(pc.last)}. "
            "I'm a Commissioner with the Board of Parole Hearings, participating by video "
            f"conference. Commissioner {P(self.dc.last)}.",
        )
        self.say(
            "dc",
            f"Good morning. {P(self.dc.full)}, {spelled(self.dc.last)}, Deputy Commissioner "
            "with the Board of Parole Hearings, also appearing by video.",
        )
        self.say("pc", "Thank you. Counsel?")
        self.say(
            "att",
            f"Good morning. {P(self.att.full)}, {spelled(self.att.last)}, attorney for "
            f"{ip.title} {P(ip.last)}, appearing by video conference.",
        )
        if self.has_da:
            self.say("pc", "And the District Attorney's office?")
            self.say(
                "da",
                f"Good morning, Commissioners. {P(self.da.full)}, {spelled(self.da.last)}, "
                f"Deputy District Attorney for {L(self.county)}.",
            )
        if self.has_vnok:
            self.say("pc", "And we have a victim's next of kin present. Ma'am or sir, go ahead.")
            self.say(
                "vnok",
                f"My name is {P(self.vnok.full)}. First name is {phonetic(self.vnok.first)}. "
                f"Last name {spelled(self.vnok.last)}. {P(self.victim.first)} was my "
                f"{self.pick(('brother', 'son', 'father', 'uncle', 'cousin'))}.",
            )
            self.say(
                "pc",
                f"Thank you, {self.vnok.title} {P(self.vnok.last)}. I'm sorry for your loss, and "
                "under Marsy's Law you'll have an opportunity to make a statement at the end of the hearing.",
            )
        self.say("pc", f"All right, {ip.title} {P(ip.last)}.")
        self.ip_intro()
        self.say(
            "pc",
            "Thank you. We also note that correctional staff may be in the room for security "
            f"purposes only. {ip.title} {P(ip.last)}, I'm going to swear you in. Please raise your "
            "right hand. Do you solemnly swear or affirm that the testimony you give at this "
            "hearing will be the truth, the whole truth, and nothing but the truth?",
        )
        self.say("ip", "Yes, sir." if self.chance(0.5) else "I do.")
        self.say(
            "pc",
            "All right, you can put your hand down. I'm going to do what's called the Americans "
            "with Disabilities Act review. I reviewed the DECS database. You signed your request "
            f"for assistance form, that's Form 1073, and you have a TABE score of "
            f"{self.rng.randint(5, 12)}.{self.rng.randint(0, 9)}. Do you need any accommodation "
            "today, glasses, hearing aids, anything like that?",
        )
        self.say(
            "ip",
            f"{self.um().capitalize()} I wear reading glasses, I have them with me. {stutter('I-I-I')} can hear "
            "you fine.",
        )
        self.say(
            "pc",
            "All right. We've reviewed the Central File, the Comprehensive Risk Assessment "
            f"prepared by Dr. {P(self.psych.last)} dated "
            f"{self.date_words(self.cra_date)}, and the confidential file. Counsel, have you "
            "received all the documents?",
        )
        self.say("att", "Yes, Commissioner, we have, and we have no additional documents.")
        if self.has_da:
            self.say("da", "The People have received them as well.")

    def ip_intro(self) -> None:
        """The incarcerated person's introduction; a filler is chosen so that the spelled
        surname is printed across two lines (hyphen at the line end)."""
        ip = self.ip
        if len(self.cdcr) == 6 and self.cdcr[1].isdigit():
            said_id = m(
                CDCR_ID, f"{vocab.PHONETIC[self.cdcr[0]]} {self.cdcr[1:]}", "cdcr_id_phonetic"
            )
        else:
            said_id = m(
                CDCR_ID,
                f"{vocab.PHONETIC[self.cdcr[0]]} {vocab.PHONETIC[self.cdcr[1]]} {self.cdcr[2:]}",
                "cdcr_id_phonetic",
            )
        fillers = (
            "",
            "Uh,",
            "Um, okay.",
            "Yes, sir.",
            "Good morning.",
            "Good morning, everyone.",
            "Okay. Good morning.",
            "Yes. Good morning, Commissioners.",
            "Uh, good morning, sir.",
            "Okay, uh, thank you.",
            "Thank you, Commissioner. Good morning.",
            "Yes, sir. Um, good morning to the panel.",
        )
        tag, _ = self.tags["ip"]
        plain_tag = model.strip_marks(tag)
        chosen = None
        middles = (
            f"{P(ip.last)}, {spelled(ip.last)}.",
            f"Last name {P(ip.last)}, spelled {spelled(ip.last)}.",
            f"That's {P(ip.last)}, {spelled(ip.last)}, for the record.",
        )
        candidates = [(f, mid) for mid in middles for f in fillers]
        self.rng.shuffle(candidates)
        for filler, middle in candidates:
            body = f"{filler} My name is {P(ip.full)}. {middle} My CDCR number is {said_id}."
            plain = " ".join(f"{plain_tag}: {model.strip_marks(body)}".split())
            letters = "-".join(ip.last.upper())
            if any(
                split and letters.startswith(line.split(" ")[-1])
                for line, split in layout.wrap(plain)
            ):
                chosen = body
                break
        self.say("ip", chosen or body)

    def commitment_offense(self) -> None:
        ip, v = self.ip, self.victim
        od = self.offense_date
        hour = self.rng.choice((9, 10, 11, 12))
        height = self.pick(("five foot eleven", "six foot two", "five foot seven", "six feet"))
        self.say(
            "pc",
            f"I'm going to summarize the commitment offense from the probation officer's report. "
            f"On {self.date_words(od, 'date_words')}, at about {T(f'{hour}:30 p.m.', 'time_digits')}, "
            f"officers from the {O(self.police)} responded to a call near {self.street_address()} "
            f"in {L(self.crime_city)}. They found the victim, {P(v.full)}, who was "
            f"{A(str(self.rng.randint(18, 55)), 'age_digits')} years old, with injuries consistent "
            f"with {self.weapon}. {v.pronoun.capitalize()} was taken to {O(self.hospital)}, where "
            f"{v.pronoun} was pronounced deceased. Witnesses described the suspect as a "
            f"{N(self.ethnic)} male, about {m(HEIGHT, height, 'height_words')}, wearing a dark "
            f"hoodie. {ip.title} {P(ip.last)} was arrested {self.pick(('two days', 'a week', 'three weeks'))} "
            f"later and booked into the {O(self.jail)}. The booking sheet lists "
            f"{ip.object} at {m(HEIGHT, self.height_digits(), 'height_digits')} and "
            f"{self.rng.randint(140, 230)} pounds. {ip.title} {P(ip.last)}, you were "
            f"{A(vocab.number_words(self.age_at_offense), 'age_words')} at the time. Is that "
            "summary accurate?",
        )
        self.say(
            "ip",
            f"Yes, sir, that's accurate. {self.um().capitalize()} I take full responsibility for what I did to "
            f"{P(v.first)} and to {v.possessive} family.",
        )
        self.section_loop("commitment", self.offense_exchange, 0.14)

    def offense_exchange(self) -> None:
        _ip, v = self.ip, self.victim
        r = self.rng
        q = r.randrange(8)
        if q == 0:
            self.say(
                "pc",
                f"Walk me through that day. What happened before you went over to {P(v.first)}'s place?",
            )
            self.say(
                "ip",
                f"{self.um().capitalize()} that morning I had been drinking with {P(self.codefendant.first)}, "
                f"{P(self.codefendant.full)}. We started around {T('one o' + chr(39) + 'clock', 'time_words')} "
                f"in the afternoon. I was using {self.substance} too. {stutter('I-I')} wasn't thinking about "
                "anybody but myself. I was angry because I believed "
                f"{P(v.first)} had disrespected my family, and I let that anger take over.",
            )
        elif q == 1:
            self.say("dc", f"How did you know {P(v.full)}?")
            self.say(
                "ip",
                f"We grew up in the same neighborhood in {L(self.crime_city)}. {v.pronoun.capitalize()} "
                f"was a couple years older than me. We went to {O(self.school)} together for a while. "
                f"It wasn't -- it wasn't somebody I hated. {stutter('Th-th-that')}'s what makes it "
                "worse, I think.",
            )
        elif q == 2:
            self.say("pc", f"Why did you bring {self.weapon} with you?")
            self.say(
                "ip",
                "Because I wanted people to be afraid of me. At that time I believed respect came "
                "from fear. I carried it every day. I told myself it was for protection, but "
                "really it was about my ego and my insecurity.",
            )
        elif q == 3:
            self.say("dc", "What did you do after the shooting, or after the crime, right after?")
            self.say(
                "ip",
                f"I ran. I went to my {self.pick(('aunt', 'cousin', 'friend'))}'s house off "
                f"{self.street_address()} and I hid there. I threw the weapon in a canal. I didn't "
                f"call for help. {P(v.first)} was laying there and I didn't call for help, and "
                "that's something I think about every day.",
            )
        elif q == 4:
            self.say(
                "pc",
                f"The record says there was an argument earlier that week, on "
                f"{self.date_words(self.offense_date - dt.timedelta(days=r.randint(2, 6)))}. Tell me about that.",
            )
            self.say(
                "ip",
                f"Yes, sir. We got into it at a party on {L(self.fake.street_name())}. "
                f"{P(v.first)} told me to leave and I felt embarrassed in front of my friends. "
                "Instead of walking away, I went home and I kept thinking about it for days.",
            )
        elif q == 5:
            self.say("dc", "Who do you consider your victims today?")
            self.say(
                "ip",
                f"{P(v.full)}, first. {v.possessive.capitalize()} mother, {v.possessive} kids, the "
                f"whole {P(v.last)} family. The community in {L(self.crime_city)}. My own family too, "
                "my mother, my little brother. The neighbors who heard it. The officers who had "
                "to respond.",
            )
        elif q == 6:
            self.say(
                "pc",
                f"You were {A(vocab.number_words(self.age_at_offense), 'age_words')}. What was "
                "going on in your life at that point?",
            )
            self.say(
                "ip",
                f"I had dropped out of school. I was selling {self.substance} and using every day. "
                f"My girlfriend, {P(self.fake.first_name_female())}, had just left with our daughter. "
                f"I felt like nobody cared, so {stutter('I-I-I')} stopped caring about anything.",
            )
        else:
            self.say("dc", "What is your understanding of why you committed this crime?")
            self.say(
                "ip",
                "Through my self-help, through Victim Impact and through my therapy, I understand "
                "that I had a need to feel powerful because I felt powerless growing up. I used "
                "violence and drugs to cope. I didn't have empathy because I never dealt with my "
                "own pain, you know, and I put that pain on other people.",
            )

    def childhood(self) -> None:
        self.say(
            "pc",
            f"All right. Let's talk about your background. You were born in {L(self.hometown)} on "
            f"{self.date_ordinal(dt.date(self.birth_year, self.rng.randint(1, 12), self.rng.randint(1, 28)))}. "
            "Tell me about your family.",
        )
        self.say(
            "ip",
            f"Yes, sir. My mother is {P(self.mother.full)} and my father is {P(self.father.full)}. "
            f"My father is {N(self.nationality)} and we were raised {N(self.religion)}. "
            f"I have a {'brother' if self.sibling.gender == 'M' else 'sister'}, "
            f"{P(self.sibling.first)}. We lived with my grandmother for a while on "
            f"{self.street_address()} because my parents were always fighting. In the "
            f"{D(f'{(self.birth_year // 10 + 1) * 10}s', 'date_decade')} we moved to "
            f"{L(self.pick(vocab.CA_CITIES))}.",
        )
        self.say(
            "pc",
            f"Your file mentions a {P(self.place_person.first)} {P(self.place_person.last, 'name_also_place')}. "
            "Who is that?",
        )
        place = self.place_of_name
        if ", " in place:
            city, state = place.split(", ")
            where = f"{L(city, 'place_same_as_name')}, {L(state)}"
        else:
            where = L(place, "place_same_as_name")
        self.say(
            "ip",
            f"That's my {self.pick(('uncle', 'godfather', 'cousin', 'mentor'))}. "
            f"{P(self.place_person.last, 'name_also_place')} was the one who took me in when I "
            f"was {A(str(self.rng.randint(12, 15)), 'age_digits')}. Later {self.place_person.pronoun} "
            f"moved out to {where}, but we still talk every month.",
        )
        self.section_loop("childhood", self.childhood_exchange, 0.30)

    def childhood_exchange(self) -> None:
        q = self.rng.randrange(8)
        if q == 0:
            self.say("pc", "Were you ever abused as a child?")
            self.say(
                "ip",
                f"{self.um().capitalize()} yes. My father would beat us when he was drinking. "
                f"The first time I remember I was {A(vocab.number_words(self.rng.randint(5, 9)), 'age_words')}. "
                f"My mother called the {O(self.pick(vocab.CA_CITIES) + ' Police Department')} once "
                "but nothing really changed.",
            )
        elif q == 1:
            self.say("dc", "When did you start using drugs or alcohol?")
            age = self.rng.randint(11, 15)
            self.say(
                "ip",
                f"I started drinking at the age of {A(vocab.number_words(age), 'age_words')}, and "
                f"then {self.substance} by {A(str(age + 2), 'age_digits')}. Back in "
                f"{D(chr(39) + str(self.birth_year + age + 1)[-2:], 'date_apostrophe_year')} it got "
                "really bad. I was using every day.",
            )
        elif q == 2:
            self.say("pc", "How far did you get in school?")
            self.say(
                "ip",
                f"I went to {O(self.middle_school)} and then {O(self.school)}. I stopped going in the "
                f"tenth grade. I got my GED in here, on {self.date_numeric(self.some_date(self.offense_date.year + 2, self.hearing_date.year - 3))}.",
            )
        elif q == 3:
            self.say("dc", "Were you involved with a gang?")
            self.say(
                "ip",
                f"Yes. I got jumped in when I was {A(str(self.rng.randint(12, 16)), 'age_digits')}. "
                f"The older homies in {L(self.hometown)} were like family to me. I dropped out of "
                f"that lifestyle in {D(str(self.hearing_date.year - self.rng.randint(5, 12)))} and I "
                "debriefed.",
            )
        elif q == 4:
            self.say("pc", "Did you ever work before your arrest?")
            job_date = self.offense_date - dt.timedelta(days=self.rng.randint(200, 900))
            self.say(
                "ip",
                f"A little. I worked at {O(self.fake.company())} in {L(self.city())} doing "
                f"warehouse work, starting in {D(f'{vocab.MONTHS[job_date.month - 1]} of {job_date.year}')}. "
                f"My supervisor, {P(self.fake.first_name())} {P(self.fake.last_name())}, tried to help me, "
                "but I kept showing up late or not at all.",
            )
        elif q == 5:
            self.say("dc", "Any juvenile history?")
            d = self.some_date(self.birth_year + 13, self.birth_year + 17)
            self.say(
                "ip",
                f"Yes, ma'am. I was arrested on {self.date_numeric(d)} for a burglary and went to "
                f"juvenile hall in {L(self.county)}. Then I was at a camp for about "
                f"{self.pick(('six months', 'nine months', 'a year'))}.",
            )
        elif q == 6:
            self.say("pc", "How tall were you back then? The report describes a big kid.")
            self.say(
                "ip",
                f"I was already {m(HEIGHT, self.height_digits(), 'height_digits')} "
                "by ninth grade, so people treated me like I was older than I was.",
            )
        else:
            self.say("dc", "Who was there for you growing up?")
            self.say(
                "ip",
                f"My grandmother, {P(self.fake.first_name_female())} {P(self.fake.last_name())}. "
                f"She took us to {N(self.pick(vocab.RELIGIOUS_GROUP_NOUNS))} services every "
                f"{D(self.pick(('Sunday', 'Saturday')))}. She passed away in "
                f"{D(str(self.offense_date.year + self.rng.randint(1, 8)))} while I was in here.",
            )

    def programming(self) -> None:
        self.say(
            "dc",
            f"I'm going to cover your post-conviction factors. {self.ip.title} {P(self.ip.last)}, "
            f"since your last hearing on {self.date_words(self.hearing_date.replace(year=self.hearing_date.year - 3))} "
            "you've been disciplinary free. Your last rules violation report, a 115, was back "
            f"in {D(str(self.hearing_date.year - self.rng.randint(6, 12)))}. Is that correct?",
        )
        self.say("ip", "Yes, ma'am, that's correct.")
        self.section_loop("programming", self.programming_exchange, 0.50)

    def programming_exchange(self) -> None:
        r = self.rng
        q = r.randrange(8)
        d = self.some_date(self.hearing_date.year - 10, self.hearing_date.year - 1)
        if q == 0:
            prog = self.pick(vocab.SELF_HELP)
            self.say(
                "dc",
                f"I see a chrono for {prog}, completed {self.date_numeric(d)}. What did you get out of it?",
            )
            self.say(
                "ip",
                f"{self.um().capitalize()} that class taught me about my triggers. When somebody "
                "disrespects me, I used to go straight to anger. Now I can identify that feeling, "
                "take a timeout, and talk to somebody. I facilitate that group now on Tuesdays.",
            )
        elif q == 1:
            self.say(
                "dc",
                "Tell me about your Alcoholics Anonymous or Narcotics Anonymous participation.",
            )
            self.say(
                "ip",
                f"I've been going to AA and NA since {D(str(d.year))}. My sponsor is "
                f"{P(self.sponsor.full)}. I'm on step {vocab.number_words(r.randint(4, 12))}. My sobriety "
                f"date is {self.date_ordinal(d)}.",
            )
        elif q == 2:
            voc = self.pick(vocab.VOCATIONS)
            self.say("dc", f"You completed the {voc} vocation?")
            self.say(
                "ip",
                f"Yes, ma'am. I finished {voc} on {self.date_numeric(d)}. I have my certificate, and "
                f"my instructor, Mr. {P(self.counselor.last)}, "
                "wrote me a laudatory chrono.",
            )
        elif q == 3:
            self.say("dc", "What's your current job assignment?")
            self.say(
                "ip",
                f"I'm a {self.pick(vocab.PRISON_JOBS)} on Facility {self.pick('ABCD')}. I work from "
                f"{T('six o' + chr(39) + 'clock', 'time_words')} in the morning to "
                f"{T('2:00 p.m.', 'time_digits')}. My supervisor's ratings are exceptional.",
            )
        elif q == 4:
            self.say("dc", "Education?")
            self.say(
                "ip",
                f"I earned {self.pick(vocab.DEGREES)} through {O(self.pick(('Feather River College', 'Coastline Community College', 'Lassen Community College', 'Cal State Los Angeles')))} "
                f"in {D(self.pick(vocab.MONTHS) + ' ' + str(d.year))}. I'm working toward my bachelor's now.",
            )
        elif q == 5:
            prison = self.pick(vocab.OTHER_PRISONS)
            self.say("dc", f"You were housed at {O(prison)} before you transferred here?")
            self.say(
                "ip",
                f"Yes, from {D(str(d.year - 4))} to {D(str(d.year))}. That's where I started "
                f"programming seriously, after my celly, {P(self.fake.first_name_male())}, passed away.",
            )
        elif q == 6:
            self.say("dc", "Any religious programming?")
            self.say(
                "ip",
                f"I attend {N(self.pick(vocab.RELIGIOUS_GROUP_NOUNS))} services with Chaplain "
                f"{P(self.fake.last_name())}. My faith helped me when my mother got sick in "
                f"{D(str(d.year))}.",
            )
        else:
            self.say("dc", "How do you use what you learned in a day-to-day situation?")
            self.say(
                "ip",
                "Just yesterday somebody cut in front of me in the chow line. Before, that would "
                "have been a fight. I recognized my thinking, I let it go, and I talked about it "
                f"in group. {stutter('W-w-we')} call that using your tools.",
            )

    def risk_assessment(self) -> None:
        psych = self.psych
        self.say(
            "pc",
            f"The Comprehensive Risk Assessment was completed by Dr. {P(psych.full)} on "
            f"{self.date_words(self.cra_date)}. Dr. {P(psych.last)} found that you represent a "
            f"{self.risk} risk for violence. The historical factors include early onset of "
            "violence, substance abuse, and prior supervision failures. Do you agree with the "
            "assessment?",
        )
        self.say(
            "ip",
            "I agree with most of it. I disagree with one part, where it says I minimized my "
            "role. I told the doctor I was responsible. But I understand how it came across.",
        )
        self.section_loop("risk", self.risk_exchange, 0.60)

    def risk_exchange(self) -> None:
        q = self.rng.randrange(4)
        if q == 0:
            self.say("pc", "What are your relapse prevention plans?")
            self.say(
                "ip",
                f"My triggers are stress, isolation and being around people who use. If I feel "
                f"like using, I call my sponsor, {P(self.sponsor.first)}, I go to a meeting, and I "
                f"talk to my {self.pick(('wife', 'sister', 'mother', 'counselor'))}. I have a list of "
                "meetings near where I'm paroling.",
            )
        elif q == 1:
            self.say(
                "pc",
                "The doctor mentions your insight into domestic violence. Talk to me about that.",
            )
            self.say(
                "ip",
                "I used to control my girlfriends. I'd check their phones and I'd yell. I took "
                "a domestic violence class and I learned that control is abuse too.",
            )
        elif q == 2:
            self.say(
                "pc", "What would you do if an old friend from the neighborhood came to see you?"
            )
            self.say(
                "ip",
                f"I would tell him I'm not that person anymore. My parole agent is going to be in "
                f"my life and I'll be at {O(self.program)}. I would leave.",
            )
        else:
            self.say("pc", "What are your warning signs?")
            self.say(
                "ip",
                "When I start isolating, when I stop going to meetings, when I start thinking "
                "people owe me something. Those are my red flags.",
            )

    def parole_plans(self) -> None:
        sp, emp = self.sponsor, self.employer_contact
        self.say(
            "dc",
            "Let's go over your parole plans. Where do you plan to live if you're granted?",
        )
        self.say(
            "ip",
            f"I've been accepted to {O(self.program)}, a transitional housing program at "
            f"{self.street_address()}, {L(self.pick(vocab.CA_CITIES))}, {L('California')}. "
            f"Their website is {m(URL, self.program_site)}. The director, {P(sp.full)}, wrote me "
            f"a letter. {sp.possessive.capitalize()} number is {self.phone()} and "
            f"{sp.possessive} email is {self.email(sp)}.",
        )
        self.say("dc", "Can you spell the director's last name for the record?")
        self.say("ip", f"{self.um().capitalize()} {phonetic(sp.last)}.")
        self.say(
            "dc",
            f"Thank you. I do see that letter, dated {self.date_numeric(self.cra_date)}. And employment?",
        )
        self.say(
            "ip",
            f"I have a job offer from {O(self.employer)} from {P(emp.full)}. It's construction. "
            f"{emp.pronoun.capitalize()} said I can call {emp.object} at {self.phone()}.",
        )
        self.section_loop("plans", self.plans_exchange, 0.74)

    def plans_exchange(self) -> None:
        q = self.rng.randrange(6)
        if q == 0:
            rel = self.person()
            city = self.city()
            self.say(
                "dc", f"I have a support letter from a {P(rel.full)} in {L(city)}. Who is that?"
            )
            self.say(
                "ip",
                f"That's my {self.pick(('cousin', 'aunt', 'uncle', 'friend from church'))}. "
                f"{rel.pronoun.capitalize()} lives on {self.street_address()}. "
                f"{rel.pronoun.capitalize()}'s offered me a room if the program doesn't work out.",
            )
        elif q == 1:
            rel = self.person()
            self.say(
                "dc",
                f"There's a letter from {P(rel.full)} offering financial support, with phone number "
                f"{self.phone()}. Anything you want to add?",
            )
            self.say("ip", f"{P(rel.first)} has known me since I was a kid. I'm grateful.")
        elif q == 2:
            self.say("dc", "What about transportation and identification?")
            self.say(
                "ip",
                f"I'll get my ID through the {O('DMV')} program before release. I have my Social "
                "Security card in my file. The program gives bus passes.",
            )
        elif q == 3:
            self.say("dc", "Would you consider a transfer out of the county?")
            self.say(
                "ip",
                f"Yes. I don't want to go back to {L(self.crime_city)}. I'd go to "
                f"{L(self.pick(vocab.CA_COUNTIES))}, away from the victim's family.",
            )
        elif q == 4:
            rel = self.person()
            self.say("dc", f"We got an email from {self.email(rel)}. Whose address is that?")
            self.say(
                "ip",
                f"That's my {self.pick(('niece', 'nephew', 'daughter', 'son'))}, {P(rel.first)}. "
                f"{rel.pronoun.capitalize()} is {A(str(self.rng.randint(18, 30)), 'age_digits')} now.",
            )
        else:
            self.say("dc", "Your NA meetings on the outside?")
            self.say(
                "ip",
                f"There's a meeting every {D(self.pick(vocab.WEEKDAYS))} at "
                f"{T(self.pick(('7:00 p.m.', '6:30 p.m.', '12:00 noon')), 'time_digits')} at "
                f"{O(self.pick(('Grace Community Church', 'First Baptist Church', 'Saint Mary')))}, "
                "two blocks from the program.",
            )

    def questions(self) -> None:
        if self.has_da:
            self.say("pc", "Deputy District Attorney, any questions? Direct them to the panel.")
            self.say(
                "da",
                f"Yes. Could the panel ask whether the inmate has had any contact with the "
                f"{P(self.misspelled, 'misspelled_name')} family since the offense?",
            )
            self.say("pc", "Have you had any contact with the victim's family?")
            self.say(
                "ip",
                "No. I wrote an apology letter, but I kept it in my file through the Victim "
                "Offender Education Group. I don't want to cause them more harm.",
            )
            self.section_loop("da", self.da_exchange, 0.80)
        self.say("pc", "Counsel, any questions for your client?")
        self.section_loop("attorney", self.att_exchange, 0.86)

    def da_exchange(self) -> None:
        self.say(
            "da",
            f"Could the panel ask about the {D(self.pick(vocab.MONTHS) + ' ' + str(self.offense_date.year - 1))} "
            f"arrest by the {O(self.police)}?",
        )
        self.say("pc", "Go ahead and answer that.")
        self.say(
            "ip",
            f"That was for possession. I was carrying for {P(self.codefendant.last)}. I spent about "
            f"{self.pick(('thirty', 'sixty', 'ninety'))} days in the {O(self.jail)}.",
        )

    def att_exchange(self) -> None:
        q = self.rng.randrange(3)
        if q == 0:
            self.say(
                "att",
                f"{self.ip.title} {P(self.ip.last)}, what does the date "
                f"{self.date_words(self.offense_date)} mean to you today?",
            )
            self.say(
                "ip",
                f"It's the day I took {P(self.victim.first)}'s life. Every year on that day I fast "
                "and I pray for the family.",
            )
        elif q == 1:
            self.say("att", "How are you different from the person you were then?")
            self.say(
                "ip",
                f"Back then I was {A(vocab.number_words(self.age_at_offense), 'age_words')} and "
                f"I thought only about myself. Today I'm {A(vocab.number_words(self.age_now), 'age_words')}. "
                "I think about consequences and about other people's feelings first.",
            )
        else:
            self.say(
                "att", "What would you say to the victim's family if they were willing to listen?"
            )
            self.say(
                "ip",
                f"That I'm sorry. That {P(self.victim.first)} didn't deserve it. That "
                f"{stutter('I-I')} don't expect forgiveness.",
            )

    def closing(self) -> None:
        ip = self.ip
        self.say("pc", "All right. We'll move to closing statements.")
        if self.has_da:
            self.say(
                "da",
                f"Thank you. The People submit that {ip.title} {P(ip.last)} remains an unreasonable "
                f"risk. {ip.pronoun.capitalize()} murdered {P(self.victim.full)} and did not call "
                f"for help. The risk assessment is {self.risk}. The {P(self.misspelled)} family "
                "continues to suffer. We ask for a denial of at least five years.",
            )
        self.say(
            "att",
            f"Thank you, Commissioners. {ip.title} {P(ip.last)} has been disciplinary free for "
            f"years, completed {self.pick(vocab.SELF_HELP)}, {self.pick(vocab.SELF_HELP)} and "
            f"{self.pick(vocab.VOCATIONS)}, and has solid parole plans at {O(self.program)}. "
            f"{ip.pronoun.capitalize()} was a youth offender, only "
            f"{A(str(self.age_at_offense), 'age_digits')} at the time, and the hallmark features "
            "of youth apply. We ask that you find suitability.",
        )
        if self.has_vnok:
            self.say(
                "vnok",
                f"{P(self.victim.first)} was {A(vocab.number_words(self.rng.randint(19, 40)), 'age_words')} "
                f"years old. {self.victim.pronoun.capitalize()} had two kids. My mother died in "
                f"{D(str(self.hearing_date.year - self.rng.randint(2, 9)))} still waiting for "
                f"justice. I'm asking the panel to deny parole. {stutter('I-I-I')} can't go through "
                "this again every three years.",
            )
            self.say("pc", f"Thank you, {self.vnok.title} {P(self.vnok.last)}.")
        self.say(
            "ip",
            f"I want to apologize to the {P(self.victim.last)} family. I know that sorry isn't "
            "enough. I've spent my time in here trying to become a person who will never hurt "
            "anybody again. Thank you for your time.",
        )
        recess = dt.datetime.combine(self.hearing_date, self.hearing_time) + dt.timedelta(
            minutes=self.rng.randint(90, 180)
        )
        self.say(
            "pc",
            f"The time is {self.time_said(recess.time())}. We'll recess for deliberations.",
        )
        self.heading("RECESS")
        self.b.add("(Off the record.)", kind=model.PARENTHETICAL)
        self.recess_end = (recess + dt.timedelta(minutes=self.rng.randint(15, 45))).time()

    def decision(self) -> None:
        ip = self.ip
        self.heading("DECISION")
        self.say("dc", "We're back on the record.")
        years = self.pick(("three", "five", "seven"))
        self.say(
            "pc",
            f"The time is {self.time_said(self.recess_end)}. All parties who were present before "
            "the recess are present again. In the matter of "
            f"{P(ip.full)}, CDCR number {m(CDCR_ID, self.cdcr, 'cdcr_id_plain')}, the panel has "
            f"reviewed all the information and finds that {ip.pronoun} does currently pose an "
            "unreasonable risk of danger to society, and is therefore not suitable for parole. "
            f"The denial is for {years} years. {ip.title} {P(ip.last)}, you have made progress.",
        )
        self.section_loop("decision", self.decision_exchange, 0.975)
        self.say(
            "pc",
            f"That concludes the hearing. The time is {self.time_said((dt.datetime.combine(self.hearing_date, self.recess_end) + dt.timedelta(minutes=20)).time())}. Good luck to you.",
        )
        self.say("ip", "Thank you.")
        self.heading("ADJOURNMENT")
        self.b.add(
            "THIS TRANSCRIPT INCLUDES THE PROPOSED DECISION OF THE BOARD OF PAROLE HEARINGS "
            "ANNOUNCED AT THE HEARING. THE PROPOSED DECISION BECOMES FINAL WITHIN 120 DAYS OF "
            "THE HEARING UNLESS THE BOARD NOTIFIES YOU IN WRITING THAT IT HAS BEEN MODIFIED OR "
            "REFERRED TO THE FULL BOARD. THE GOVERNOR MAY THEN REVIEW THE DECISION UNDER THE "
            "PENAL CODE.",
            kind=model.PARAGRAPH,
        )
        self.b.add(
            f"{P(ip.full.upper())} {m(CDCR_ID, self.cdcr)} {self.date_numeric(self.hearing_date)} "
            "DECISION PAGE 1",
            kind=model.FOOTER_LINE,
        )

    def decision_exchange(self) -> None:
        q = self.rng.randrange(3)
        if q == 0:
            self.say(
                "pc",
                f"The panel credits your programming since {D(str(self.offense_date.year + self.rng.randint(3, 9)))}, "
                "your vocational certificates, and your sobriety. However, your insight into the "
                "causative factors of the life crime remains shallow.",
            )
        elif q == 1:
            self.say(
                "dc",
                f"I'd just add, {self.ip.title} {P(self.ip.last)}, keep doing what you're doing. "
                f"Get into {self.pick(vocab.SELF_HELP)} and deepen your relapse prevention plans.",
            )
        else:
            self.say(
                "pc",
                f"We considered the letters from {L(self.crime_city)} and the position of the "
                f"{P(self.misspelled, 'misspelled_name')} family. The panel also considered your age, "
                f"{A(str(self.age_now), 'age_digits')}, and the youth offender factors.",
            )

    def certification(self) -> None:
        tr = self.transcriber
        add = self.b.add
        c = model.CERTIFICATION
        add("CERTIFICATE AND DECLARATION OF TRANSCRIBER", section=c, kind=model.HEADING)
        add(
            f"I, {P(tr.full)}, declare that I have no interest in the outcome of this hearing "
            "and that this transcript is a true, complete and accurate record, to the best of my "
            "ability, of the recorded proceedings in the matter of:",
            section=c,
            kind=model.PARAGRAPH,
        )
        add(f"{P(self.ip.full.upper())}", section=c, kind=model.CENTERED)
        add(f"CDCR Number: {m(CDCR_ID, self.cdcr)}", section=c, kind=model.CENTERED)
        add(O(self.inst.upper()), section=c, kind=model.CENTERED)
        add(f"{L(self.inst_city.upper())}, {L('CALIFORNIA')}", section=c, kind=model.CENTERED)
        d = self.hearing_date
        add(
            D(f"{vocab.MONTHS[d.month - 1].upper()} {d.day}, {d.year}"),
            section=c,
            kind=model.CENTERED,
        )
        h = self.hearing_time
        add(
            T(f"{h.hour % 12 or 12}:{h.minute:02d} {'AM' if h.hour < 12 else 'PM'}"),
            section=c,
            kind=model.CENTERED,
        )
        add(f"Signed: {P(tr.full)}", section=c, kind=model.PARAGRAPH)
        add(
            f"Dated: {self.date_words(d + dt.timedelta(days=self.rng.randint(5, 30)))}",
            section=c,
            kind=model.PARAGRAPH,
        )
        add(f"Copyright {d.year} / All Rights Reserved by BPH", section=c, kind=model.PARAGRAPH)

    def section_loop(self, name: str, exchange: Callable[[], None], until: float) -> None:
        """Add exchanges until the hearing reaches ``until`` of the target word count."""
        self.section_lines.setdefault(name, len(self.b.lines))
        goal = self.target * until
        guard = 0
        while self.b.words < goal and guard < 2000:
            exchange()
            guard += 1

    def build(self) -> None:
        self.cast()
        self.opening()
        self.section_lines["commitment"] = len(self.b.lines)
        self.commitment_offense()
        self.section_lines["childhood"] = len(self.b.lines)
        self.childhood()
        self.section_lines["programming"] = len(self.b.lines)
        self.programming()
        self.section_lines["risk"] = len(self.b.lines)
        self.risk_assessment()
        self.section_lines["plans"] = len(self.b.lines)
        self.parole_plans()
        self.questions()
        self.section_lines["closing"] = len(self.b.lines)
        self.closing()
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
    split_offsets = _split_offsets(pages, b.lines)
    hard["spelled_name_split"] = [
        (s, e) for s, e in hard.get("spelled_name", []) if any(s < off < e for off in split_offsets)
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


def _split_offsets(pages: list[layout.Page], lines: list[model._Line]) -> list[int]:
    """Offsets into the canonical text where a printed line ended inside a token."""
    offsets = []
    pos = 0
    prev_split = False
    for page in pages:
        for printed in page.lines:
            if printed is None:
                continue
            if printed.starts:
                pos = lines[printed.line_index].start
            elif not prev_split:
                pos += 1  # the space that joins a continuation line
            pos += len(printed.text)
            prev_split = printed.split
            if printed.split:
                offsets.append(pos)
    return offsets


def _index_pages(
    g: _Gen, pages: list[layout.Page], first_page: dict[int, int]
) -> list[tuple[str, str]]:
    def page_of(key: str) -> str:
        idx = g.section_lines.get(key)
        return str(first_page[idx]) if idx is not None and idx in first_page else "--"

    last_body = max(p.number for p in pages if p.kind == "body")
    cert = [p.number for p in pages if p.kind == "certification"]
    return [
        ("Proceedings", str(layout.FIRST_BODY_PAGE)),
        ("Case Factors", page_of("commitment")),
        ("Pre-Commitment Factors", page_of("childhood")),
        ("Post-Commitment Factors", page_of("programming")),
        ("Parole Plans", page_of("plans")),
        ("Closing Statements", page_of("closing")),
        ("Recess", page_of("decision")),
        ("Decision", page_of("decision")),
        ("Adjournment", str(last_body)),
        ("Transcript Certification", str(cert[0]) if cert else "--"),
    ]
