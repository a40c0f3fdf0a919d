"""Social history: childhood, family, schooling. Mixed into ``generator._Gen``; Django-free."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from engine.labels import HEIGHT

from .. import vocab
from ..marks import A, D, L, N, O, P
from ..model import m
from .constants import OPENERS


class Childhood:
    """Section methods; expects the helpers of ``generator._Gen``."""

    def childhood(self) -> None:
        self.say(
            "pc",
            f"All right. Let's talk about your background. You were born in {L(self.hometown)} on "
            f"{self.date_ordinal(self.birth_date)}. Tell me about your family.",
        )
        self.say(
            "ip",
            f"Yes, sir. My mother is {P(self.mother.full)} and my father is {P(self.father.full)}. "
            f"My father is {N(self.nationality)} and we were raised {N(self.religion)}. "
            f"I have a {self.sibling.rel('brother', 'sister')}, {P(self.sibling.first)}. We lived "
            f"with my grandmother, {P(self.grandmother.full)}, on {self.street_address()} because "
            f"my parents were always fighting. In the "
            f"{D(f'{(self.birth_year // 10 + 1) * 10}s', 'date_decade')} we moved to "
            f"{L(self.second_city)}.",
        )
        pp = self.place_person
        self.say(
            "pc",
            f"Your file mentions a {P(pp.full)}. Who is that?",  # one mention: the whole name
        )
        place = self.place_of_name
        if ", " in place:
            city, state = place.split(", ")
            where = f"{L(city, 'place_same_as_name')}, {L(state)}"
        else:
            where = L(place, "place_same_as_name")
        self.say(
            "ip",
            f"That's my {pp.rel('uncle', 'aunt')}. {pp.title} {P(pp.last, 'name_also_place')} was "
            f"the one who took me in when I was {A(str(self.rng.randint(12, 15)), 'age_digits')}. "
            f"Later {pp.pronoun} moved out to {where}, but we still talk every month.",
        )
        self.fill("childhood", self.childhood_bank(), self.childhood_followup, 0.30)

    def childhood_bank(self) -> list[Callable[[], None]]:
        gm = self.grandmother

        def abuse():
            self.say("pc", "Were you ever abused as a child?")
            self.say(
                "ip",
                f"{self.um().capitalize()} yes. My father would beat us when he was drinking. "
                f"The first time I remember I was {A(vocab.number_words(self.rng.randint(5, 9)), 'age_words')}. "
                f"My mother called the {O(self.hometown + ' Police Department')} once but nothing "
                "really changed.",
            )

        def drugs():
            age = self.rng.randint(11, 14)
            self.say("dc", "When did you start using drugs or alcohol?")
            self.say(
                "ip",
                f"I started drinking at the age of {A(vocab.number_words(age), 'age_words')}, and "
                f"then {self.substance} by {A(str(age + 2), 'age_digits')}. Back in "
                f"{D(chr(39) + str(self.birth_year + age + 3)[-2:], 'date_apostrophe_year')} it got "
                "really bad. I was using every day.",
            )

        def school():
            self.say("pc", "How far did you get in school?")
            self.say(
                "ip",
                f"I went to {O(self.middle_school)} and then {O(self.school)}. I stopped going in "
                f"the tenth grade. I got my GED in here, on {self.date_numeric(self.ged_date)}.",
            )

        def gang():
            self.say("dc", "Were you involved with a gang?")
            self.say(
                "ip",
                f"Yes. I got jumped in when I was {A(str(self.rng.randint(12, 16)), 'age_digits')}. "
                f"The older homies in {L(self.hometown)} were like family to me. I dropped out of "
                f"that lifestyle in {D(str(self.hearing_date.year - self.rng.randint(5, 12)))} and I "
                "debriefed.",
            )

        def work():
            job_date = self.offense_date - dt.timedelta(days=self.rng.randint(200, 900))
            self.say("pc", "Did you ever work before your arrest?")
            self.say(
                "ip",
                f"A little. I worked at {O(self.fake.company())} in {L(self.city())} doing "
                f"warehouse work, starting in {D(f'{vocab.MONTHS[job_date.month - 1]} of {job_date.year}')}. "
                f"My supervisor, {self.new_name()}, tried to help me, but I kept showing up late or "
                "not at all.",
            )

        def juvenile():
            d = self.some_date(self.birth_year + 13, self.birth_year + 16)
            self.say("dc", "Tell me about juvenile hall.")
            self.say(
                "ip",
                f"I was arrested on {self.date_numeric(d)} for a burglary and went to juvenile "
                f"hall in {L(self.county)}. Then I was at a camp for about "
                f"{self.pick(('six months', 'nine months', 'a year'))}.",
            )

        def tall():
            self.say("pc", "How tall were you back then? The report describes a big kid.")
            self.say(
                "ip",
                f"I was already {m(HEIGHT, self.height_digits(), 'height_digits')} by ninth grade, "
                "so people treated me like I was older than I was.",
            )

        def grandmother():
            self.say("dc", "Who was there for you growing up?")
            self.say(
                "ip",
                f"My grandmother, {P(gm.first)}. She took us to {N(self.pick(vocab.RELIGIOUS_GROUP_NOUNS))} "
                f"services every {D(self.pick(('Sunday', 'Saturday')))}. She passed away in "
                f"{D(str(self.offense_date.year + self.rng.randint(1, 8)))} while I was in here.",
            )

        def partner():
            pt, ch = self.partner, self.child
            self.say("pc", "Were you ever married? Any children?")
            self.say(
                "ip",
                f"I was with {P(pt.full)} for about four years. We have a "
                f"{ch.rel('son', 'daughter')}, {P(ch.first)}, who was born on "
                f"{self.date_words(self.child_birth)}. {ch.pronoun.capitalize()}'s "
                f"{A(vocab.number_words(self.hearing_date.year - self.child_birth.year), 'age_words')} "
                f"now. {ch.pronoun.capitalize()} lives in {L(self.city())} with {ch.possessive} mother.",
            )

        def identity():
            self.say("dc", "How do you identify culturally?")
            self.say(
                "ip",
                f"I'm {N(self.ethnic)}. My father's side is {N(self.nationality)}, from "
                f"{L(self.pick(vocab.COUNTRIES))}. I didn't learn much about that culture until I "
                f"got locked up and joined the {self.pick(('cultural group', N('Native Hawaiian') + ' circle', N('Latino') + ' heritage group', N('Black') + ' history study group'))}.",
            )

        def siblings():
            s = self.sibling
            self.say("pc", f"Tell me about {P(s.first)}.")
            self.say(
                "ip",
                f"{P(s.first)} is {A(str(self.rng.randint(2, 6)), 'age_digits')} years younger "
                f"than me. {s.pronoun.capitalize()} works at {O(self.pick(('Kaiser Permanente', 'a hospital', self.fake.company())))} "
                f"now. {s.pronoun.capitalize()} never got in trouble. I used to feel like my "
                f"parents loved {s.object} more, but today I'm just proud of {s.object}.",
            )

        return [
            abuse,
            drugs,
            school,
            gang,
            work,
            juvenile,
            tall,
            grandmother,
            partner,
            identity,
            siblings,
        ]

    def childhood_followup(self) -> None:
        k = self.rng.randrange(5)
        age = self.rng.randint(6, 17)
        year = self.birth_year + age
        who = self.pick(("pc", "dc"))
        if k == 0:
            city = self.city()
            self.say(
                who, f"The social history says you moved to {L(city)} around {D(str(year))}. Why?"
            )
            self.say(
                "ip",
                f"{self.pick(OPENERS)} My mother got a job at {O(self.fake.company())} out there. "
                f"We stayed with {P(self.fake.first_name())}, a friend of hers, on {self.street_address()}. "
                f"I was {A(vocab.number_words(age), 'age_words')} and I didn't know anybody.",
            )
        elif k == 1:
            rel = self.person()
            self.say(who, f"Who is {P(rel.full)}? The name comes up in the probation report.")
            self.say(
                "ip",
                f"That was my {rel.rel('coach', 'teacher')} at {O(self.school)}. "
                f"{rel.title} {P(rel.last)} tried to get me into {self.pick(('football', 'boxing', 'the music program', 'a summer job'))} "
                f"when I was {A(str(age), 'age_digits')}. I didn't listen back then.",
            )
        elif k == 2:
            self.say(who, "Were you ever in foster care or group homes?")
            self.say(
                "ip",
                f"For a while, yes. In {D(str(year))} my mother went to the {O(self.pick(vocab.CA_COUNTIES) + ' Jail')} "
                f"and we went to a group home in {L(self.city())} for about "
                f"{self.pick(('six months', 'a year', 'two years'))}. That's where I learned to fight.",
            )
        elif k == 3:
            d = self.some_date(self.birth_year + 8, self.birth_year + 17)
            self.say(who, "Any deaths in the family when you were young?")
            self.say(
                "ip",
                f"My {self.pick(('uncle', 'cousin', 'best friend', 'older cousin'))} "
                f"{P(self.fake.first_name_male())} was shot on {self.date_words(d)} in "
                f"{L(self.pick(vocab.CA_CITIES))}. He was {A(str(self.rng.randint(15, 24)), 'age_digits')}. "
                f"{self.reflect(1)}",
            )
        else:
            self.say(
                who,
                self.pick(
                    (
                        "How did that affect you?",
                        "How do you see your childhood today?",
                        "Who were your role models back then?",
                        "How did your neighborhood shape your thinking?",
                    )
                ),
            )
            self.say("ip", self.reflect())

    # ------------------------------------------------------------------ programming
