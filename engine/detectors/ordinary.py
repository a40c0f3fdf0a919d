"""Whether a word is an ordinary English word or a name: a fact about English, not about
one transcript. Django-free.

An earlier rule called a name "ordinary" when the same transcript also wrote it in lower
case, so one transcriber's slip (``Mr. pellegrino``) stopped every propagation of that
surname. Now the decision comes from the English word-frequency list of ``wordfreq``
(its data ships inside the package: no network) together with name gazetteers:

* a word of Zipf frequency below ``ORDINARY_ZIPF`` (about once per million words) is
  no ordinary word (``pellegrino`` 2.4, ``okafor`` 2.6, ``tyrell`` 2.9);
* a frequent word that is in a name gazetteer (Faker's common US given names and
  surnames, the given names of ``gender_guesser`` that are not frequent words) is a name
  (``michael``, ``garcia``, ``jennifer``), unless it is also an everyday English word
  (``young``, ``long``, ``black``, ``rose``, ``smith``, ``will``, ``hope``: the list below,
  from general knowledge of English);
* any other frequent word is ordinary.
"""

from __future__ import annotations

from functools import lru_cache

ORDINARY_ZIPF = 3.0
# Above this, a word from gender_guesser's very broad list (which also holds "the", "you")
# counts as an English word; Faker's curated lists are trusted at any frequency.
_BROAD_GAZETTEER_ZIPF = 4.0

# Names that are also everyday English words (general knowledge of English: surnames from
# trades, colours, places and qualities; given names that are nouns, months or virtues).
ENGLISH_NAME_WORDS = frozenset(
    """
    young long black rose smith king price rich brown white green gray grey little short best
    case love lane hill wood woods stone bell hall ford field fields west north south east
    baker hunter cook walker turner porter mason fisher miller carpenter archer barber barker
    bishop booker brewer butler farmer fowler gardner glass golden gold good grant hardy
    harper hart heath holder hood hope horn house hunt judge key knight lamb major marsh
    mills miles moody moon moss noble page park parks pace penny pierce pope potter powers
    prince rice rivers rush sage savage sawyer sharp shepherd shields skinner small snow
    sparks spears stark steele strong summer summers tanner wade wall walls ward ware
    waters watts weaver weeks wells wise wolf fox frost fry fuller gamble garner gates gross
    graves banks ball bass bean beard berry bird bond booth branch bridges bright brooks
    buck burns bush cannon chambers chance chase cherry church clay crane cross crystal
    dale dawn day dean diamond downs drake duke english faith flowers french gay guy joy
    grace holly ivy jade ruby pearl violet olive iris amber daisy heather autumn june april
    august may will mark bill pat sue don bob rob jack jim frank art ray earl sandy rusty
    sunny destiny harmony angel christian drew gene hunter chase price hope charity
    cliff glen dusty misty honey candy ginger sky storm river star major deacon
    reed read rice hay hale hull lord castle petty sellers garner morse wheeler tucker
    swan hawk finch crow
    """.split()
)


@lru_cache(maxsize=1)
def _gazetteer() -> tuple[frozenset[str], frozenset[str]]:
    """(curated names, broad names): Faker's US given names and surnames; gender_guesser's."""
    from faker.providers.person.en_US import Provider

    curated = {
        n.lower()
        for n in (*Provider.last_names, *Provider.first_names_male, *Provider.first_names_female)
    }
    from engine.detectors.name_words import _GENDER as shared
    from engine.detectors.name_words import is_given_name

    is_given_name("Ann")  # loads gender_guesser's detector once, shared with names.py
    broad = {n.lower() for n in getattr(shared[0], "names", {})} if shared else set()
    return frozenset(curated), frozenset(broad)


def is_listed_name(word: str) -> bool:
    """Whether ``word`` is in Faker's curated US name lists (``Cross``, ``Day``): a role or
    English word that is also a common surname."""
    return word.lower().strip(".'’") in _gazetteer()[0]


def in_name_gazetteer(word: str) -> bool:
    """Whether ``word`` is in a name gazetteer at all, English word or not (``Summer``,
    ``Day``, ``Rosa``): a name where the context says it is one."""
    key = word.lower().strip(".'’")
    curated, broad = _gazetteer()
    return key in curated or key in broad or key in ENGLISH_NAME_WORDS


@lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """English Zipf frequency of ``word`` (0 when unknown); case-insensitive."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower().replace("’", "'"), "en")


@lru_cache(maxsize=65536)
def is_name_word(word: str) -> bool:
    """Whether ``word`` is in a name gazetteer and not an everyday English word."""
    key = word.lower().strip(".'’")
    if key in ENGLISH_NAME_WORDS:
        return False
    curated, broad = _gazetteer()
    if key in curated:
        return True
    return key in broad and zipf(key) < _BROAD_GAZETTEER_ZIPF


@lru_cache(maxsize=65536)
def is_ordinary(word: str, threshold: float = ORDINARY_ZIPF) -> bool:
    """Whether ``word`` is an ordinary English word (``young``, ``long``, ``chess``), not a
    name (``pellegrino``, ``okafor``, ``michael``). Case-insensitive."""
    key = word.lower().strip(".'’")
    if len(key) < 2 or not any(c.isalpha() for c in key):
        return True
    if key.endswith(("'s", "’s")):
        key = key[:-2]
    if key in ENGLISH_NAME_WORDS:
        return True
    if zipf(key) < threshold:
        return False
    return not is_name_word(key)
