"""Layout families: the same kind of transcript printed the ways real collections hold them.

- ``bph``: today's Board of Parole Hearings layout (``generate_hearing`` + ``render_pdf``).
- ``bph2009``: an older board layout: a ``)``-bracketed caption with ``CDC Number:``,
  institution, city and date on one line, two panel members per line, the transcriber
  with the company on the cover's last line, the company and page number at the foot of
  every page; as text, the margin numbers come as a block before each page (as some PDF
  exporters write them) and lines end with CR.
- ``federal``: a federal trial: a court-filing stamp at the top of every page, a ``)(``
  caption, appearances, a clock time before every line number, ``THE COURT:``,
  ``JUROR NAME:`` turns and a ``Q.``/``A.`` examination after ``BY MR. NAME:``.
- ``appellate``: an appellate argument: running header and footer, a ``:`` caption, a
  contents page, line numbers, and a word index (``word12:3 45:6``) at the end.

Every name, company, court and number is made up (Faker, seeded). ``family_document``
returns what was printed (cover lines, body lines) and what an importer should find
(speaker turns, metadata); ``family_render`` draws it as text, PDF or a scan.
Django-free.
"""

from __future__ import annotations

import random

from faker import Faker

from engine.gold import GoldDoc

from .family_body import FamilyBody
from .family_doc import FamilyDoc
from .family_doc import distinct_names as _names
from .family_doc import family_meta as _meta
from .marks import P, T
from .testimony import _deposition, _Exam, _grand_jury

FAMILIES = ("bph", "bph2009", "federal", "appellate", "grand_jury", "deposition")


def _sentences(rng: random.Random, fake: Faker, n: int) -> str:
    return " ".join(fake.sentence(nb_words=rng.randint(6, 14)) for _ in range(n))


def _bph2009(seed: int, words: int) -> FamilyDoc:
    from .generator import generate_hearing

    h = generate_hearing(seed, words=words)
    md = h.metadata
    rng = random.Random(seed)
    company = rng.choice(("Foothill Transcripts, Inc.", "Valley Court Reporting, LLC"))
    panel = [p for p in md["participants"] if "Commissioner" in p["role"]]
    others = [p for p in md["participants"] if "Commissioner" not in p["role"]]
    number = md["cdcr_number"]
    city = md["location"].split(",")[0].upper()
    year, month, day = (int(x) for x in md["hearing_date"].split("-"))
    months = "JANUARY FEBRUARY MARCH APRIL MAY JUNE JULY AUGUST SEPTEMBER OCTOBER NOVEMBER DECEMBER"
    when = f"{months.split()[month - 1]} {day}, {year}"
    hour, minute = (int(x) for x in md["hearing_time"].split(":"))
    clock = f"{hour % 12 or 12}:{minute:02d} {'A' if hour < 12 else 'P'}.M."
    cover = [
        "SUBSEQUENT PAROLE CONSIDERATION HEARING STATE OF CALIFORNIA",
        "BOARD OF PAROLE HEARINGS",
        f"In the matter of the Life ) CDC Number: {_dashed(number)} Term Parole Consideration )",
        "Hearing of: )",
        f"{md['incarcerated_person'].upper()} ) _________ )",
        f"{md['institution'].upper()} {city}, CALIFORNIA {when}",
        clock,
        "PANEL PRESENT:",
        "   ".join(f"{p['name'].upper()}, {p['role']}" for p in panel),
        "OTHERS PRESENT:",
        *[f"{p['name'].upper()}, {p['role']}" for p in others],
        f"{md['transcriber'].upper()}, {company}",
    ]
    # The number column of the generator uses letters; keep it as it is.
    meta = dict(md, cdcr_number=number.replace("-", ""))
    body = h.text.split("\n")
    turns = [tuple(line.split(": ", 1)) for line in body if _is_turn(line)]
    gold = GoldDoc(
        f"bph2009-{seed:05d}",
        h.text,
        list(h.gold.spans),
        meta=_meta("bph2009", seed, words, h.metadata),
    )
    return FamilyDoc(
        family="bph2009",
        seed=seed,
        cover=[cover, ["INDEX", "Proceedings ........................ 3"]],
        body=body,
        turns=turns,
        metadata=meta,
        footer=company,
        gold=gold,
        hard_cases={k: list(v) for k, v in h.hard_cases.items()},
    )


def _dashed(number: str) -> str:
    """ "A12345" → "A-12345", as older covers print it."""
    letters = number.rstrip("0123456789")
    return f"{letters}-{number[len(letters) :]}"


def _is_turn(line: str) -> bool:
    head, sep, _ = line.partition(": ")
    return bool(sep) and head.isupper() and any(c.isalpha() for c in head)


def _court_people(fake: Faker) -> dict:
    names = _names(fake, 9)
    return {
        "judge": names[0],
        "plaintiff_counsel": names[1],
        "defense_counsel": names[2],
        "witness": names[3],
        "jurors": names[4:8],
        "reporter": names[8],
    }


def _federal(seed: int, words: int) -> FamilyDoc:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    people = _court_people(fake)
    jf, jl = people["judge"]
    (pf, pl), (df, dl) = people["plaintiff_counsel"], people["defense_counsel"]
    wf, wl = people["witness"]
    plaintiff = f"{fake.last_name().upper()} SYSTEMS LLC"
    defendant = f"{fake.last_name().upper()} HOLDINGS, INC."
    case = f"{rng.randint(1, 6)}:{rng.randint(10, 24)}-cv-{rng.randint(100, 999):05d}-{fake.lexify('???').upper()}"
    year = rng.randint(2012, 2023)
    month = rng.randint(1, 12)
    day = rng.randint(1, 28)
    months = "JANUARY FEBRUARY MARCH APRIL MAY JUNE JULY AUGUST SEPTEMBER OCTOBER NOVEMBER DECEMBER"
    hour = rng.randint(8, 10)
    minute = rng.randint(0, 59)
    cover = [
        "IN THE UNITED STATES DISTRICT COURT",
        "FOR THE NORTHERN DISTRICT OF OHIO",
        "EASTERN DIVISION",
        f"{plaintiff}, )(",
        "PLAINTIFF, )( CIVIL ACTION NO.",
        f")( {case.upper()}",
        "VS. )( AKRON, OHIO",
        f"{defendant}, )( {months.split()[month - 1]} {day}, {year}",
        f"DEFENDANT. )( {hour}:{minute:02d} A.M.",
        "TRANSCRIPT OF JURY TRIAL",
        f"BEFORE THE HONORABLE JUDGE {jf.upper()} {jl.upper()}",
        "UNITED STATES DISTRICT JUDGE",
        "FOR THE PLAINTIFF:",
        f"MR. {pf.upper()} {pl.upper()}",
        f"{fake.last_name().upper()} & {fake.last_name().upper()} LLP",
        f"{rng.randint(100, 999)} Main Street, Suite {rng.randint(100, 900)}",
        "FOR THE DEFENDANT:",
        f"MS. {df.upper()} {dl.upper()}",
        f"COURT REPORTER: MS. {people['reporter'][0].upper()} {people['reporter'][1].upper()}, CSR",
    ]
    b = FamilyBody()
    b.line("PROCEEDINGS")
    b.line("(Jury in.)")
    b.say("THE COURT", "Good morning. Please be seated. " + _sentences(rng, fake, 3))
    for first, last in people["jurors"]:
        b.say(
            f"JUROR {P(last.upper())}",
            f"My name is {P(f'{first} {last}')}. " + _sentences(rng, fake, 2),
        )
        b.say("THE COURT", "Thank you. " + _sentences(rng, fake, 1))
    witness = P(f"{wf.upper()} {wl.upper()}")
    b.line(f"{witness}, PLAINTIFF'S WITNESS, SWORN")
    b.line("DIRECT EXAMINATION")
    b.line(f"BY MR. {P(pl.upper())}:")
    # Half of the examination asks about names, dates, places, times and ages (gold for
    # a model that learns every layout); the rest is filler.
    exam = _Exam(b, rng, fake, {"city": "Akron", "county": "Summit County"}, marks=("Q.", "A."))
    exam.asker, exam.answerer = f"MR. {P(pl.upper())}", witness
    exam.unseen(seed, 3)
    while b.words < words:
        q = _sentences(rng, fake, rng.randint(1, 2)).rstrip(".") + "?"
        a = _sentences(rng, fake, rng.randint(1, 3))
        b.say(f"MR. {P(pl.upper())}", q, printed_as="Q.")
        b.say(witness, a, printed_as="A.")
        exam.filler(b.words + 1)
    b.say(f"MS. {P(dl.upper())}", "Objection, Your Honor. " + _sentences(rng, fake, 1))
    b.say("THE COURT", "Overruled. " + _sentences(rng, fake, 1))
    b.line("(Recess.)")
    meta = {
        "court": "United States District Court for the Northern District of Ohio",
        "case_number": case.upper(),
        "hearing_date": f"{year}-{month:02d}-{day:02d}",
        "hearing_time": f"{hour:02d}:{minute:02d}",
    }
    return FamilyDoc(
        family="federal",
        seed=seed,
        cover=[cover],
        body=b.printed,
        turns=b.turns,
        metadata=meta,
        gold=b.gold(f"federal-{seed:05d}", _meta("federal", seed, words, meta)),
        hard_cases=b.hard_cases,
        numbered_cover=True,
        clock=True,
        filing=f"Case {case} Document {rng.randint(100, 400)} Filed {month:02d}/{day:02d}/{year % 100:02d}",
    )


def _appellate(seed: int, words: int) -> FamilyDoc:
    fake = Faker("en_US")
    fake.seed_instance(seed)
    rng = random.Random(seed)
    names = _names(fake, 5)
    chief, j1, j2, petitioner_counsel, respondent_counsel = names
    docket = f"{rng.randint(10, 23)}-{rng.randint(100, 999)}"
    year, month, day = rng.randint(2005, 2023), rng.randint(1, 12), rng.randint(1, 28)
    months = "January February March April May June July August September October November December"
    party_a = f"{fake.last_name().upper()} COUNTY, ET AL.,"
    party_b = f"{fake.last_name().upper()}, ET AL."
    cover = [
        "IN THE SUPREME COURT OF THE STATE OF NEVADA",
        "- - - - - - - - - - - - - - - - x",
        f"{party_a} :",
        f"Petitioners : No. {docket}",
        "v. :",
        f"{party_b} :",
        "- - - - - - - - - - - - - - - - x",
        "Carson City, Nevada",
        f"{fake.day_of_week()}, {months.split()[month - 1]} {day}, {year}",
        "The above-entitled matter came on for oral argument",
        f"at 10:{rng.randint(0, 59):02d} a.m.",
        "APPEARANCES:",
        f"{petitioner_counsel[0].upper()} {petitioner_counsel[1].upper()}, ESQ., Reno, Nevada; on behalf of Petitioners.",
        f"{respondent_counsel[0].upper()} {respondent_counsel[1].upper()}, ESQ., Las Vegas, Nevada; on behalf of Respondents.",
    ]
    contents = [
        "C O N T E N T S",
        "ORAL ARGUMENT OF PAGE",
        f"{petitioner_counsel[0].upper()} {petitioner_counsel[1].upper()}, ESQ.",
        "On behalf of the Petitioners 3",
        "ORAL ARGUMENT OF",
        f"{respondent_counsel[0].upper()} {respondent_counsel[1].upper()}, ESQ.",
        "On behalf of the Respondents 5",
    ]
    b = FamilyBody()
    b.line("PROCEEDINGS")
    pc = f"MR. {P(petitioner_counsel[1].upper())}"
    rc = f"MS. {P(respondent_counsel[1].upper())}"
    speakers = (
        f"CHIEF JUSTICE {P(chief[1].upper())}",
        f"JUSTICE {P(j1[1].upper())}",
        f"JUSTICE {P(j2[1].upper())}",
    )
    b.say(speakers[0], "We will hear argument first this morning. " + _sentences(rng, fake, 1))
    counsel = pc
    # the kinds that leaked on unseen transcripts: a justice asks, counsel reads the record
    from .unseen import unseen_exchange

    unseen_exchange(
        lambda text: b.say(speakers[1], text),
        lambda text: b.say(pc, "The record says this. " + text),
        random.Random(seed * 7919 + 30 + 101 * 4),
    )
    while b.words < words:
        b.say(counsel, _sentences(rng, fake, rng.randint(2, 4)))
        b.say(rng.choice(speakers), _sentences(rng, fake, rng.randint(1, 2)).rstrip(".") + "?")
        if counsel == pc and b.words > words / 2:
            b.say(speakers[0], "Thank you, counsel. " + _sentences(rng, fake, 1))
            counsel = rc
    b.say(speakers[0], "Thank you. The case is submitted.")
    b.line(f"(Whereupon, at {T(f'11:{rng.randint(0, 59):02d} a.m.')}, the case was submitted.)")
    meta = {
        "court": "Supreme Court of the State of Nevada",
        "case_number": docket,
        "hearing_date": f"{year}-{month:02d}-{day:02d}",
    }
    return FamilyDoc(
        family="appellate",
        seed=seed,
        cover=[cover],
        body=b.printed,
        turns=b.turns,
        metadata=meta,
        gold=b.gold(f"appellate-{seed:05d}", _meta("appellate", seed, words, meta)),
        hard_cases=b.hard_cases,
        header="Unofficial Copy - Pending Final Review",
        footer=f"{fake.last_name()} Reporting Company",
        contents=contents,
        word_index=True,
    )


def family_document(
    seed: int, family: str, *, words: int = 1200, videotaped: bool = True
) -> FamilyDoc:
    """The printed content of a transcript of ``family`` (see ``FAMILIES``);
    ``videotaped=False``: a deposition without the videographer's opening turn."""
    if family == "bph2009":
        return _bph2009(seed, words)
    if family == "federal":
        return _federal(seed, words)
    if family == "appellate":
        return _appellate(seed, words)
    if family == "grand_jury":
        return _grand_jury(seed, words)
    if family == "deposition":
        return _deposition(seed, words, videotaped=videotaped)
    raise ValueError(f"unknown layout family {family!r}; one of {', '.join(FAMILIES[1:])}")
