"""The 14 entity labels of the parole-hearing scheme (Itani et al.). Django-free."""

PERSON = "PERSON"
SPELLED_NAME = "SPELLED_NAME"
SPELLED_OUT_ITEM = "SPELLED_OUT_ITEM"
CDCR_ID = "CDCR_ID"
LOCATION = "LOCATION"
ORGANIZATION = "ORGANIZATION"
DATE = "DATE"
TIME = "TIME"
AGE = "AGE"
HEIGHT = "HEIGHT"
PHONE_NUMBER = "PHONE_NUMBER"
EMAIL_ADDRESS = "EMAIL_ADDRESS"
URL = "URL"
NRP = "NRP"
# Beyond the paper (DESIGN.md): identifying numbers outside its schema — passport, vehicle
# identification (VIN), bank account, driver's licence, juror badge numbers, e-signature ids.
OTHER_ID = "OTHER_ID"

LABELS: tuple[str, ...] = (
    PERSON,
    SPELLED_NAME,
    SPELLED_OUT_ITEM,
    CDCR_ID,
    LOCATION,
    ORGANIZATION,
    DATE,
    TIME,
    AGE,
    HEIGHT,
    PHONE_NUMBER,
    EMAIL_ADDRESS,
    URL,
    NRP,
    OTHER_ID,
)

# A leak of any of these blocks a release.
DIRECT_IDENTIFIERS: frozenset[str] = frozenset(
    {
        PERSON,
        SPELLED_NAME,
        SPELLED_OUT_ITEM,
        CDCR_ID,
        LOCATION,
        DATE,
        TIME,
        PHONE_NUMBER,
        EMAIL_ADDRESS,
        OTHER_ID,
    }
)
