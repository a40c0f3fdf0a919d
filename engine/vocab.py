"""The word lists several parts of the engine share, written once. Django-free.

Calendar and number words (detection patterns, date pseudonymization, propagation's
stop words, the synthetic generator), the states by name (addresses, public terms),
California's state prisons (ORGANIZATION subtypes,
synthetic hearings), and the subtypes of the labels (pseudonymization, alignment of
redacted documents). Public vocabulary only: no person's name is here.
"""

from __future__ import annotations

from dataclasses import dataclass

MONTHS: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
# "Sept" before "Sep": regular expressions built from this try it first.
MONTH_ABBREVIATIONS: tuple[str, ...] = (
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "Jun",
    "Jul",
    "Aug",
    "Sept",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
)
WEEKDAYS: tuple[str, ...] = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)
# 0..19 by index
NUMBER_WORDS: tuple[str, ...] = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
# 20, 30, ... 90 (index 2..9; 0 and 1 empty)
TENS: tuple[str, ...] = (
    "",
    "",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
)
UNIT_WORDS = NUMBER_WORDS[1:10]  # one .. nine
TEEN_WORDS = NUMBER_WORDS[10:20]  # ten .. nineteen
TENS_WORDS = TENS[2:]  # twenty .. ninety


def number_words(n: int) -> str:
    """0..99 in words: ``twenty-one``."""
    if n < 20:
        return NUMBER_WORDS[n]
    tens, unit = divmod(n, 10)
    return TENS[tens] + ("" if unit == 0 else "-" + NUMBER_WORDS[unit])


def alternation(words) -> str:
    """``a|b|c`` for a regular expression (the words are plain letters)."""
    return "|".join(words)


@dataclass(frozen=True, slots=True)
class Prison:
    """A California state prison (a public institution, not personal data)."""

    name: str
    aliases: tuple[str, ...] = ()
    city: str = ""  # where the synthetic hearings place it (those with a city only)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


# The ones with a city come first, in the order the synthetic generator draws them from
# (its seeds depend on that order: append, do not reorder).
CALIFORNIA_PRISONS: tuple[Prison, ...] = (
    Prison("Mule Creek State Prison", ("MCSP",), "Ione"),
    Prison("Avenal State Prison", ("ASP",), "Avenal"),
    Prison("Chuckawalla Valley State Prison", ("CVSP",), "Blythe"),
    Prison("Ironwood State Prison", ("ISP",), "Blythe"),
    Prison("Folsom State Prison", ("FSP",), "Represa"),
    Prison("High Desert State Prison", ("HDSP",), "Susanville"),
    Prison("Kern Valley State Prison", ("KVSP",), "Delano"),
    Prison("North Kern State Prison", ("NKSP",), "Delano"),
    Prison("Pelican Bay State Prison", ("PBSP",), "Crescent City"),
    Prison("Pleasant Valley State Prison", ("PVSP",), "Coalinga"),
    Prison("Sierra Conservation Center", ("SCC",), "Jamestown"),
    Prison("Valley State Prison", ("VSP",), "Chowchilla"),
    Prison("Wasco State Prison", ("WSP",), "Wasco"),
    Prison("Centinela State Prison", ("CEN",), "Imperial"),
    Prison("Calipatria State Prison", ("CAL",), "Calipatria"),
    Prison("California Medical Facility", ("CMF",), "Vacaville"),
    Prison("California Rehabilitation Center", ("CRC",), "Norco"),
    Prison(
        "Substance Abuse Treatment Facility",
        ("California Substance Abuse Treatment Facility", "SATF"),
        "Corcoran",
    ),
    Prison(
        "San Quentin Rehabilitation Center",
        ("San Quentin State Prison", "San Quentin", "SQ"),
        "San Quentin",
    ),
    Prison("California Health Care Facility", ("CHCF",), "Stockton"),
    Prison("California City Correctional Facility", ("CAC",)),
    Prison("California Correctional Center", ("CCC",)),
    Prison("California Correctional Institution", ("CCI",)),
    Prison("Central California Women's Facility", ("CCWF",)),
    Prison("California Institution for Men", ("CIM",)),
    Prison("California Institution for Women", ("CIW",)),
    Prison("California Men's Colony", ("CMC",)),
    Prison("California State Prison, Corcoran", ("Corcoran State Prison", "COR")),
    Prison("Correctional Training Facility", ("CTF", "Soledad")),
    Prison("Deuel Vocational Institution", ("DVI",)),
    Prison("California State Prison, Los Angeles County", ("LAC",)),
    Prison("Richard J. Donovan Correctional Facility", ("RJD", "Donovan")),
    Prison("California State Prison, Sacramento", ("New Folsom", "SAC")),
    Prison("California State Prison, Solano", ("Solano State Prison", "SOL")),
    Prison("Salinas Valley State Prison", ("SVSP",)),
)

# The United States' states other than California (the address patterns spell California
# with its abbreviations), by name: addresses ("Stamford, Connecticut, 06902") and the
# public terms (a state's name is a public place, never a person's).
US_STATES: tuple[str, ...] = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "Colorado", "Connecticut", "Delaware",
    "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas",
    "Kentucky", "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota",
    "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada", "New Hampshire", "New Jersey",
    "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon",
    "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas",
    "Utah", "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming",
)  # fmt: skip

# Subtypes of the labels (the paper's finer tags; pseudonymization and alignment).
LOCATION_SUBTYPES = ("STATE", "COUNTRY", "CITY", "COUNTY", "ADDRESS", "LOCATION")
ORGANIZATION_SUBTYPES = (
    "PRISON",
    "JAIL",
    "POLICE_DEPARTMENT",
    "HOSPITAL",
    "SCHOOL",
    "COMPANY",
    "ORGANIZATION",
)
NRP_SUBTYPES = ("NATIONALITY", "RELIGION", "POLITICAL_GROUP")
