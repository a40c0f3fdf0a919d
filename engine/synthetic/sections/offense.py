"""Commitment offense, criminal history and record items. Mixed into ``generator._Gen``; Django-free."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from engine.labels import HEIGHT

from .. import vocab
from ..marks import A, D, L, N, O, P, T, stutter
from ..model import m
from .constants import PRIOR_OFFENSES


class Offense:
    """Section methods; expects the helpers of ``generator._Gen``."""

    def commitment_offense(self) -> None:
        ip, v = self.ip, self.victim
        od = self.offense_date
        hour = self.rng.choice((9, 10, 11, 12))
        height = self.pick(("five foot eleven", "six foot two", "five foot seven", "six feet"))
        self.say(
            "pc",
            "I'm going to summarize the commitment offense from the probation officer's report. "
            f"On {self.date_words(od, 'date_words')}, at about {T(f'{hour}:30 p.m.', 'time_digits')}, "
            f"officers from the {O(self.police)} responded to a call near {self.street_address()} "
            f"in {L(self.crime_city)}. They found the victim, {P(v.full)}, who was "
            f"{A(str(self.victim_age), 'age_digits')} years old, with injuries consistent "
            f"with {self.weapon}. {v.pronoun.capitalize()} was taken to {O(self.hospital)}, where "
            f"{v.pronoun} was pronounced deceased. Witnesses described the suspect as a "
            f"{N(self.ethnic)} {ip.rel('male', 'female')}, about {m(HEIGHT, height, 'height_words')}, "
            f"wearing a dark hoodie. {ip.title} {P(ip.last)} was arrested "
            f"{self.pick(('two days', 'a week', 'three weeks'))} later and booked into the "
            f"{O(self.jail)}. The booking sheet lists {ip.object} at "
            f"{m(HEIGHT, self.height_digits(), 'height_digits')} and {self.rng.randint(140, 230)} "
            f"pounds. {ip.title} {P(ip.last)}, you were "
            f"{A(vocab.number_words(self.age_at_offense), 'age_words')} at the time. Is that "
            "summary accurate?",
        )
        self.say(
            "ip",
            f"Yes, sir, that's accurate. {self.um().capitalize()} I take full responsibility for "
            f"what I did to {P(v.first)} and to {v.possessive} family.",
        )
        self.fill("commitment", self.offense_bank(), self.offense_followup, 0.13)

    def offense_bank(self) -> list[Callable[[], None]]:
        v, cf = self.victim, self.codefendant
        sub = self.substance

        def day():
            self.say(
                "pc",
                f"Walk me through that day. What happened before you went over to {P(v.first)}'s place?",
            )
            self.say(
                "ip",
                f"{self.um().capitalize()} that morning I had been drinking with {P(cf.full)}. We "
                f"started around {T('one o' + chr(39) + 'clock', 'time_words')} in the afternoon. "
                f"I was using {sub} too. {stutter('I-I')} wasn't thinking about anybody but myself. "
                f"I was angry because I believed {P(v.first)} had disrespected my family, and I let "
                "that anger take over.",
            )

        def knew():
            self.say("dc", f"How did you know {P(v.full)}?")
            self.say(
                "ip",
                f"We grew up in the same neighborhood in {L(self.crime_city)}. {v.pronoun.capitalize()} "
                f"was a couple years older than me. We went to {O(self.school)} together for a while. "
                f"It wasn't -- it wasn't somebody I hated. {stutter('Th-th-that')}'s what makes it "
                "worse, I think.",
            )

        def weapon():
            self.say("pc", f"Why did you bring {self.weapon} with you?")
            self.say(
                "ip",
                "Because I wanted people to be afraid of me. At that time I believed respect came "
                "from fear. I carried it every day. I told myself it was for protection, but "
                "really it was about my ego and my insecurity.",
            )

        def after():
            self.say("dc", "What did you do right after the crime?")
            self.say(
                "ip",
                f"I ran. I went to my {self.pick(('aunt', 'cousin', 'friend'))}'s house off "
                f"{self.street_address()} and I hid there. I threw the weapon in a canal. I didn't "
                f"call for help. {P(v.first)} was laying there and I didn't call for help, and "
                "that's something I think about every day.",
            )

        def argument():
            earlier = self.offense_date - dt.timedelta(days=self.rng.randint(2, 6))
            self.say(
                "pc",
                f"The record says there was an argument earlier that week, on "
                f"{self.date_words(earlier)}. Tell me about that.",
            )
            self.say(
                "ip",
                f"Yes, sir. We got into it at a party on {L(self.fake.street_name())}. "
                f"{P(v.first)} told me to leave and I felt embarrassed in front of my friends. "
                "Instead of walking away, I went home and I kept thinking about it for days.",
            )

        def victims():
            self.say("dc", "Who do you consider your victims today?")
            self.say(
                "ip",
                f"{P(v.full)}, first. {v.possessive.capitalize()} mother, {v.possessive} kids, the "
                f"whole {P(v.last)} family. The community in {L(self.crime_city)}. My own family too, "
                f"my mother, my {self.sibling.rel('little brother', 'little sister')}. The neighbors "
                "who heard it. The officers who had to respond.",
            )

        def life():
            self.say(
                "pc",
                f"You were {A(vocab.number_words(self.age_at_offense), 'age_words')}. What was "
                "going on in your life at that point?",
            )
            self.say(
                "ip",
                f"I had dropped out of school. I was selling {sub} and using every day. "
                f"My {self.partner.rel('boyfriend', 'girlfriend')}, {P(self.partner.first)}, had "
                f"just left with our {self.child.rel('son', 'daughter')}. I felt like nobody cared, so "
                f"{stutter('I-I-I')} stopped caring about anything.",
            )

        def why():
            self.say("dc", "What is your understanding of why you committed this crime?")
            self.say(
                "ip",
                "Through my self-help, through Victim Impact and through my therapy, I understand "
                "that I had a need to feel powerful because I felt powerless growing up. I used "
                "violence and drugs to cope. I didn't have empathy because I never dealt with my "
                "own pain, you know, and I put that pain on other people.",
            )

        def codefendant():
            self.say("pc", f"What was {P(cf.full)}'s role? The report says {cf.pronoun} drove.")
            self.say(
                "ip",
                f"{P(cf.first)} drove the car, yes. But it was my idea to go over there. I don't "
                f"put that on {P(cf.last)}. {cf.pronoun.capitalize()} got "
                f"{self.pick(('six years', 'eleven years', 'a deal'))} and I haven't talked to "
                f"{cf.object} since {D(str(self.offense_date.year + self.rng.randint(1, 4)))}.",
            )

        def trial():
            self.say("dc", "Did you go to trial or take a plea?")
            self.say(
                "ip",
                f"I went to trial. The trial was in {L(self.county)}, it started on "
                f"{self.date_ordinal(self.offense_date + dt.timedelta(days=self.rng.randint(200, 500)))}. "
                "At the time I still didn't want to admit what I did. I was sentenced in "
                f"{D(self.pick(vocab.MONTHS) + ' ' + str(self.received_date.year))}.",
            )

        def time_of_night():
            self.say("pc", "What time did you leave the house that night?")
            self.say(
                "ip",
                f"Around {T(self.pick(('eleven o' + chr(39) + 'clock', 'ten o' + chr(39) + 'clock', 'midnight')), 'time_words')}. "
                f"My {self.mother.rel('', 'mother')} was asleep. I took the keys and I left.",
            )

        return [
            day,
            knew,
            weapon,
            after,
            argument,
            victims,
            life,
            why,
            codefendant,
            trial,
            time_of_night,
        ]

    def offense_followup(self) -> None:
        q = self.pick(
            (
                "What were you feeling in that moment?",
                "What would you do differently today?",
                "How do you think the victim's family was affected?",
                f"What did your {self.pick(('mother', 'family', 'grandmother'))} say when you were arrested?",
                "When did you start accepting responsibility?",
                "What does accountability mean to you?",
                "Why didn't you walk away?",
                "How do you explain the level of violence?",
            )
        )
        self.say(self.pick(("pc", "dc")), q)
        self.say("ip", self.reflect())

    # ------------------------------------------------------------------ criminal / social history
    def criminal_history(self) -> None:
        self.record_intro = (
            "Now your prior record. I'll read it and you tell me if anything is wrong. You have "
            "a juvenile record and an adult record."
        )
        # A chronological record, read two or three arrests at a time.
        dates = sorted(
            self.some_date(self.birth_year + 12, self.offense_date.year - 1)
            for _ in range(self.rng.randint(8, 22))
        )
        self.arrests = [self.arrest(d) for d in dates]
        self.fill("record", [], self.record_item, 0.20, at_least=1)

    def arrest(self, d: dt.date) -> str:
        year = d.year
        age = (
            year
            - self.birth_year
            - (1 if (d.month, d.day) < (self.birth_date.month, self.birth_date.day) else 0)
        )
        agency = self.pick(
            (
                f"{self.pick(vocab.CA_CITIES)} Police Department",
                f"{self.county.replace(' County', '')} County Sheriff's Department",
                "California Highway Patrol",
            )
        )
        when = self.pick((self.date_numeric(d), self.date_ordinal(d), self.date_words(d)))
        age_said = self.pick(
            (
                f"when you were {A(str(age), 'age_digits')}",
                f"at the age of {A(vocab.number_words(age), 'age_words')}",
                f"at {A(str(age), 'age_digits')} years old",
            )
        )
        if age < 18:
            dispo = self.pick(
                (
                    "The petition was sustained and you were sent to juvenile hall.",
                    "You were counseled and released to your mother.",
                    f"You were placed in a camp in {L(self.county)}.",
                    f"You were committed to the California Youth Authority until "
                    f"{D(str(year + self.rng.randint(1, 3)))}.",
                )
            )
        else:
            dispo = self.pick(
                (
                    f"You received {self.rng.randint(10, 180)} days in the {O(self.jail)}.",
                    f"You were placed on {self.pick(('two', 'three', 'five'))} years of probation.",
                    "That case was dismissed.",
                    "You violated probation on "
                    f"{self.date_numeric(d + dt.timedelta(days=self.rng.randint(60, 400)))}.",
                    f"You were sentenced to {self.pick(('16 months', 'two years', 'three years'))} "
                    f"and served it at {O(self.pick(vocab.OTHER_PRISONS))}.",
                )
            )
        return (
            f"on {when}, {age_said}, you were arrested by the {O(agency)} for "
            f"{self.pick(PRIOR_OFFENSES)}. {dispo}"
        )

    def record_item(self) -> None:
        if self.arrests:
            n = min(len(self.arrests), self.rng.randint(1, 3))
            items, self.arrests = self.arrests[:n], self.arrests[n:]
            joiners = ("Then", "After that,", "Next,", "And")
            text = " ".join(
                (item[0].upper() + item[1:]) if i == 0 else f"{self.pick(joiners)} {item}"
                for i, item in enumerate(items)
            )
            if self.record_intro:
                text, self.record_intro = f"{self.record_intro} {text}", ""
            self.say(
                "pc",
                f"{text} {self.pick(('Is that right?', 'Correct?', 'Anything wrong there?', ''))}",
            )
            self.say(
                "ip",
                self.pick(
                    (
                        "Yes, sir, that's correct.",
                        f"That's right. I was with {P(self.fake.first_name())} that time.",
                        f"Yes. I was using {self.substance} heavy back then.",
                        "I remember that. I was trying to impress the older guys.",
                        f"Correct. My {self.pick(('mother', 'grandmother', 'aunt'))} had to come pick me up.",
                        "Yes, sir. No excuses.",
                        f"That's correct. {self.reflect(1)}",
                    )
                ),
            )
            return
        self.say(
            self.pick(("pc", "dc")),
            self.pick(
                (
                    "Why did you keep getting arrested?",
                    "What was going on with you during those years?",
                    "Did probation ever help you?",
                    "What did juvenile hall teach you?",
                )
            ),
        )
        self.say("ip", self.reflect())
