"""Hard cases from unseen transcripts (issue 14), written into every synthetic hearing.
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
from .marks import L, P, Person
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
        f"AT {prison.upper()} "
        f"{L(city.upper(), 'caps_place')}, CALIFORNIA, ATTENTION {P(given, 'caps_name')} "
        f"{g.pick('ABCDEFGHJKLMNPRSTW')}. {P(clerk.last.upper(), 'caps_name')}, RECORDS OFFICE.",
    )
