"""Hard cases from unseen transcripts, written into every synthetic hearing.
Django-free.

Each helper writes marked utterances through the generator (``g.say``, ``g.b.add``), so
the gold spans are exact by construction, and records its hard-case tag:

* ``lowercase_slip`` — a transcriber writes a surname and a first name in lower case
  (``Did pellegrino -- Mr. pellegrino, that's P as in Paul``), the capitalised surname and
  the lower-case first name follow. The names come from other Faker locales (Italian,
  Yoruba, Irish, Akan, Mexican Spanish), not from the US lists the gazetteers hold;
* ``honorific_tag`` — a speaker tagged with an honorific and a surname that is also an
  English word (``MR. LONG:``), addressed as ``Mr. Long`` in speech;
* ``spelled_id_letters_digits`` — an old CDCR number spelled letter by letter and digit
  by digit (``B-K-4-4-1-7``), with a dash (``A-32262``), and with its letter spoken
  (``B, as in baker, 65921``);
* ``address_block`` — a mailing address with a suite and a ZIP code in the certificate;
* ``public_term`` — public institutions, laws, programmes and instruments (no span: they
  must survive);
* ``caps_boilerplate`` — an all-capitals legal paragraph (no span but the name in it);
* names and places that only their neighbours make names (``neighbours``), all with
  names from other Faker locales:

  - ``name_list`` — surnames in a list after a name (``Varga, Okonkwo and Pell``);
  - ``county_list`` — counties named after ``the counties of`` / ``The County is``;
  - ``caps_place`` — a caption line in capitals ending with a city and its state
    (``... STATE PRISON SAN JUAN CAPISTRANO, CALIFORNIA``);
  - ``title_run`` — a name after a peerage or an abbreviated title, also in capitals
    (``the Hon. Dora Varga``, ``GEN. DORA B. VARGA``);
  - ``party_name`` — names after a party's role (``the appellants Quill and Dora Varga``);
  - ``case_party`` — the parties of a case citation (``Varga v. Okonkwo``, ``In re
    Okonkwo``);
  - ``nickname`` — a nickname in quotes between a first name and a surname;
  - ``caps_name`` — a full name in capitals on a routing line (``ATTENTION DORA B.
    TEMBLEY, RECORDS OFFICE``), a US given name with a surname from another locale.
"""

from __future__ import annotations

from faker import Faker

from engine.labels import CDCR_ID, LOCATION, SPELLED_OUT_ITEM

from . import model, vocab
from .marks import D, L, O, P, Person
from .model import m

NAMES: tuple[str, ...] = (
    "lowercase_slip",
    "honorific_tag",
    "spelled_id_letters_digits",
    "address_block",
    "public_term",
    "caps_boilerplate",
    "name_list",
    "county_list",
    "caps_place",
    "title_run",
    "party_name",
    "case_party",
    "nickname",
    "caps_name",
)

_LOCALES = ("it_IT", "yo_NG", "en_IE", "tw_GH", "es_MX")
# Surnames that are also everyday English words (general knowledge of English).
_WORD_SURNAMES = ("Long", "Young", "Black", "Rose", "Price", "Small", "Stone", "Little")
_PUBLIC_TERMS = (
    "the Legal Status Summary",
    "your Prison Industry Authority work reports",
    "the PCL-R",
    "the HCR-20",
    "the Static-99R",
    "the LS/CMI",
    "the Americans with Disabilities Act review",
    "Penal Code section 3041.5",
    "Title 15 of the California Code of Regulations",
    "the Youth Offender Parole factors",
    "the Elderly Parole criteria",
    "the Court of Appeal",
    "the California Supreme Court",
    "the Department of Justice",
    "the United States District Court",
    "Proposition 57",
)


def _foreign_person(g, gender: str) -> Person:
    """A person named from another Faker locale (ASCII letters only)."""
    fake = Faker(g.pick(_LOCALES))
    fake.seed_instance(g.rng.randrange(1 << 30))
    while True:
        first = fake.first_name_male() if gender == "M" else fake.first_name_female()
        last = fake.last_name()
        if (
            first.isascii()
            and last.isascii()
            and first.isalpha()
            and last.isalpha()
            and len(last) >= 5
            and last not in g._used_last
        ):
            g._used_last.add(last)
            return Person(first, last, gender)


def _old_number(g) -> tuple[str, str, str]:
    letters = "ABCDEFGHJKLMNPRTVWXY"
    a, b = g.pick(letters), g.pick(letters)
    four = f"{g.rng.randint(1000, 9999)}"
    five = f"{g.rng.randint(10000, 99999)}"
    spelled = "-".join([a, b, *four])  # B-K-4-4-1-7
    dashed = f"{a}-{five}"  # A-32262
    spoken = f"{b}, as in {vocab.PHONETIC[b].lower()}, {g.rng.randint(10000, 99999)}"
    return spelled, dashed, spoken


def exchanges(g) -> None:
    """Lower-case slips, an honorific speaker tag, spelled letter-digit IDs and public
    terms, as a short exchange (after the criminal history)."""
    ip = g.ip
    last = next((line.speaker for line in reversed(g.b.lines) if line.speaker), "")
    if last == model.strip_marks(g.tags["pc"][0]):
        g.say("ip", "Okay.")
    rival = _foreign_person(g, "M")
    slip = rival.last.lower()
    letter = rival.last[0].upper()
    g.say(
        "pc",
        f"The probation report names a {P(rival.full)} as the other person in the fight. "
        f"Did {P(slip, 'lowercase_slip')} -- {rival.title} {P(slip, 'lowercase_slip')}, that's "
        f"{m(SPELLED_OUT_ITEM, f'{letter} as in {vocab.PHONETIC[letter]}')} -- did he have a "
        "problem with you before that night?",
    )
    g.say(
        "ip",
        f"{P(rival.last)} was from a rival set. {P(rival.first.lower(), 'lowercase_slip')} and "
        f"me never got along, and {P(rival.first)} knew my brother.",
    )
    spelled, dashed, spoken = _old_number(g)
    g.say(
        "pc",
        f"Your earlier number, from your first term, was "
        f"{m(CDCR_ID, spelled, 'spelled_id_letters_digits')}?",
    )
    g.say(
        "ip",
        f"Yes. And in county it was {m(CDCR_ID, dashed, 'spelled_id_letters_digits')}, and the "
        f"youth number was {m(CDCR_ID, spoken, 'spelled_id_letters_digits')}.",
    )
    terms = g.rng.sample(_PUBLIC_TERMS, 4)
    surname = g.pick(_WORD_SURNAMES)
    helper = Person(g.fake.first_name_female(), surname, "F")
    tag = f"MS. {P(surname.upper(), 'honorific_tag')}"
    g.tags["support"] = (tag, "")  # an honorific tag names no role (as the importer reads it)
    g.say(
        "pc",
        f"We also reviewed {m('', terms[0], 'public_term')}, {m('', terms[1], 'public_term')} "
        f"and {m('', terms[2], 'public_term')}, and we considered "
        f"{m('', terms[3], 'public_term')}. And {helper.title} {P(surname)}, you are here "
        "from the reentry program?",
    )
    g.say(
        "support",
        f"Yes, Commissioner. I've known {ip.title} {P(ip.last)} through the program for "
        "four years.",
    )
    g.say("ip", f"Thank you, {helper.title} {P(surname, 'honorific_tag')}.")


def caps_boilerplate(g) -> None:
    """An all-capitals legal paragraph with the incarcerated person's name in it."""
    g.b.add(
        m("", "IN THE MATTER OF THE LIFE TERM PAROLE CONSIDERATION HEARING OF", "caps_boilerplate")
        + f" {P(g.ip.full.upper())}. THE BOARD MAY MODIFY THIS DECISION, AND THE GOVERNOR "
        "MAY AFFIRM, MODIFY OR REVERSE IT AS THE LAW PROVIDES. NOTHING IN THIS DECISION "
        "WAIVES ANY RIGHT TO REVIEW.",
        kind=model.PARAGRAPH,
    )


def address_block(g) -> None:
    """The transcription company's mailing address with a suite and a ZIP code."""
    number = g.rng.randint(100, 9999)
    street = f"{g.fake.last_name()} {g.pick(('Street', 'Avenue', 'Boulevard', 'Drive'))}"
    suite = g.rng.randint(100, 950)
    city = g.pick(vocab.CA_CITIES)
    zip_code = g.rng.randint(90001, 96162)
    # two short labelled lines, like "Signed:" and "Dated:" (each one printed line)
    g.b.add(
        "Mail: " + m(LOCATION, f"{number} {street}, Suite {suite}", "address_block"),
        section=model.CERTIFICATION,
        kind=model.PARAGRAPH,
    )
    g.b.add(
        "City: " + m(LOCATION, f"{city}, CA {zip_code}", "address_block"),
        section=model.CERTIFICATION,
        kind=model.PARAGRAPH,
    )


def neighbours(g) -> None:
    """Names and places that only their neighbours make names (see the module docstring),
    as a short exchange about the letters, the record and the caption."""
    a, b, c, d, e, f = (_foreign_person(g, g.pick("MF")) for _ in range(6))
    counties = g.rng.sample([c.removesuffix(" County") for c in vocab.CA_COUNTIES], 3)
    prison = g.pick(vocab.OTHER_PRISONS)
    city = g.pick(vocab.CA_CITIES)
    last = next((line.speaker for line in reversed(g.b.lines) if line.speaker), "")
    if last == model.strip_marks(g.tags["pc"][0]):
        g.say("ip", "Yes.")
    g.say(
        "pc",
        f"The record shows arrests in the counties of {L(counties[0], 'county_list')} and "
        f"{L(counties[1], 'county_list')}. The County is {L(counties[2], 'county_list')} for "
        f"the commitment offense. The letters are from {P(a.full)}, "
        f"{P(b.last, 'name_list')}, {P(c.last, 'name_list')} and {P(d.last, 'name_list')}.",
    )
    nick = e.first[:3].capitalize() + e.first[:1].lower() if len(e.first) > 3 else e.first + "y"
    g.say(
        "ip",
        f"{P(b.last)} and me were in the same program. The one who got me into it was "
        f'{P(e.first, "nickname")} "{P(nick, "nickname")}" {P(e.last, "nickname")}.',
    )
    clerk = _foreign_person(g, "F")
    given = g.fake.first_name_female().upper()
    # a stamp read out in capitals (a bare paragraph would break the page layout contract)
    g.say(
        "att",
        f"The Board should also read the decision of the Hon. {P(f.full, 'title_run')} "
        f"in {P(c.last, 'case_party')} v. "
        f"{P(d.last, 'case_party')}, and In re {P(a.last, 'case_party')}, where the "
        f"petitioners {P(b.first, 'party_name')} and {P(e.full, 'party_name')} were heard. "
        f"The copy is stamped ORDER SIGNED BY SEN. {P(f.full.upper(), 'title_run')} "
        f"AT {O(prison.upper())} "
        f"{L(city.upper(), 'caps_place')}, CALIFORNIA, ATTENTION {P(given, 'caps_name')} "
        f"{g.pick('ABCDEFGHJKLMNPRSTW')}. {P(clerk.last.upper(), 'caps_name')}, RECORDS OFFICE.",
    )


# --- the second set (generator version 2): kinds 1-8 of what still leaked on unseen
# transcripts once the first set was detected -----------------------------------------

ROUND_TWO: tuple[str, ...] = (
    "spoken_address",
    "town_in_speech",
    "name_is_word",
    "spaced_spelling",
    "ocr_date_time",
    "footer_name",
    "other_id",
    "crown_term",
)
# Small US towns whose names are everyday English words (general knowledge of American
# place names): only their context makes them places.
_WORD_TOWNS = ("Energy", "Domino", "Commerce", "Liberty", "Harmony", "Friendship", "Paradise")
_STATE_NAMES = ("Texas", "Oregon", "Nevada", "Arizona", "Ohio", "Georgia", "Montana", "Idaho")
# Two-letter surnames (Chinese, Korean, Vietnamese romanisations): short English-like words.
_SHORT_SURNAMES = ("Bo", "Lo", "Wu", "Li", "Yu", "Ho")
_CROWN_TERMS = (
    "Her Majesty the Queen",
    "His Majesty the King",
    "the Court of Appeal for Ontario",
    "the Court of Appeal (Criminal Division)",
    "the Crown Court",
    "the Crown",
    "the Privy Council",
    "the High Court of Justice",
)
_VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _town(fake: Faker) -> str:
    """A made-up town name no gazetteer holds: a surname from another locale that is no
    English word (wordfreq's Zipf frequency below 3)."""
    from wordfreq import zipf_frequency

    while True:
        name = fake.last_name()
        if (
            name.isascii()
            and name.isalpha()
            and 5 <= len(name) <= 10
            and zipf_frequency(name.lower(), "en") < 3
        ):
            return name


def _ocr(text: str, rng) -> str:
    """Digits as OCR misreads them: ``1`` → ``l``, ``0`` → ``O`` (at least one)."""
    chars = list(text)
    spots = [i for i, c in enumerate(chars) if c in "10"]
    for i in rng.sample(spots, max(1, len(spots) // 2)) if spots else []:
        chars[i] = "l" if chars[i] == "1" else "O"
    return "".join(chars)


def round_two(g) -> None:
    """The second set's kinds (``ROUND_TWO``), as a short exchange before the closing. Uses its own random
    stream, so the rest of a seed's hearing does not change."""
    import random

    rng = random.Random(g.seed * 7919 + 22)
    fake = Faker(rng.choice(_LOCALES))
    fake.seed_instance(rng.randrange(1 << 30))
    us = Faker("en_US")
    us.seed_instance(rng.randrange(1 << 30))
    last = next((line.speaker for line in reversed(g.b.lines) if line.speaker), "")
    if last == model.strip_marks(g.tags["pc"][0]):
        g.say("ip", "Yes.")

    # 1. addresses read into the record (no street suffix; a ZIP code after a state; a flat
    # in a named building; a street named alone)
    number, street = rng.randint(12, 980), rng.randint(2, 99)
    city = us.city()
    state = rng.choice(_STATE_NAMES)
    zip_code = f"{rng.randint(10000, 99999)}"
    office, office_city = rng.randint(2, 99), _town(fake)
    flat, building, abroad = rng.randint(1, 40), _town(fake), _town(fake)
    road, lane = _town(fake), _town(fake)
    direction = rng.choice(("West", "East", "North", "South"))
    g.say(
        "pc",
        "Your sister's letter says the title will be sent to you at the "
        f"{L(f'{number} {direction} {_ordinal(street)}', 'spoken_address')}, "
        f"{L(f'{city}, {state} {zip_code}', 'spoken_address')} address, and the sponsor is "
        "a corporation with office address at "
        f"{L(f'{office} {lane} Lane', 'spoken_address')}, "
        f"{L(f'{office_city}, {state}, {rng.randint(10000, 99999)}', 'spoken_address')}.",
    )
    g.say(
        "ip",
        f"Yes. My cousin is residing at {L(f'Flat {flat}, {building} House', 'spoken_address')}, "
        f"{L(abroad, 'spoken_address')}, United Kingdom. Back then I came down "
        f"{L(f'{road} Ferry', 'spoken_address')}, which runs east and west.",
    )

    # 2. towns no gazetteer knows, where the speech says they are places
    home, south, word_town, word_state = (
        _town(fake),
        _town(fake),
        rng.choice(_WORD_TOWNS),
        rng.choice(_STATE_NAMES),
    )
    g.say(
        "pc",
        f"And the transitional house, is it in {L(home, 'town_in_speech')}?",
    )
    g.say(
        "ip",
        f"It's in {L(home, 'town_in_speech')}, so it's the same parole unit. My aunt lives in "
        f"{L(word_town, 'town_in_speech')}, {word_state}, and every summer we went down to "
        f"{L(south, 'town_in_speech')}.",
    )

    # 3. names that are English words (or two letters), made names by a speaker tag,
    # "my name is" and an honorific; their other mentions in mid-sentence
    first = us.first_name_female()
    word_name = rng.choice(_WORD_SURNAMES)
    short = rng.choice(_SHORT_SURNAMES)
    short_first = _town(fake)
    g.tags["word_witness"] = (f"MS. {P(word_name.upper(), 'name_is_word')}", "")
    g.say("pc", "Ma'am, please state your name for the record and spell your last name.")
    g.say(
        "word_witness",
        f"My name is {P(f'{first} {word_name}')}, "  # one whole mention (gold marks names whole)
        f"{m('SPELLED_NAME', ' '.join(word_name.upper()), 'spaced_spelling')}. I'm the "
        f"housing coordinator. The trustee of the house is {P(f'{short_first} {short}')}.",
    )
    g.say(
        "pc",
        f"Thank you, Ms. {P(word_name, 'name_is_word')}. And Mr. {P(short, 'name_is_word')} "
        f"will sign the agreement? We have {P(short, 'name_is_word')}'s letter and "
        f"{P(word_name, 'name_is_word')}'s report.",
    )
    # 4. spellings in other shapes: spaced letters after the word, commas after "spelled",
    # a phonetic spelling with digits read between the letters
    plate_letters = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(2))
    digit = rng.randint(2, 9)
    g.say(
        "word_witness",
        f"Yes. {P(short, 'name_is_word')}, {m('SPELLED_NAME', ' '.join(short.upper()), 'spaced_spelling')}. "
        f"His first name is spelled "
        f"{m('SPELLED_NAME', ', '.join(short_first.upper()), 'spaced_spelling')}. The van's "
        "tag starts "
        + m(
            SPELLED_OUT_ITEM,
            f"{plate_letters[0]} as in {vocab.PHONETIC[plate_letters[0]]}, {digit}, "
            f"{plate_letters[1]} as in {vocab.PHONETIC[plate_letters[1]]}",
            "spaced_spelling",
        )
        + ".",
    )

    # 5. dates and times as OCR and stenographers write them
    year = rng.randint(1991, 2009)
    month = rng.choice(("September", "October", "November", "December", "January"))
    day = rng.randint(10, 19)
    g.say(
        "pc",
        f"The incident report is dated {D(month + ' ' + _ocr(f'{day}th, {year}', rng), 'ocr_date_time')}. "
        "When did the search happen?",
    )
    hour, minute = rng.randint(10, 16), rng.choice((0, 15, 30, 45))
    g.say(
        "ip",
        f"It was the {D(_ordinal(rng.randint(2, 28)), 'ocr_date_time')}. At approximately "
        f"{m('TIME', f'0{rng.randint(6, 9)}{rng.choice((15, 30, 45))} hours', 'ocr_date_time')}, "
        f"and they left at {m('TIME', f'{hour}{minute:02d} hours', 'ocr_date_time')}. The "
        f"visit was at {m('TIME', f'{rng.randint(1, 4)}:{rng.choice((15, 30, 45))}p.m.', 'ocr_date_time')}.",
    )

    # 6. a name glued to page furniture: a footer run into the last sentence
    footer_first = rng.choice(("ROSE", "SUMMER", "HOPE", "APRIL", "JOY"))
    footer_last = _town(fake).upper()
    footer_id = f"{rng.choice('ABCDEFGHJKPTV')}-{rng.randint(10000, 99999)}"
    g.say(
        "pc",
        "We read the earlier decision, which ends with the crime. "
        f"{P(f'{footer_first} {footer_last}', 'footer_name')} {m(CDCR_ID, footer_id)} "
        f"{D(f'{rng.randint(1, 12)}/{rng.randint(10, 28)}/0{rng.randint(1, 9)}')}",
    )

    # 7. identifiers outside the paper's schema (OTHER_ID)
    vin = "".join(rng.choice(_VIN_CHARS) for _ in range(14)) + f"{rng.randint(100, 999)}"
    passport = f"{rng.randint(100000000, 999999999)}"
    account = f"{rng.randint(1000, 9999)}"
    badge = f"{rng.randint(1000, 9999)}"
    licence = f"{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(1000000, 9999999)}"
    uuid = "-".join(
        "".join(rng.choice("0123456789ABCDEF") for _ in range(n)) for n in (8, 4, 4, 4, 12)
    )
    plate = f"{rng.randint(1, 9)}{plate_letters}{rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{rng.randint(100, 999)}"
    g.say(
        "att",
        f"For the release plan: his passport number is {m('OTHER_ID', passport, 'other_id')}, "
        f"the VIN is {m('OTHER_ID', vin, 'other_id')}, the plate is "
        f"{m('OTHER_ID', ' '.join(plate), 'other_id')}, the bank account ending in "
        f"{m('OTHER_ID', account, 'other_id')} is open, the driver's license number is "
        f"{m('OTHER_ID', licence, 'other_id')}, and the juror badge number "
        f"{m('OTHER_ID', badge, 'other_id')} on the old trial minutes is his uncle's. The "
        f"signed plan carries the envelope ID {m('OTHER_ID', uuid, 'other_id')}.",
    )

    # 8. titles of the Crown and courts are public terms (no span)
    terms = rng.sample(_CROWN_TERMS, 3)
    g.say("pc", "Thank you, counsel. Anything else?")
    g.say(
        "att",
        f"The Board may also read {m('', terms[0], 'crown_term')} v. "
        f"{P(_town(fake), 'case_party')}, and what {m('', terms[1], 'crown_term')} and "
        f"{m('', terms[2], 'crown_term')} said there about remorse.",
    )
