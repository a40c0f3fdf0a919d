"""Kinds left in clear on court and inquiry transcripts nobody here had seen, written into
every layout family with their gold. Django-free.

``clear_exchange(ask, answer, rng)`` writes a short exchange through two callables (a
question and its answer), each kind in a phrasing drawn from several. Hard-case tags:

* ``dotted_clock`` — a clock written the British way, with a dot (``10.15 am``,
  ``(2.05 pm)``, ``at 3.40``), and a range (``5.45/6.15-ish``: two TIME spans);
* ``dotted_not_clock`` — no span: a section number, a decimal and an amount of the same
  shape (``paragraph 4.15``, ``3.5 percent``, ``$4.50``), which must stay;
* ``day_first_date`` — a day-first date, one DATE span whole (``14 October 2003``,
  ``3rd and 4th of June``, ``3rd June``), so the release reads ``[DAY] [MONTH] [YEAR]``;
* ``age_around_number`` — an age said around its number (``turned 16``, ``nearly 17``,
  ``my 40th birthday``, ``aged 23``): the number is the AGE span;
* ``ordinal_day_answer`` — an ordinal day alone as the whole answer, also as OCR reads it
  (``The 12th.``, ``The l2th.``);
* ``first_name_signature`` — a message read aloud, signed with a first name alone
  (``Thanks, Ned.``), and the signature again alone as an answer (``Ned.``);
* ``meeting_place`` — a hotel or venue named as a meeting place (``the Hilton on Fifth``:
  the hotel an ORGANIZATION, a company; the street named alone a LOCATION);
* ``function_word_surname`` — a surname that is an English function word or pronoun,
  after a given name (``Tom Will``, ``Grace He``) and after an honorific (``Ms. Little``);
* ``east_asian_name`` — a three-part East Asian name, whole (``Nguyen Van Thanh``,
  ``Kim Min-jun``, ``Chan Tai Man``), then by its family name after an honorific;
* ``video_link`` — a video's or a document's link, read out and inside embedded markup
  (``https://www.youtube.com/watch?v=…``, ``<iframe src="…/embed/…">``): one URL span;
* ``public_national_term`` — no span: an agency's unit and its list, a statute by its
  acronym, a car's make and model, apps, games and a ruling party (``the FBI's Evidence
  Response Team``, ``OFAC's SDN List``, ``RICO``, ``Honda Civic``, ``WhatsApp``,
  ``the Chinese Communist Party``), which a reader needs.

Every person, hotel and id is made up (Faker, seeded; general knowledge of English, of
hotel chains and of how Vietnamese, Korean and Cantonese names are written).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from faker import Faker

from engine.labels import AGE, ORGANIZATION, URL

from .marks import D, L, P, T
from .model import m

Say = Callable[[str], None]

MONTHS = (
    "January", "February", "April", "June", "July", "September", "October", "November",
    "December",
)  # fmt: skip
# Surnames that are English function words or pronouns (Chinese, Korean, Vietnamese
# romanisations and English surnames).
FUNCTION_SURNAMES = ("He", "You", "An", "So", "Do", "To", "Will", "Little", "Most", "Best")
_GIVEN = ("Tom", "Grace", "Daniel", "Helen", "Marcus", "Lily", "Oliver", "Rachel", "Simon")
# Family, middle and given names of three-part Vietnamese, Korean and Cantonese names.
_VIETNAMESE = (
    ("Nguyen", "Tran", "Pham", "Hoang", "Huynh", "Phan", "Dang", "Bui", "Ngo", "Duong"),
    ("Van", "Thi", "Duc", "Minh", "Quoc", "Ngoc", "Huu", "Xuan"),
    ("Thanh", "Hung", "Lan", "Tuan", "Huong", "Dung", "Khanh", "Phuong", "Long", "Mai"),
)
_KOREAN = (
    ("Kim", "Park", "Choi", "Jung", "Kang", "Yoon", "Jang", "Kwon", "Hwang", "Shin"),
    ("Min-jun", "Seo-yeon", "Ji-hoon", "Ha-eun", "Do-hyun", "Su-bin", "Ye-jin", "Jae-won"),
)
_CANTONESE = (
    ("Chan", "Wong", "Leung", "Cheung", "Lau", "Yeung", "Tsang", "Chow"),
    ("Tai", "Siu", "Ka", "Wing", "Chi", "Kwok"),
    ("Man", "Ming", "Yan", "Fai", "Keung", "Ling"),
)
HOTELS = ("Hilton", "Marriott", "Hyatt", "Sheraton", "Radisson", "Westin", "Holiday Inn")
_VENUE_HEADS = ("Hotel", "Inn", "Lodge", "Tavern", "Diner")
_ORDINAL_STREETS = ("First", "Second", "Third", "Fifth", "Sixth", "Eighth", "Tenth")
_ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_SIGN_OFFS = ("Thanks", "Thank you", "Cheers", "Best", "Regards", "Many thanks")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _video_id(rng: random.Random) -> str:
    while True:
        vid = "".join(rng.choice(_ID_CHARS) for _ in range(11))
        if any(c.isdigit() for c in vid) and vid[0].isalnum() and vid[-1].isalnum():
            return vid


def _clock(rng: random.Random) -> tuple[str, str]:
    hour = rng.randint(1, 11)
    minute = rng.choice((5, 10, 15, 20, 25, 35, 40, 45, 50))
    return f"{hour}.{minute:02d}", rng.choice(("am", "pm", "a.m.", "p.m."))


def times(ask: Say, answer: Say, rng: random.Random) -> None:
    """Dotted clocks and a range; a section number, a decimal and an amount of that shape."""
    (c1, ap1), (c2, ap2), (c3, _), (c4, _) = (_clock(rng) for _ in range(4))
    h = rng.randint(4, 6)
    early, late = f"{h}.{rng.choice((15, 30, 45))}", f"{h + 1}.{rng.choice(('00', '15'))}"
    section = f"{rng.randint(2, 9)}.{rng.choice((10, 15, 20, 30, 45))}"
    rate = f"{rng.randint(2, 7)}.{rng.randint(1, 9)}"
    amount = f"${rng.randint(2, 9)}.{rng.choice((50, 25, 75))}"
    ask(rng.choice(("What time did the meeting start?", "When did you get there?")))
    answer(
        rng.choice(
            (
                f"At {T(f'{c1} {ap1}', 'dotted_clock')}, I think. The note of the call is timed "
                f"({T(f'{c2} {ap2}', 'dotted_clock')}).",
                f"It started at {T(f'{c1} {ap1}', 'dotted_clock')}. My diary entry says "
                f"({T(f'{c2} {ap2}', 'dotted_clock')}) for the call.",
            )
        )
    )
    ask("And when did you leave?")
    answer(
        f"Around {T(early, 'dotted_clock')}/{T(late, 'dotted_clock')}-ish. I was back home "
        f"at {T(c3, 'dotted_clock')}, and he rang at {T(c4, 'dotted_clock')}."
    )
    ask("Is that in your statement?")
    answer(
        f"Yes, at paragraph {m('', section, 'dotted_not_clock')}. The rent went up "
        f"{m('', rate, 'dotted_not_clock')} percent, and the bus was "
        f"{m('', amount, 'dotted_not_clock')}."
    )


def dates(ask: Say, answer: Say, rng: random.Random) -> None:
    """Day-first dates, whole; an ordinal day alone as the whole answer."""
    month, month2 = rng.sample(MONTHS, 2)
    day, year = rng.randint(2, 28), rng.randint(1995, 2012)
    first = rng.randint(1, 26)
    ask("When did you first meet him?")
    answer(
        rng.choice(
            (
                f"On {D(f'{day} {month} {year}', 'day_first_date')}, at the office.",
                f"It was {D(f'{day} {month} {year}', 'day_first_date')}. I remember it.",
                f"We met on {D(f'{day} {month} {year}', 'day_first_date')} for the first time.",
            )
        )
    )
    pair = f"{_ordinal(first)} and {_ordinal(first + 1)} of {month2}"
    ask("And the two site visits?")
    answer(
        f"Those were the {D(pair, 'day_first_date')}, and the report came on "
        f"{D(f'{_ordinal(rng.randint(2, 28))} {month}', 'day_first_date')}."
    )
    ask("What day was the hearing moved to?")
    answer(f"The {D(_ordinal(rng.randint(10, 28)), 'ordinal_day_answer')}.")
    ask("And the one before it?")
    ocr = _ordinal(rng.choice((10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 21)))
    ocr = ocr.replace("1", "l", 1)
    answer(f"The {D(ocr, 'ordinal_day_answer')}.")


def ages(ask: Say, answer: Say, rng: random.Random) -> None:
    """Ages said around their number."""
    a, b, c, d = rng.randint(13, 17), rng.randint(14, 19), rng.randint(30, 60), rng.randint(18, 29)
    ask("How old was your son then?")
    answer(
        rng.choice(
            (
                f"He had just turned {m(AGE, str(a), 'age_around_number')} that spring.",
                f"He turned {m(AGE, str(a), 'age_around_number')} in the summer.",
            )
        )
        + f" His friend was nearly {m(AGE, str(b), 'age_around_number')}."
    )
    ask("And the party?")
    answer(
        f"It was my {m(AGE, _ordinal(c), 'age_around_number')} birthday. My niece, "
        f"aged {m(AGE, str(d), 'age_around_number')}, did the food."
    )


def signature(ask: Say, answer: Say, rng: random.Random, given: str) -> None:
    """A message read aloud, signed with a first name alone; then the signature alone."""
    place = rng.choice(HOTELS)
    street = rng.choice(_ORDINAL_STREETS)
    clock, ap = _clock(rng)
    venue = f"{_venue_name(rng)} {rng.choice(_VENUE_HEADS)}"
    ask("Please read the e-mail into the record.")
    answer(
        f'It says: "Can we meet at the {m(ORGANIZATION, place, "meeting_place")} on '
        f"{L(street, 'meeting_place')} at {T(f'{clock} {ap}', 'dotted_clock')}? "
        f'{rng.choice(_SIGN_OFFS)}, {P(given, "first_name_signature")}."'
    )
    ask("And how is the second one signed?")
    answer(f"{P(given, 'first_name_signature')}.")
    ask("Where did you meet in the end?")
    answer(
        f"At the {m(ORGANIZATION, venue, 'meeting_place')}, and later in the bar of the "
        f"{m(ORGANIZATION, rng.choice(HOTELS), 'meeting_place')}."
    )


def _venue_name(rng: random.Random) -> str:
    """A made-up venue name: another locale's surname that is no English word."""
    from .hard_cases import _town

    other = Faker(rng.choice(("de_DE", "it_IT", "nl_NL")))
    other.seed_instance(rng.randrange(1 << 30))
    return _town(other)


def names(ask: Say, answer: Say, rng: random.Random) -> None:
    """Function-word surnames after a given name and an honorific; three-part East Asian
    names whole, then by their family name."""
    word, word2 = rng.sample(FUNCTION_SURNAMES, 2)
    given = rng.choice(_GIVEN)
    viet = " ".join(rng.choice(part) for part in _VIETNAMESE)
    korean = " ".join(rng.choice(part) for part in _KOREAN)
    canton = " ".join(rng.choice(part) for part in _CANTONESE)
    ask("Who else was at the meeting?")
    answer(
        f"{P(f'{given} {word}', 'function_word_surname')} from the council, and "
        f"Ms. {P(word2, 'function_word_surname')}, who took the notes."
    )
    ask("And the interpreters?")
    answer(
        f"{P(viet, 'east_asian_name')}, {P(korean, 'east_asian_name')} and "
        f"{P(canton, 'east_asian_name')}. Mr. {P(viet.split()[0], 'east_asian_name')} "
        "did most of it."
    )


def links(ask: Say, answer: Say, rng: random.Random) -> None:
    """A video's link read out, and inside an embedded block; a document's link."""
    vid, vid2, doc = _video_id(rng), _video_id(rng), _video_id(rng) + _video_id(rng)
    watch = rng.choice((f"https://www.youtube.com/watch?v={vid}", f"https://youtu.be/{vid}"))
    ask("Where is the footage?")
    answer(
        f"The link is {m(URL, watch, 'video_link')}, and the page embeds it as "
        f'<iframe width="560" height="315" src="{m(URL, f"https://www.youtube.com/embed/{vid2}", "video_link")}" '
        'frameborder="0" allowfullscreen></iframe>. The statement is at '
        f"{m(URL, f'https://drive.google.com/file/d/{doc}/view', 'video_link')}."
    )


# Public terms a court transcript names beyond a hearing (no span: a reader needs them):
# an agency's unit and its list, a statute by its acronym, a car's make and model and the
# phrase for its number, apps, games, a social network, a country's ruling party.
_AGENCY_UNITS = (
    "the FBI's Evidence Response Team",
    "the DEA",
    "Homeland Security Investigations",
    "the ATF",
)
_LISTS = ("OFAC's SDN List", "the Specially Designated Nationals List")
_STATUTES = ("RICO", "AEDPA", "the CFAA", "FISA", "IEEPA")
_CARS = ("Honda Civic", "Toyota Camry", "Chevy Impala", "Ford F-150", "Nissan Altima")
_APPS = ("WhatsApp", "Snapchat", "Instagram", "Venmo", "Telegram", "TikTok")
_GAMES = ("Fortnite", "Minecraft", "Call of Duty", "Roblox")
_PARTIES = ("the Chinese Communist Party", "the Communist Party", "United Russia")


def public_national(ask: Say, answer: Say, rng: random.Random) -> None:
    """Agencies, lists, statutes, products and parties as public terms (no span)."""

    def pub(term: str) -> str:
        return m("", term, "public_national_term")

    app, app2 = rng.sample(_APPS, 2)
    ask("Who processed the car?")
    answer(
        f"It was {pub(rng.choice(_AGENCY_UNITS))}. The car was a {pub(rng.choice(_CARS))}, "
        f"and the {pub('vehicle identification number')} matched."
    )
    ask("What else did you find?")
    answer(
        f"He was on {pub(rng.choice(_LISTS))}, and the count is under {pub(rng.choice(_STATUTES))}. "
        f"They talked on {pub(app)} and {pub(app2)}, and played {pub(rng.choice(_GAMES))} "
        f"at night. His uncle was in {pub(rng.choice(_PARTIES))}."
    )


def clear_exchange(ask: Say, answer: Say, rng: random.Random) -> None:
    """Write every kind above (see the module's docstring)."""
    fake = Faker("en_US")
    fake.seed_instance(rng.randrange(1 << 30))
    given = fake.first_name()
    times(ask, answer, rng)
    dates(ask, answer, rng)
    ages(ask, answer, rng)
    signature(ask, answer, rng, given)
    names(ask, answer, rng)
    links(ask, answer, rng)
    public_national(ask, answer, rng)
    from .bodies import bodies_exchange

    bodies_exchange(ask, answer, random.Random(rng.randrange(1 << 30)))
