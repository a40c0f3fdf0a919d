"""Word lists for the synthetic hearings. Django-free.

People's names are NOT here: they come from Faker (seeded). Places and facilities are
public geography and public institutions (not personal data); companies, hospitals,
schools and programmes are built from Faker parts.
"""

from __future__ import annotations

from engine.vocab import CALIFORNIA_PRISONS, MONTHS, NUMBER_WORDS, TENS, WEEKDAYS, number_words

__all__ = ["MONTHS", "NUMBER_WORDS", "TENS", "WEEKDAYS", "number_words"]

# CDCR institutions (public facilities) and the city they are in (``engine.vocab``).
INSTITUTIONS: tuple[tuple[str, str], ...] = tuple(
    (prison.name, prison.city) for prison in CALIFORNIA_PRISONS if prison.city
)

# Other prisons mentioned in a prison history (ORGANIZATION).
OTHER_PRISONS: tuple[str, ...] = tuple(name for name, _ in INSTITUTIONS)

CA_CITIES: tuple[str, ...] = (
    "Los Angeles",
    "San Diego",
    "San Jose",
    "San Francisco",
    "Fresno",
    "Sacramento",
    "Long Beach",
    "Oakland",
    "Bakersfield",
    "Anaheim",
    "Santa Ana",
    "Riverside",
    "Stockton",
    "Chula Vista",
    "Irvine",
    "Fremont",
    "San Bernardino",
    "Modesto",
    "Fontana",
    "Oxnard",
    "Moreno Valley",
    "Glendale",
    "Huntington Beach",
    "Santa Clarita",
    "Garden Grove",
    "Oceanside",
    "Rancho Cucamonga",
    "Ontario",
    "Corona",
    "Elk Grove",
    "Palmdale",
    "Hayward",
    "Salinas",
    "Pomona",
    "Escondido",
    "Sunnyvale",
    "Torrance",
    "Pasadena",
    "Fullerton",
    "Visalia",
    "Victorville",
    "Vallejo",
    "Compton",
    "Richmond",
    "Inglewood",
    "Merced",
    "Redding",
    "Chico",
    "Turlock",
    "Lodi",
    "Madera",
    "Hanford",
    "Delano",
    "Porterville",
    "Hemet",
    "Indio",
    "Watsonville",
    "Santa Maria",
    "Yuba City",
    "Eureka",
    "Barstow",
    "El Centro",
    "Norwalk",
    "Downey",
    "Whittier",
    "Carson",
    "Lancaster",
    "Tulare",
)

CA_COUNTIES: tuple[str, ...] = (
    "Los Angeles County",
    "San Diego County",
    "Orange County",
    "Riverside County",
    "San Bernardino County",
    "Santa Clara County",
    "Alameda County",
    "Sacramento County",
    "Contra Costa County",
    "Fresno County",
    "Kern County",
    "San Joaquin County",
    "Stanislaus County",
    "Tulare County",
    "Monterey County",
    "Merced County",
    "Sonoma County",
    "Ventura County",
    "Solano County",
    "Butte County",
    "Shasta County",
)

# county -> seat used for "X County Jail" and the sheriff's department
OTHER_STATES: tuple[str, ...] = (
    "Texas",
    "Arizona",
    "Nevada",
    "Oregon",
    "Washington",
    "Oklahoma",
    "Louisiana",
    "Mississippi",
    "Georgia",
    "Illinois",
    "New Mexico",
    "Colorado",
    "Utah",
    "Idaho",
)

OUT_OF_STATE_CITIES: tuple[tuple[str, str], ...] = (
    ("Houston", "Texas"),
    ("Austin", "Texas"),
    ("Tyler", "Texas"),
    ("Dallas", "Texas"),
    ("Phoenix", "Arizona"),
    ("Tucson", "Arizona"),
    ("Las Vegas", "Nevada"),
    ("Reno", "Nevada"),
    ("Portland", "Oregon"),
    ("Jackson", "Mississippi"),
    ("Shreveport", "Louisiana"),
    ("Albuquerque", "New Mexico"),
    ("Denver", "Colorado"),
    ("Chicago", "Illinois"),
)

COUNTRIES: tuple[str, ...] = (
    "Mexico",
    "El Salvador",
    "Guatemala",
    "the Philippines",
    "Vietnam",
    "Honduras",
    "Jordan",
    "Samoa",
    "Cambodia",
    "Laos",
)

# Surnames (from Faker's en_US list) and first names that are also places: hard cases.
PLACE_SURNAMES: dict[str, str] = {
    "Houston": "Houston, Texas",
    "Austin": "Austin, Texas",
    "Tyler": "Tyler, Texas",
    "Jackson": "Jackson, Mississippi",
    "Compton": "Compton",
    "Richmond": "Richmond",
    "Carson": "Carson",
    "Salinas": "Salinas",
    "Jordan": "Jordan",
    "Hamilton": "Hamilton, Ohio",
    "Warren": "Warren, Michigan",
    "Franklin": "Franklin, Tennessee",
}

# Surnames never drawn for people: they read as other words in these transcripts
# ("Young" is also the phonetic alphabet's Y) or collide with domain terms.
AVOID_SURNAMES: frozenset[str] = frozenset(
    {"Young", "King", "Paul", "John", "Union", "Ocean", "Board", "Parole"}
)

NATIONALITIES: tuple[str, ...] = (
    "Mexican",
    "Salvadoran",
    "Guatemalan",
    "Filipino",
    "Vietnamese",
    "Samoan",
    "Honduran",
    "Cambodian",
    "Irish",
    "Italian",
)
ETHNIC_GROUPS: tuple[str, ...] = (
    "Hispanic",
    "Latino",
    "African American",
    "Black",
    "Native American",
    "Pacific Islander",
    "Asian American",
    "white",
)
RELIGIONS: tuple[str, ...] = (
    "Catholic",
    "Christian",
    "Muslim",
    "Buddhist",
    "Baptist",
    "Jehovah's Witness",
    "Pentecostal",
    "Native American spiritual",
)
RELIGIOUS_GROUP_NOUNS: tuple[str, ...] = ("Catholic", "Christian", "Muslim", "Buddhist")

# LAPD phonetic alphabet used on the record.
PHONETIC: dict[str, str] = {
    "A": "Adam",
    "B": "Boy",
    "C": "Charles",
    "D": "David",
    "E": "Edward",
    "F": "Frank",
    "G": "George",
    "H": "Henry",
    "I": "Ida",
    "J": "John",
    "K": "King",
    "L": "Lincoln",
    "M": "Mary",
    "N": "Nora",
    "O": "Ocean",
    "P": "Paul",
    "Q": "Queen",
    "R": "Robert",
    "S": "Sam",
    "T": "Tom",
    "U": "Union",
    "V": "Victor",
    "W": "William",
    "X": "X-ray",
    "Y": "Young",
    "Z": "Zebra",
}


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


CA_AREA_CODES: tuple[str, ...] = (
    "209",
    "213",
    "310",
    "323",
    "408",
    "415",
    "510",
    "530",
    "559",
    "562",
    "619",
    "626",
    "650",
    "661",
    "707",
    "714",
    "760",
    "805",
    "818",
    "831",
    "858",
    "909",
    "916",
    "925",
    "949",
    "951",
)

OFFENSES: tuple[tuple[str, str], ...] = (
    ("second-degree murder", "15 years to life"),
    ("first-degree murder", "25 years to life"),
    ("attempted murder", "seven years to life"),
    ("second-degree murder with a firearm enhancement", "25 years to life"),
    ("first-degree murder", "26 years to life"),
)
WEAPONS: tuple[str, ...] = ("a handgun", "a knife", "a baseball bat", "a .38 revolver", "a shotgun")

SUBSTANCES: tuple[str, ...] = (
    "alcohol",
    "marijuana",
    "methamphetamine",
    "crack cocaine",
    "heroin",
    "PCP",
    "pills",
)

SELF_HELP: tuple[str, ...] = (
    "Alcoholics Anonymous",
    "Narcotics Anonymous",
    "Alternatives to Violence",
    "Criminals and Gangmembers Anonymous",
    "Getting Out by Going In",
    "Anger Management",
    "Victim Impact",
    "Celebrate Recovery",
    "Houses of Healing",
    "Cognitive Behavioral Intervention",
    "Denial Management",
    "Long-Term Offender Program",
    "Restorative Justice",
    "Emotional Intelligence",
    "Parenting",
    "Thinking for a Change",
)
VOCATIONS: tuple[str, ...] = (
    "Building Maintenance",
    "Electronics",
    "Welding",
    "Machine Shop",
    "HVAC",
    "Carpentry",
    "Office Services",
    "Plumbing",
    "Auto Body",
    "Landscaping",
    "Computer Literacy",
    "Small Engine Repair",
)
PRISON_JOBS: tuple[str, ...] = (
    "porter",
    "clerk",
    "kitchen worker",
    "yard crew",
    "tutor",
    "library clerk",
    "firefighter",
    "laundry worker",
    "peer mentor",
    "teacher's aide",
)
DEGREES: tuple[str, ...] = (
    "an associate's degree in sociology",
    "an associate's degree in business",
    "an associate's degree in general studies",
    "college credits through the Rising Scholars program",
)

RISK_LEVELS: tuple[str, ...] = ("low", "moderate", "low to moderate", "elevated", "high")

TRANSCRIPTION_SUFFIXES: tuple[str, ...] = (
    "Transcription Services",
    "Court Reporting",
    "Transcription",
    "Legal Transcripts",
    "Reporting Services",
)

STREET_SUFFIXES: tuple[str, ...] = (
    "Street",
    "Avenue",
    "Boulevard",
    "Drive",
    "Lane",
    "Way",
    "Court",
    "Road",
)
