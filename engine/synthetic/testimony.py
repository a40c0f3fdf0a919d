"""The question-and-answer layout family: grand jury volumes and depositions.

Testimony is printed as bare ``Q text`` / ``A text`` lines (no period, no colon, no name),
the examiner set by a ``BY MS. NAME:`` line, the witness by the swearing-in line; the
importer gives each question and each answer its own utterance, tagged with the examiner
and the witness (``Q`` and ``THE WITNESS`` when the transcript does not name them), and
that is the canonical text the gold refers to (``family_body``).

Hard cases (``FamilyDoc.hard_cases``): ``swearing_in`` (the witness's name in the
swearing-in sentence, printed over two lines), ``examiner_change`` (a second ``BY`` line),
``juror_question`` (``A JUROR:``, ``JUROR:``, ``GRAND JUROR:`` turns between the answers),
``unnamed_witness`` (``(Witness sworn.)`` and no ``BY`` line: ``Q`` / ``THE WITNESS``),
``phonetic_spelling``, ``ocr_day`` (``the 2lst``), ``military_time`` (``0915``),
``two_word_street`` (``4117 Cedar Hollow Road``), ``st_county`` (``St. Clair County``),
``answer_after_objection`` (an answer after counsel's objection, depositions),
``unmarked_question`` (a question printed without its ``Q``, then an ``A`` line: a
juror's follow-up after the juror's tagged question, and one of unknown speaker, ``Q``,
in grand jury volumes), and kinds
that leaked elsewhere: ``word_street`` (``Liberty Street``), ``short_surname`` (``Mr. Ng``),
``town_in_speech`` (a made-up town: ``We drove up to Kowalczyk``), ``word_given_name``
(``HOPE said it. My cousin Hope.``).

Every person, number and street is made up (Faker, seeded); states and counties are real
public places. Django-free.
"""

from __future__ import annotations

import random

from faker import Faker

from .family_body import FamilyBody
from .family_doc import FamilyDoc
from .family_doc import distinct_names as _names
from .family_doc import family_meta as _meta
from .marks import A, D, L, O, P, T, phonetic, spelled
from .model import m

MONTHS = (
    "January February March April May June July August September October November December"
).split()
# (state, a county whose name starts with "St.") — public places.
ST_COUNTIES = (
    ("Missouri", "St. Louis County"),
    ("Missouri", "St. Charles County"),
    ("Michigan", "St. Clair County"),
    ("Michigan", "St. Joseph County"),
    ("Indiana", "St. Joseph County"),
    ("Florida", "St. Lucie County"),
    ("Minnesota", "St. Louis County"),
    ("Illinois", "St. Clair County"),
)
_STREET_A = ("Cedar", "Spring", "Maple", "Willow", "Pine", "Deer", "Fox", "Mill", "Stone")
_STREET_B = ("Hollow", "Valley", "Grove", "Ridge", "Creek", "Hill", "Run", "Meadow", "Bend")
_SUFFIX = ("Road", "Lane", "Drive", "Court", "Way")
_AGES = ("nineteen", "twenty-two", "seventeen", "thirty", "forty-one")
_WORD_STREETS = ("Liberty", "Union", "Market", "Church", "Hope", "Commerce", "Prospect", "Water")
_SHORT_SURNAMES = ("Yu", "Ng", "Wu", "Li", "Ho", "Ma", "Le", "Lam", "Ong", "Tan")
_WORD_NAMES = ("Hope", "Joy", "Grace", "Faith", "Summer", "April", "Rose", "Dawn")
_JUROR_TAGS = ("A JUROR", "JUROR", "GRAND JUROR", "A GRAND JUROR")


def _sentences(rng: random.Random, fake: Faker, n: int) -> str:
    return " ".join(fake.sentence(nb_words=rng.randint(5, 12)) for _ in range(n))


def _ocr_day(rng: random.Random) -> str:
    """An ordinal day as OCR misreads it: a ``1`` read as ``l`` (``2lst``, ``1lth``)."""
    day = rng.choice((1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 31))
    suffix = "th" if 10 <= day <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    text = f"{day}{suffix}"
    i = text.index("1")
    return text[:i] + "l" + text[i + 1 :]


class _Exam:
    """Writes one examination into a ``FamilyBody``."""

    def __init__(
        self,
        b: FamilyBody,
        rng: random.Random,
        fake: Faker,
        place: dict,
        *,
        marks: tuple[str, str] = ("Q", "A"),
    ) -> None:
        self.b, self.rng, self.fake, self.place = b, rng, fake, place
        self.asker = "Q"
        self.answerer = "THE WITNESS"
        self.marks = marks  # how questions and answers are printed: "Q"/"A" or "Q."/"A."

    def q(self, text: str) -> None:
        self.b.say(self.asker, text, printed_as=self.marks[0])

    def a(self, text: str) -> None:
        self.b.say(self.answerer, text, printed_as=self.marks[1])

    def by(self, title: str, last: str, tag: str | None = None) -> None:
        name = P(last.upper(), tag)
        self.b.line(f"BY {title} {name}:")
        self.asker = f"{title} {P(last.upper())}"

    def filler(self, words: int) -> None:
        """Questions and answers with names, dates, places and times, until ``words``."""
        rng, fake = self.rng, self.fake
        while self.b.words < words:
            first, last = fake.first_name(), fake.last_name()
            kind = rng.randrange(6)
            if kind == 0:
                self.q("Who else was there that night?")
                self.a(f"{P(f'{first} {last}')} and a friend of hers, I think. " + _s(rng, fake))
            elif kind == 1:
                year = rng.randint(1995, 2020)
                self.q(f"How long have you known Mr. {P(last)}?")
                self.a(f"Since {D(str(year))}, maybe {D(str(year + 1))}.")
            elif kind == 2:
                hour, minute = rng.randint(1, 11), rng.choice((0, 15, 30, 45))
                self.q("What time did you get there?")
                self.a(f"Around {T(f'{hour}:{minute:02d} p.m.')}. " + _s(rng, fake))
            elif kind == 3:
                self.q("And how old were you at the time?")
                self.a(f"I was {A(rng.choice(_AGES))}.")
            elif kind == 4:
                month, day = rng.choice(MONTHS), rng.randint(1, 28)
                self.q(f"What happened on {D(f'{month} {day}')}? " + _s(rng, fake))
                self.a(_sentences(rng, fake, rng.randint(1, 3)))
            else:
                self.q(_sentences(rng, fake, 1).rstrip(".") + "?")
                self.a(_sentences(rng, fake, rng.randint(1, 3)))

    def identity(self, first: str, last: str, *, phonetically: bool) -> None:
        self.q("Please state your full name for the record.")
        self.a(f"{P(f'{first} {last}')}.")
        if phonetically:
            self.q("Could you spell your last name phonetically for the reporter?")
            self.a(f"{phonetic(last)}.")
        else:
            self.q("And spell your last name, please.")
            self.a(f"{spelled(last)}.")

    def address(self) -> None:
        rng = self.rng
        street = f"{rng.choice(_STREET_A)} {rng.choice(_STREET_B)} {rng.choice(_SUFFIX)}"
        self.q("Where do you live?")
        self.a(
            f"At {L(f'{rng.randint(100, 9899)} {street}', 'two_word_street')} in "
            f"{L(self.place['city'])}."
        )
        self.q("Is that in the county?")
        self.a(f"Yes. {L(self.place['county'], 'st_county')}.")

    def leaks(self) -> None:
        """Kinds that leaked on transcripts nobody here had seen,
        made up: a street named by an ordinary word, two-letter surnames, a made-up town in
        speech, a given name that is an ordinary word, alone and in capitals."""
        from .hard_cases import _town

        rng = self.rng
        other = Faker(rng.choice(("de_DE", "it_IT", "nl_NL", "pl_PL")))
        other.seed_instance(rng.randrange(1 << 30))
        word = rng.choice(_WORD_STREETS)
        short, short2 = rng.sample(_SHORT_SURNAMES, 2)
        given = rng.choice(_WORD_NAMES)
        self.q("Where did you meet them?")
        self.a(f"On {L(f'{word} Street', 'word_street')}, near the church.")
        self.q(f"Did you talk to Mr. {P(short, 'short_surname')}?")
        self.a(f"Yes. {P(short)} and Ms. {P(short2, 'short_surname')} were both there.")
        self.q("Where did you drive after that?")
        self.a(f"We drove up to {L(_town(other), 'town_in_speech')} to see my aunt.")
        self.q("Who told you about the car?")
        self.a(f"{P(given.upper(), 'word_given_name')} said it. My cousin {P(given)}.")

    def unseen(self, seed: int, family: int = 0) -> None:
        """The kinds that leaked on unseen transcripts (``unseen.py``), in a
        random stream of their own (the rest of the volume does not change), one per
        family (``family``: 1 grand jury, 2 deposition, 3 federal), so that one seed's
        families hold different names, towns and phrasings."""
        from .unseen import unseen_exchange

        unseen_exchange(self.q, self.a, random.Random(seed * 7919 + 30 + 101 * family))

    def the_night(self) -> None:
        rng = self.rng
        month = rng.choice(MONTHS)
        self.q("What day of the month was that?")
        self.a(f"It was the {D(_ocr_day(rng), 'ocr_day')}.")
        self.q(f"Of {D(month)}?")
        self.a("Yes.")
        clock = f"0{rng.randint(6, 9)}{rng.choice((0, 15, 30, 45)):02d}"
        self.q("And what time did you arrive?")
        self.a(f"About {T(clock, 'military_time')}, by my log.")

    def juror(self, first: str, last: str) -> str:
        tag = self.rng.choice(_JUROR_TAGS)
        self.b.say(m("", tag, "juror_question"), f"Did you ever see {P(first)} again after that?")
        self.a(f"No. The last time I saw {P(f'{first} {last}')} was that night.")
        return tag

    def unmarked(self, question: str, answer: str, asker: str = "Q") -> None:
        """A question printed without its ``Q`` (as a reporter writes a grand juror's
        question), answered on an ``A`` line: its own utterance, of ``asker`` (``Q``: the
        transcript does not say who asks)."""
        self.b.say(asker, m("", question, "unmarked_question"), printed_as="")
        self.a(answer)


def _s(rng: random.Random, fake: Faker) -> str:
    return _sentences(rng, fake, rng.randint(0, 1))


def _roman(n: int) -> str:
    return ("I", "II", "III", "IV", "V", "VI")[n - 1]


def _grand_jury(seed: int, words: int):
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    (pf, pl), (sf, sl), (w1f, w1l), (w2f, w2l), (rf, rl), (xf, xl) = _names(fake, 6)
    state, county = rng.choice(ST_COUNTIES)
    place = {"city": fake.city(), "county": county}
    year, month, day = rng.randint(2008, 2023), rng.randint(1, 12), rng.randint(1, 28)
    number = f"{year}-GJ-{rng.randint(10, 999):03d}"
    pt, st = rng.choice(("MS.", "MR.")), rng.choice(("MR.", "MS."))
    cover = [
        f"IN THE CIRCUIT COURT OF {county.upper()}",
        f"STATE OF {state.upper()}",
        "IN RE: THE GRAND JURY",
        f"GRAND JURY NO. {number}",
        "TRANSCRIPT OF GRAND JURY PROCEEDINGS",
        f"VOLUME {_roman(rng.randint(1, 6))}",
        f"{MONTHS[month - 1].upper()} {day}, {year}",
        f"REPORTED BY: {rf.upper()} {rl.upper()}, CSR",
    ]
    b = FamilyBody()
    b.line("PROCEEDINGS")
    b.say(
        f"{pt} {P(pl.upper())}",
        "Good morning, ladies and gentlemen. We are on the record in grand jury number "
        f"{number}. Our first witness today is {P(f'{w1f} {w1l}')}.",
    )
    b.say(
        "THE FOREPERSON",
        "Please raise your right hand. Do you solemnly swear that the testimony you are "
        "about to give will be the truth, the whole truth, and nothing but the truth?",
    )
    b.say("THE WITNESS", "I do.")
    witness = P(f"{w1f.upper()} {w1l.upper()}")
    b.line(
        f"{P(f'{w1f.upper()} {w1l.upper()}', 'swearing_in')}, having been first duly sworn, "
        "testified as follows:"
    )
    b.line("EXAMINATION")
    exam = _Exam(b, rng, fake, place)
    exam.answerer = witness
    exam.by(pt, pl)
    exam.identity(w1f, w1l, phonetically=rng.random() < 0.5)
    exam.address()
    exam.the_night()
    exam.leaks()
    exam.unseen(seed, 1)
    share = words // 3
    exam.filler(b.words + share)
    juror = exam.juror(xf, xl)
    exam.unmarked("And where were you standing when you saw them?", "By the door.", juror)
    exam.q("Let me go back to that evening. " + _sentences(rng, fake, 1).rstrip(".") + "?")
    exam.a(_sentences(rng, fake, 2))
    exam.unmarked("Did anyone else in the house hear that?", "Not that I know of.")
    exam.by(st, sl, "examiner_change")
    exam.q(f"Good afternoon. I'm going to ask you about {P(f'{xf} {xl}')}. " + _s(rng, fake))
    exam.a(_sentences(rng, fake, 1))
    exam.filler(b.words + share)
    b.say(f"{st} {P(sl.upper())}", "Nothing further for this witness.")
    b.line("(Witness excused.)")
    b.line(m("", "(Witness sworn.)", "unnamed_witness"))
    b.line("EXAMINATION")
    second = _Exam(b, rng, fake, place)
    second.q("Please tell the grand jury your name.")
    second.a(f"My name is {P(f'{w2f} {w2l}')}.")
    second.the_night()
    second.filler(words)
    second.juror(fake.first_name(), fake.last_name())
    second.q("Thank you. " + _sentences(rng, fake, 1).rstrip(".") + "?")
    second.a(_sentences(rng, fake, 1))
    b.line(f"(Whereupon, the proceedings were adjourned at {T('4:10 p.m.')}.)")
    meta = {
        "court": f"Circuit Court of {county}",
        "case_number": number,
        "hearing_date": f"{year}-{month:02d}-{day:02d}",
    }
    return FamilyDoc(
        family="grand_jury",
        seed=seed,
        cover=[cover],
        body=b.printed,
        turns=b.turns,
        metadata=meta,
        footer=f"{fake.last_name()} Court Reporters",
        gold=b.gold(f"grand_jury-{seed:05d}", _meta("grand_jury", seed, words, meta)),
        hard_cases=b.hard_cases,
    )


def _deposition(seed: int, words: int, *, videotaped: bool = True):
    """A deposition: caption, appearances, the examination by two counsel. Videotaped,
    it opens with the videographer's turn; otherwise (a stenographic deposition) the
    body opens with the swearing-in, and the first speaker turn is counsel's objection
    after several questions and answers."""
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    (af, al), (df, dl), (wf, wl), (rf, rl), (xf, xl) = _names(fake, 5)
    state, county = rng.choice(ST_COUNTIES)
    place = {"city": fake.city(), "county": county}
    year, month, day = rng.randint(2008, 2023), rng.randint(1, 12), rng.randint(1, 28)
    hour, minute = rng.randint(9, 10), rng.choice((0, 5, 15, 30))
    case = f"{rng.randint(1, 4)}:{year % 100:02d}-cv-{rng.randint(100, 9999):05d}"
    company = f"{fake.last_name()} Logistics, Inc."
    cover = [
        "IN THE UNITED STATES DISTRICT COURT",
        f"FOR THE EASTERN DISTRICT OF {state.upper()}",
        f"{af.upper()} {al.upper()}, )",
        f"Plaintiff, ) Case No. {case}",
        "v. )",
        f"{company.upper()}, )",
        "Defendant. )",
        f"{'VIDEOTAPED ' if videotaped else ''}DEPOSITION OF {wf.upper()} {wl.upper()}",
        f"{MONTHS[month - 1]} {day}, {year}",
        f"{hour}:{minute:02d} a.m.",
        "APPEARANCES:",
        "FOR THE PLAINTIFF:",
        f"MR. {xf.upper()} {xl.upper()}",
        "FOR THE DEFENDANT:",
        f"MS. {df.upper()} {dl.upper()}",
        f"REPORTED BY: {rf.upper()} {rl.upper()}, RPR",
    ]
    b = FamilyBody()
    if videotaped:
        b.say(
            "THE VIDEOGRAPHER",
            f"We are on the record. Today's date is {D(f'{MONTHS[month - 1]} {day}, {year}')}, "
            f"and the time is {T(f'{hour}:{minute:02d} a.m.')}. This is the deposition of "
            f"{P(f'{wf} {wl}')}. Will the reporter please swear in the witness.",
        )
    witness = P(f"{wf.upper()} {wl.upper()}")
    b.line(
        f"{P(f'{wf.upper()} {wl.upper()}', 'swearing_in')}, called as a witness by the "
        "Plaintiff, having been first duly sworn, was examined and testified as follows:"
    )
    b.line("EXAMINATION")
    exam = _Exam(b, rng, fake, place)
    exam.answerer = witness
    exam.by("MR.", xl)
    exam.identity(wf, wl, phonetically=rng.random() < 0.5)
    exam.address()
    exam.q(f"Were you employed by {O(company)} in {D(str(year - 1))}?")
    b.say(f"MS. {P(dl.upper())}", "Objection. Form.")
    exam.a(m("", "Yes, I was. I drove for them out of the yard.", "answer_after_objection"))
    exam.the_night()
    exam.leaks()
    exam.unseen(seed, 2)
    exam.filler(b.words + words // 2)
    b.say(f"MR. {P(xl.upper())}", "I'll pass the witness.")
    exam.by("MS.", dl, "examiner_change")
    exam.q("Just a few questions. " + _sentences(rng, fake, 1).rstrip(".") + "?")
    exam.a(_sentences(rng, fake, 1))
    exam.filler(words)
    b.say(f"MS. {P(dl.upper())}", "Nothing further.")
    b.line(f"(Whereupon, the deposition concluded at {T('11:42 a.m.')}.)")
    meta = {
        "court": f"United States District Court for the Eastern District of {state}",
        "case_number": case,
        "hearing_date": f"{year}-{month:02d}-{day:02d}",
        "hearing_time": f"{hour:02d}:{minute:02d}",
    }
    return FamilyDoc(
        family="deposition",
        seed=seed,
        cover=[cover],
        body=b.printed,
        turns=b.turns,
        metadata=meta,
        footer=f"{fake.last_name()} Reporting Services",
        gold=b.gold(f"deposition-{seed:05d}", _meta("deposition", seed, words, meta)),
        hard_cases=b.hard_cases,
    )
