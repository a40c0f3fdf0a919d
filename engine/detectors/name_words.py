"""The words that are names, titles and roles, as lists and lookups. Django-free.

Titles and honorifics (``TITLES``), given names (``is_given_name``: gender_guesser's list
and ``WORD_GIVEN_NAMES``), the role words of speaker tags (``ROLE_WORDS``,
``is_role_word``) and the speaker tag at a line start (``SPEAKER_TAG``). Its own module
because the name parts (``names``), the names a transcript gives (``given``), the names
that are role words (``role_names``), ordinary words (``ordinary``) and public terms
(``public``) all read these lists, and those modules call each other: the lists import
none of them.
"""

import re

TITLES = frozenset(
    {
        "mr",
        "mrs",
        "ms",
        "miss",
        "mx",
        "dr",
        "doctor",
        "prof",
        "professor",
        "sir",
        "madam",
        "judge",
        "justice",
        "officer",
        "deputy",
        "sergeant",
        "sgt",
        "lieutenant",
        "lt",
        "captain",
        "capt",
        "detective",
        "det",
        "agent",
        "commissioner",
        "presiding",
        "deputy commissioner",
        "attorney",
        "counsel",
        "inmate",
        "chaplain",
        "warden",
        "rev",
        "reverend",
        "father",
        "sister",
        "brother",
        "jr",
        "sr",
        "ii",
        "iii",
        "iv",
        "esq",
        # peerage and abbreviated titles ("Lord Varga", "Gen. Okonkwo", "Hon. Alden")
        "lord",
        "lady",
        "dame",
        "baron",
        "baroness",
        "gen",
        "sen",
        "rep",
        "gov",
        "hon",
        "honorable",
        "atty",
        "col",
        "maj",
        "cpl",
        "adm",
        "cmdr",
        "insp",
        "supt",
    }
)


# Words of speaker tags that name a role, not a person (lower case).
ROLE_WORDS = frozenset(
    """
    presiding deputy associate chief commissioner commissioners district attorney attorneys
    incarcerated person persons inmate prisoner victim victim's victims next of kin family
    member members support interpreter translator correctional officer officers hearing
    monitor the court clerk bailiff reporter witness juror counsel public defender
    prosecutor people state board panel chair chairman chairperson chairwoman president
    speaker unidentified unknown voice male female defendant plaintiff petitioner
    respondent appellant appellee justice judge honorable sergeant lieutenant captain
    detective agent psychologist psychiatrist doctor staff representative counselor for
    and by all both mr mrs ms miss mx dr sir madam q a jr sr ii iii iv esq rep parole
    commission california department corrections rehabilitation no nos number juror jurors
    general inaudible unintelligible crosstalk multiple speakers everyone audience hon honor
    mister missus participant observer stenographer transcriber lawyer facilitator
    foreperson foreman forewoman grand videographer videotape operator
    """.split()
)


def is_role_word(word: str) -> bool:
    """Whether a word of a speaker tag names a role or title, not a person."""
    word = word.lower().rstrip(".")
    if word.startswith(("i'", "i’")):  # I'm, I've, I'll: the pronoun
        return True
    return word in ROLE_WORDS or word in TITLES or len(word) < 2


# "PRESIDING COMMISSIONER ALDEN: ..." at a line start: a tag has no lower-case letter.
SPEAKER_TAG = re.compile(r"(?m)^[ \t]*([^\W\d_a-z][^\n:a-z]{0,79}):[ \t]")


_GENDER: list = []


# Given names that are everyday English words and that gender_guesser's list lacks
# (general knowledge of English given names: seasons, weather, nature and virtues).
WORD_GIVEN_NAMES = frozenset(
    """summer winter sky storm brook haven journey harmony melody trinity serenity sunny
    honey""".split()
)


def is_given_name(word: str) -> bool:
    """Whether ``word`` is a known given name (gender_guesser's list: ``Amber``, ``Logan``,
    ``Franklin``; and ``WORD_GIVEN_NAMES``: ``Summer``); ``Eureka``, ``Kaiser`` are not.
    Case-insensitive."""
    if not word or not word[:1].isalpha():
        return False
    if word.lower() in WORD_GIVEN_NAMES:
        return True
    if not _GENDER:
        import gender_guesser.detector

        _GENDER.append(gender_guesser.detector.Detector(case_sensitive=False))
    return _GENDER[0].get_gender(word) in {"male", "female", "mostly_male", "mostly_female"}
