"""Nationalities, ethnicities, religions and political groups (NRP)."""

from __future__ import annotations

import re

from engine.detectors.recognizers.base import Found, RegexRecognizer, _c

# --- nationalities, ethnicities, religions (NRP) ------------------------------------------

_NRP_TERMS = (
    "African[- ]American|Asian[- ]American|Mexican[- ]American|Native American|"
    "Pacific Islander|Puerto Rican|Hispanic|Latino|Latina|Latinos|Latinas|Latinx|Chicano|"
    "Chicana|Caucasian|Asian|Mexican|Salvadoran|Salvadorian|Guatemalan|Honduran|Nicaraguan|"
    "Cuban|Dominican|Colombian|Peruvian|Venezuelan|Brazilian|Argentinian|Filipino|Filipina|"
    "Samoan|Tongan|Hawaiian|Fijian|Vietnamese|Cambodian|Laotian|Hmong|Thai|Chinese|Japanese|"
    "Korean|Pakistani|Armenian|Iranian|Persian|Arab|Arabic|Lebanese|Syrian|Iraqi|Afghan|"
    "Russian|Ukrainian|Irish|Italian|German|Polish|Scottish|French|Portuguese|Greek|"
    "Jamaican|Haitian|Nigerian|Ethiopian|Somali|Eritrean|Egyptian|Moroccan|Israeli|"
    "Muslim|Muslims|Islamic|Catholic|Catholics|Jewish|Jew|Jews|Buddhist|Hindu|Sikh|Baptist|"
    "Methodist|Lutheran|Mormon|Protestant|Pentecostal|Evangelical|Jehovah's Witness|"
    "Jehovah’s Witness|Rastafarian|Navajo|Apache|Cherokee|Sioux|Lakota|Yurok|Pomo|Tongva|"
    "Ohlone|Miwok|Paiute|Yaqui|Democrat|Democrats|Republican|Republicans"
)
# words that are also surnames or common words: a race only beside a person noun or
# after "I'm"/"is"
_RACE_WORDS = r"Black|White|Brown|Native|Indian|English|Christian|American|black|white|hispanic|latino|mexican|asian"
_PERSON_NOUN = (
    r"(?:male|males|female|females|man|men|woman|women|guy|guys|kid|kids|boy|boys|girl|girls|"
    r"family|families|people|person|community|neighborhood|culture|heritage|history|church|"
    r"inmates?|gang|side)"
)
_NRP_WORD = re.compile(rf"(?:{_NRP_TERMS})")
_NRP = _c(rf"(?<![\w'’-])(?P<span>{_NRP_TERMS})(?![\w'’-]|-\w)")
_NRP_CONTEXT = _c(
    rf"(?<![\w'’-])(?P<span>{_RACE_WORDS})(?= {_PERSON_NOUN}\b)"
    rf"|\b(?:I'm|I am|he's|she's|he is|she is|was|were|are|is) (?P<span2>{_RACE_WORDS})(?=[.,;!?])"
)


class NrpRecognizer(RegexRecognizer):
    """Nationalities, ethnicities, religions and political groups: ``Filipino``,
    ``Muslim``, ``a white male``, ``I'm Black.``; ``Welch, White and Caldwell`` is not."""

    ENTITY = "NRP"
    PATTERNS = (("nrp-term", _NRP, 0.9),)

    def find_all(self, text: str) -> list[Found]:
        found = super().find_all(text)
        for match in _NRP_CONTEXT.finditer(text):
            group = "span" if match.group("span") else "span2"
            found.append(Found(*match.span(group), self.ENTITY, 0.9, "nrp-context"))
        return sorted(set(found), key=lambda f: (f.start, f.end))


_GROUP_WORD = re.compile(rf"(?:{_NRP_TERMS}|{_RACE_WORDS})(?:s|es)?", re.IGNORECASE)


def is_group_word(word: str) -> bool:
    """Whether ``word`` names a nationality, ethnicity, religion or political group, in
    the singular or plural (``Lutheran``, ``Lutherans``, ``Samoans``): a group, not a
    person's name."""
    return bool(_GROUP_WORD.fullmatch(word))
