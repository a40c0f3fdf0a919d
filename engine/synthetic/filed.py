"""A layout family's transcript as filed on a court's e-filing system, as text. Django-free.

Transcripts reach researchers as filed copies: every page carries the filing system's
stamp at its top (``Case: 1:19-cv-01234 Document #: 57 Filed: 03/04/19 Page 5 of 90
PageID #:1234``, Northern District of Illinois style), the pages are numbered as filed
(an exhibit starts at the filing's page ``first_page``, not 1), and a text export keeps
no form feed. Where the exporter lost a line break the stamp is glued to the end of the
page's last line, in the middle of a sentence (every ``glue_every``-th page). The
reporter's certificate is a page of its own, double spaced with margin line numbers
1-25 beside blank lines.

``filed_document`` adds the certificate to the family's document (and to its gold);
``render_filed`` draws the text; ``filed_pages`` says on which filed page each canonical
line starts (what the importer's ``Utterance.page`` must be).
"""

from __future__ import annotations

import random
from dataclasses import replace

from faker import Faker

from engine.gold import GoldDoc

from .families import FamilyDoc, family_document
from .family_body import FamilyBody
from .family_render import LINES, _pages, _wrap
from .marks import D, P

CERTIFICATE = "CERTIFICATE OF OFFICIAL REPORTER"
MONTHS = (
    "January February March April May June July August September October November December"
).split()


def filed_document(seed: int, family: str = "federal", *, words: int = 1200) -> FamilyDoc:
    """``family``'s document with the reporter's certificate at its end (with gold)."""
    doc = family_document(seed, family, words=words)
    rng = random.Random(seed * 13 + 7)
    fake = Faker("en_US")
    fake.seed_instance(seed + 424242)
    first, last = fake.first_name(), fake.last_name()
    month, day, year = rng.randint(1, 12), rng.randint(1, 28), rng.randint(2012, 2023)
    cert = FamilyBody()
    cert.line(CERTIFICATE)
    cert.line(
        f"I, {P(f'{first.upper()} {last.upper()}')}, Federal Official Court Reporter, certify "
        "that the foregoing is a correct transcript from the record of proceedings in the "
        "above-entitled matter."
    )
    cert.line(f"Dated: {D(f'{MONTHS[month - 1]} {day}, {year}')}")
    cert.line(f"{P(f'{first.upper()} {last.upper()}')}, CSR")
    shift = len(doc.gold.text) + 1
    extra = cert.gold("certificate", {})
    spans = [replace(s, start=s.start + shift, end=s.end + shift) for s in extra.spans]
    gold = GoldDoc(
        doc.gold.id,
        f"{doc.gold.text}\n{extra.text}",
        [*doc.gold.spans, *spans],
        meta=dict(doc.gold.meta, filed=True),
    )
    case = (
        doc.filing.split(" ")[1]
        if doc.filing
        else f"1:{year % 100:02d}-cv-{rng.randint(100, 9999):05d}"
    )
    filing = f"Case: {case} Document #: {rng.randint(20, 300)} Filed: {month:02d}/{day:02d}/{year % 100:02d}"
    return replace(doc, body=[*doc.body, *cert.printed], gold=gold, filing=filing, clock=False)


def _split(doc: FamilyDoc) -> tuple[list[dict], list[str]]:
    """The printed pages before the certificate, and the certificate's lines."""
    at = doc.body.index(CERTIFICATE)
    pages = _pages(replace(doc, body=doc.body[:at]))
    return pages, doc.body[at:]


def _certificate_page(lines: list[str]) -> list[str]:
    """Double spaced: text on every other numbered line, the numbers alone between."""
    printed = [text for line in lines for text, _ in _wrap(line)]
    out = []
    for n in range(1, LINES + 1):
        k = (n - 3) // 2 if n >= 3 and n % 2 == 1 else None
        text = printed[k] if k is not None and k < len(printed) else ""
        out.append(f"{n:>2}   {text}".rstrip())
    return out


def render_filed(
    doc: FamilyDoc, *, first_page: int = 3, glue_every: int = 3, stamps: bool = True
) -> str:
    """The filed copy as a text export without form feeds (see the module docstring);
    ``stamps=False``: the same transcript before it was filed (its own page numbers on
    lines of their own mark the pages)."""
    pages, certificate = _split(doc)
    total = first_page - 1 + len(pages) + 1 + 4  # the filing goes on after the transcript
    out: list[str] = []
    printed_pages = [[text for text, _ in page["lines"]] for page in pages]
    numbered = [page["kind"] == "body" or doc.numbered_cover for page in pages]
    for index, lines in enumerate([*printed_pages, None]):
        n = first_page + index
        stamp = f"{doc.filing} Page {n} of {total} PageID #:{3000 + n}"
        if not stamps:
            pass
        elif index and index % glue_every == 0 and out:
            out[-1] = f"{out[-1]} {stamp}"  # the line break before the stamp was lost
        else:
            out.append(stamp)
        out.append(f"{'':>60}{index + 1}")  # the transcript's own page number
        if lines is None:
            out.extend(_certificate_page(certificate))
            continue
        for i, text in enumerate(lines, start=1):
            out.append(f"{i:>2}   {text}" if numbered[index] else text)
    return "\n".join(out) + "\n"


def filed_pages(doc: FamilyDoc, *, first_page: int = 3) -> list[int]:
    """The filed page on which each canonical line (each body line) starts."""
    pages, certificate = _split(doc)
    body_first = next(i for i, page in enumerate(pages) if page["kind"] == "body")
    out: list[int] = []
    slot = 0
    for line in doc.body[: len(doc.body) - len(certificate)]:
        out.append(first_page + body_first + slot // LINES)
        slot += len(_wrap(line))
    cert_page = first_page + len(pages)
    return out + [cert_page] * len(certificate)
