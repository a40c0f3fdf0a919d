"""The hearing's middle sections: commitment offense, criminal and social history,
post-conviction programming, risk assessment, parole plans, questions, closing and decision.

Each section first draws from a bank of one-off exchanges (each used at most once, in a
seeded random order), then fills its word budget with record items made of fresh random
data (a prior arrest, a chrono, a support letter, ...), so long hearings stay varied.
Mixed into ``generator._Gen``. Django-free.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from engine.labels import CDCR_ID, HEIGHT

from . import model, vocab
from .marks import A, D, L, N, O, P, T, phonetic, spelled, stutter
from .model import m

# Words after the attorney's questions that do not depend on the target (closing statements,
# recess, ruling, adjournment, certification), and after the reasons of the decision.
TAIL_WORDS = 850
CERTIFICATION_WORDS = 290

PRIOR_OFFENSES = (
    "petty theft",
    "possession of a controlled substance",
    "vandalism",
    "joyriding",
    "burglary",
    "driving under the influence",
    "possession of a firearm",
    "battery",
    "receiving stolen property",
    "resisting arrest",
    "trespassing",
    "robbery",
    "possession for sale",
    "assault with a deadly weapon",
    "grand theft auto",
    "curfew violation",
)
VIOLATIONS = (
    "fighting",
    "possession of a cell phone",
    "possession of alcohol",
    "refusing a cell move",
    "mutual combat",
    "possession of a weapon",
    "disobeying an order",
    "late for count",
    "possession of inmate-manufactured alcohol",
    "battery on an incarcerated person",
)
FEELINGS = (
    "shame",
    "fear",
    "anger",
    "loneliness",
    "insecurity",
    "resentment",
    "abandonment",
    "jealousy",
    "hopelessness",
    "rejection",
)
LESSONS = (
    "that my actions have a ripple effect on everybody around me",
    "how to identify my triggers before I act on them",
    "that I was using drugs to numb what I was feeling",
    "that respect is something you earn by how you treat people",
    "how my childhood trauma shaped my thinking, without making it an excuse",
    "to sit with uncomfortable feelings instead of reacting",
    "how to communicate instead of shutting down",
    "that asking for help is a strength",
    "about the impact my crime had on the victim's family and the community",
    "to recognize my criminal thinking and challenge it",
    "that I was seeking validation from the wrong people",
    "how to set boundaries with people from my past",
    "what empathy actually means, feeling what another person feels",
    "that isolation is one of my biggest warning signs",
)
REFLECTIONS = (
    "I carry {victim}'s name with me every day.",
    "Before, I never thought about the consequences for anybody else.",
    "I didn't know how to deal with {feeling}, so I covered it up with violence.",
    "Today I can talk about it in group without getting defensive.",
    "It took me a long time to be honest with myself about that.",
    "My {relative} told me on a visit that she could see the change in me.",
    "I used to blame everybody else, my father, the neighborhood, the police.",
    "I share that with the younger guys on the yard so they don't go down the same road.",
    "I wrote about it in my step work for {program}.",
    "I think about the {victim_last} family when I make decisions now.",
    "I was scared all the time, but I acted like I wasn't.",
    "That was the {feeling} talking, and I didn't even know it back then.",
    "I didn't have any tools, you know, I just reacted.",
    "It's something I'm still working on, honestly.",
    "I learned {lesson}.",
    "What I took from that is {lesson}.",
    "The facilitator, {facilitator}, pushed me to look deeper at it.",
    "Now when I feel {feeling} coming up, I take a step back and breathe.",
    "My sponsor says I have to keep doing the work every day, not just before a hearing.",
    "I owe it to {victim} to live differently.",
    "When I got here I was still angry at the world, and it showed in my write-ups.",
    "In {program} we did an exercise where I had to write a letter from {victim}'s mother to me.",
    "I realized I had been running from {feeling} my whole life.",
    "My {relative} is getting older, and I want to be there for her instead of her worrying about me.",
    "The old me would have said it was the other guy's fault.",
    "I don't need the approval of the yard anymore.",
    "I keep a journal, and I write down every time I feel {feeling} and what I did with it.",
    "I mentor guys in {program} now, and I see myself in a lot of them.",
    "Honestly, I'm still learning how to forgive myself without letting myself off the hook.",
    "What {facilitator} told me was that insight means nothing without changed behavior.",
    "I was the one who brought the violence, nobody else.",
    "There's not a day that goes by that I don't think about what I took from that family.",
    "My {child} asked me once why I was in here, and I told {child_obj} the truth.",
    "I stopped hanging around the people who were still in the politics of the yard.",
    "Learning {lesson} changed how I deal with conflict.",
)
OPENERS = (
    "Yes, sir.",
    "Yes, ma'am.",
    "That's correct.",
    "Yes.",
    "Uh, yes.",
    "Right.",
    "Okay.",
    "That's right.",
    "Um, yes, I remember that.",
    "Yes, Commissioner.",
    "Correct.",
)
RELATIVES_M = ("brother", "uncle", "cousin", "nephew", "godfather", "son", "friend")
RELATIVES_F = ("sister", "aunt", "cousin", "niece", "godmother", "daughter", "friend")
OFFERS = (
    "offers you a place to stay",
    "offers you transportation to your appointments",
    "offers you financial support until you find work",
    "offers you a job at {company}",
    "offers to help you get your driver's license",
    "says {pronoun} will be part of your support network",
    "offers you a room in {possessive} home on {address}",
)
RISK_FACTORS = (
    "history of problems with violence, beginning in adolescence",
    "history of substance use problems",
    "history of problems with relationships",
    "history of problems with employment",
    "exposure to trauma in childhood",
    "antisocial attitudes earlier in the term",
    "problems with treatment or supervision response",
    "unstable release plans in the past",
    "limited insight into the role of substances in the life crime",
    "a pattern of impulsive decision making",
)
PROTECTIVE = (
    "sustained sobriety",
    "consistent self-help participation",
    "positive work reports",
    "strong family support",
    "advancing age",
    "completion of vocational training",
    "remorse that appeared genuine",
    "the absence of recent rule violations",
)


class Sections:
    """Section methods; expects the helpers of ``generator._Gen``."""

    # ------------------------------------------------------------------ machinery
    def fill(
        self,
        name: str,
        bank: list[Callable[[], None]],
        filler: Callable[[], None],
        until: float,
        *,
        at_least: int = 0,
    ) -> None:
        """Run one-off exchanges from ``bank``, then ``filler``, until the hearing has
        ``until`` x target words (and at least ``at_least`` items)."""
        self.section_lines.setdefault(name, len(self.b.lines))
        self.rng.shuffle(bank)
        goal = (self.target - TAIL_WORDS) * until
        guard = 0
        while (self.b.words < goal or guard < at_least) and guard < 3000:
            (bank.pop() if bank else filler)()
            guard += 1

    def reflect(self, n: int | None = None, opener: bool = False) -> str:
        """1-3 sentences of the incarcerated person's reflection. ``opener``: start with a
        short assent ("Yes, sir.") for yes/no questions; otherwise maybe a hesitation."""
        n = n or self.rng.randint(2, 4)
        parts = [self.pick(OPENERS)] if opener else []
        for template in self.rng.sample(REFLECTIONS, n):
            parts.append(
                template.format(
                    victim=P(self.victim.first),
                    victim_last=P(self.victim.last),
                    feeling=self.pick(FEELINGS),
                    relative=self.pick(("mother", "sister", "aunt", "grandmother")),
                    program=self.pick(vocab.SELF_HELP),
                    lesson=self.pick(LESSONS),
                    facilitator=self.new_name(),
                    child=self.child.rel("son", "daughter"),
                    child_obj=self.child.object,
                )
            )
        if not opener and self.chance(0.4):
            first = parts[0]
            if not (first.startswith("I ") or first.startswith("I'") or first[0] == "\x01"):
                first = first[0].lower() + first[1:]
            parts[0] = f"{self.pick(('Uh,', 'Um,', 'Honestly,', 'You know,', 'Well,'))} {first}"
        for i, part in enumerate(parts):
            if part.startswith("I ") and self.chance(0.3):
                parts[i] = stutter(self.pick(("I-I", "I-I-I"))) + part[1:]
                break
            if part.startswith("My ") and self.chance(0.3):
                parts[i] = stutter(self.pick(("M-my", "M-m-my"))) + part[2:]
                break
        return " ".join(parts)

    def new_name(self, full: bool = True) -> str:
        p = self.person()
        return P(p.full) if full else P(p.last)

    def on_date(self, start: int, end: int) -> str:
        """Say "on <date>" or "in <Month> of <year>", in one of the spoken styles."""
        text = self.any_date(start, end)
        return f"in {text}" if " of " in text else f"on {text}"

    def any_date(self, start: int, end: int) -> str:
        d = self.some_date(start, end)
        style = self.rng.randrange(4)
        if style == 0:
            return self.date_numeric(d)
        if style == 1:
            return self.date_ordinal(d)
        if style == 2:
            return D(f"{vocab.MONTHS[d.month - 1]} of {d.year}")
        return self.date_words(d)

    # ------------------------------------------------------------------ commitment offense
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
            f"Your file mentions a {P(pp.first)} {P(pp.last, 'name_also_place')}. Who is that?",
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
    def programming(self) -> None:
        last = self.hearing_date.replace(year=self.hearing_date.year - 3)
        self.say(
            "dc",
            f"I'm going to cover your post-conviction factors. {self.ip.title} {P(self.ip.last)}, "
            f"since your last hearing on {self.date_words(last)} you've been disciplinary free. "
            "Your last rules violation report, a 115, was back in "
            f"{D(str(self.hearing_date.year - self.rng.randint(6, 12)))}. Is that correct?",
        )
        self.say(
            "ip",
            "Yes, ma'am, that's correct." if self.dc.gender == "F" else "Yes, sir, that's correct.",
        )
        self.fill("programming", self.programming_bank(), self.programming_item, 0.52)

    def programming_bank(self) -> list[Callable[[], None]]:
        r = self.rng

        def aa():
            d = self.sobriety_date
            self.say(
                "dc",
                "Tell me about your Alcoholics Anonymous and Narcotics Anonymous participation.",
            )
            self.say(
                "ip",
                f"I've been going to AA and NA since {D(str(d.year))}. My sponsor is "
                f"{P(self.sponsor.full)}. I'm on step {vocab.number_words(r.randint(4, 12))}. My "
                f"sobriety date is {self.date_ordinal(d)}.",
            )

        def job():
            self.say("dc", "What's your current job assignment?")
            self.say(
                "ip",
                f"I'm a {self.pick(vocab.PRISON_JOBS)} on Facility {self.pick('ABCD')}. I work from "
                f"{T('six o' + chr(39) + 'clock', 'time_words')} in the morning to "
                f"{T('2:00 p.m.', 'time_digits')}. My supervisor's ratings are exceptional.",
            )

        def college():
            d = self.some_date(self.hearing_date.year - 8, self.hearing_date.year - 1)
            self.say("dc", "Education?")
            self.say(
                "ip",
                f"I earned {self.pick(vocab.DEGREES)} through "
                f"{O(self.pick(('Feather River College', 'Coastline Community College', 'Lassen Community College', 'Cal State Los Angeles')))} "
                f"in {D(self.pick(vocab.MONTHS) + ' ' + str(d.year))}. I'm working toward my bachelor's now.",
            )

        def transfer():
            d = self.some_date(self.hearing_date.year - 12, self.hearing_date.year - 4)
            self.say(
                "dc", f"You were housed at {O(self.prior_prison)} before you transferred here?"
            )
            self.say(
                "ip",
                f"Yes, from {D(str(d.year - 4))} to {D(str(d.year))}. That's where I started "
                f"programming seriously, after my celly, {P(self.fake.first_name_male())}, passed away.",
            )

        def faith():
            self.say("dc", "Any religious programming?")
            self.say(
                "ip",
                f"I attend {N(self.pick(vocab.RELIGIOUS_GROUP_NOUNS))} services with Chaplain "
                f"{self.new_name(full=False)}. My faith helped me when my mother got sick in "
                f"{D(str(self.hearing_date.year - r.randint(2, 6)))}.",
            )

        def chow():
            self.say("dc", "How do you use what you learned in a day-to-day situation?")
            self.say(
                "ip",
                "Just yesterday somebody cut in front of me in the chow line. Before, that would "
                "have been a fight. I recognized my thinking, I let it go, and I talked about it "
                f"in group. {stutter('W-w-we')} call that using your tools.",
            )

        def vocation():
            voc = self.pick(vocab.VOCATIONS)
            self.say("dc", f"You completed the {voc} vocation?")
            self.say(
                "ip",
                f"Yes. I finished {voc} on {self.date_numeric(self.some_date(self.hearing_date.year - 9, self.hearing_date.year - 1))}. "
                f"I have my certificate, and my instructor, Mr. {P(self.counselor.last)}, wrote me "
                "a laudatory chrono.",
            )

        def visits():
            self.say("dc", "Do you get visits?")
            self.say(
                "ip",
                f"My {self.sibling.rel('brother', 'sister')} comes every couple of months, and my "
                f"{self.child.rel('son', 'daughter')} started video visits on "
                f"{D(self.pick(vocab.WEEKDAYS) + 's')} last year. We talk on the phone every "
                f"{D(self.pick(('Sunday', 'Saturday')))} at {T(self.pick(('4:15 p.m.', '5:00 p.m.', '10:30 a.m.')), 'time_digits')}.",
            )

        def fire():
            self.say("dc", "I see you were at a fire camp at one point.")
            self.say(
                "ip",
                f"Yes, {O('Ishi Conservation Camp')}, in {D(str(self.hearing_date.year - r.randint(6, 10)))}. "
                "I got removed because of my commitment offense, but while I was there I fought "
                "two fires. That was the first time I felt like I was giving something back.",
            )

        return [aa, job, college, transfer, faith, chow, vocation, visits, fire]

    def programming_item(self) -> None:
        k = self.rng.randrange(4)
        y0, y1 = (
            max(self.received_date.year + 1, self.hearing_date.year - 14),
            self.hearing_date.year - 1,
        )
        if k == 0:
            prog = self.pick(vocab.SELF_HELP)
            chrono = (
                f"There's a chrono for {prog}, completed {self.on_date(y0, y1)}, facilitated by "
                f"{self.new_name()}."
            )
            if self.id_checks < 2 and self.chance(0.2):
                self.id_checks += 1
                number = m(CDCR_ID, self.cdcr, "cdcr_id_plain")
                self.say("dc", f"{chrono} The number on it is {number}. Is that yours?")
                self.say(
                    "ip",
                    f"{self.pick(('Yes.', 'Yes, that is me.', 'That is my number.'))} {self.reflect(1)}",
                )
                return
            question = self.pick(
                ("What did you get out of it?", "What did you learn?", "Tell me about that one.")
            )
            self.say("dc", f"{chrono} {question}")
            self.say("ip", self.reflect())
        elif k == 1:
            self.say(
                "dc",
                f"A 115 {self.on_date(max(self.received_date.year, y0 - 6), y0 + 2)} at "
                f"{O(self.pick(vocab.OTHER_PRISONS))} for {self.pick(VIOLATIONS)}. What happened?",
            )
            self.say(
                "ip",
                f"{self.pick(('', 'Uh,', 'Honestly,'))} {self.pick(('I was still in my old thinking.', 'I was trying to keep my reputation.', 'Somebody owed me and I went about it the wrong way.', 'I was using at the time.'))} "
                f"{self.reflect(1, opener=False)}",
            )
        elif k == 2:
            self.say(
                "dc",
                f"A laudatory chrono dated {self.any_date(y0, y1)} from {self.pick(('Officer', 'Sergeant', 'Lieutenant', 'Ms.', 'Mr.'))} "
                f"{self.new_name(full=False)} says you {self.pick(('de-escalated a conflict on the yard', 'helped a man in crisis', 'were a positive influence on the tier', 'volunteered for extra shifts during the lockdown', 'tutored three men to their GED'))}.",
            )
            self.say("ip", self.reflect(1))
        else:
            self.say(
                "dc",
                f"Your work supervisor's report from {self.any_date(y0, y1)} rates you "
                f"{self.pick(('exceptional', 'above average', 'satisfactory'))} as a "
                f"{self.pick(vocab.PRISON_JOBS)}. Anything to add?",
            )
            self.say(
                "ip",
                f"{self.pick(OPENERS)} I take pride in that job. {self.reflect(1, opener=False)}",
            )

    # ------------------------------------------------------------------ risk assessment
    def risk_assessment(self) -> None:
        psych = self.psych
        self.say(
            "pc",
            f"The Comprehensive Risk Assessment was completed by Dr. {P(psych.full)} on "
            f"{self.date_words(self.cra_date)}. Dr. {P(psych.last)} found that you represent a "
            f"{self.risk} risk for violence. Do you agree with the assessment?",
        )
        self.say(
            "ip",
            "I agree with most of it. I disagree with one part, where it says I minimized my "
            "role. I told the doctor I was responsible. But I understand how it came across.",
        )
        factors = self.rng.sample(RISK_FACTORS, len(RISK_FACTORS))
        protective = self.rng.sample(PROTECTIVE, len(PROTECTIVE))

        def factor_item():
            f = factors.pop() if factors else self.pick(RISK_FACTORS)
            p = protective.pop() if protective else self.pick(PROTECTIVE)
            self.say(
                "pc",
                f"The clinician noted your {f}, which {self.pick(('remains relevant', 'is partially mitigated', 'is still present to some degree'))}. "
                f"On the other side, {self.pick(('she', 'he'))} noted {p}. How do you address that?",
            )
            self.say("ip", self.reflect())

        def relapse():
            self.say("pc", "What are your relapse prevention plans?")
            self.say(
                "ip",
                f"My triggers are stress, isolation and being around people who use. If I feel "
                f"like using, I call my sponsor, {P(self.sponsor.first)}, I go to a meeting, and I "
                f"talk to my {self.sibling.rel('brother', 'sister')}. I have a list of meetings near "
                "where I'm paroling.",
            )

        def friend():
            self.say(
                "pc", "What would you do if an old friend from the neighborhood came to see you?"
            )
            self.say(
                "ip",
                f"I would tell him I'm not that person anymore. My parole agent is going to be in "
                f"my life and I'll be at {O(self.program)}. I would leave.",
            )

        def signs():
            self.say("pc", "What are your warning signs?")
            self.say(
                "ip",
                "When I start isolating, when I stop going to meetings, when I start thinking "
                "people owe me something. Those are my red flags.",
            )

        self.fill("risk", [relapse, friend, signs], factor_item, 0.61)

    # ------------------------------------------------------------------ parole plans
    def parole_plans(self) -> None:
        sp, emp = self.sponsor_director, self.employer_contact
        self.say(
            "dc", "Let's go over your parole plans. Where do you plan to live if you're granted?"
        )
        self.say(
            "ip",
            f"I've been accepted to {O(self.program)}, a transitional housing program at "
            f"{self.street_address()}, {L(self.plan_city)}, {L('California')}. "
            f"Their website is {m('URL', self.program_site)}. The director, {P(sp.full)}, wrote me "
            f"a letter. {sp.possessive.capitalize()} number is {self.phone()} and "
            f"{sp.possessive} email is {self.email(sp)}.",
        )
        self.say("dc", "Can you spell the director's last name for the record?")
        self.say("ip", f"{self.um().capitalize()} {phonetic(sp.last)}.")
        self.say(
            "dc",
            f"Thank you. I do see that letter, dated {self.date_numeric(self.cra_date)}. And employment?",
        )
        self.say(
            "ip",
            f"I have a job offer from {O(self.employer)} from {P(emp.full)}. It's construction. "
            f"{emp.pronoun.capitalize()} said I can call {emp.object} at {self.phone()}.",
        )
        self.fill("plans", self.plans_bank(), self.support_letter, 0.76)

    def plans_bank(self) -> list[Callable[[], None]]:
        def id_card():
            self.say("dc", "What about transportation and identification?")
            self.say(
                "ip",
                f"I'll get my ID through the {O('DMV')} program before release. I have my Social "
                "Security card in my file. The program gives bus passes.",
            )

        def transfer():
            self.say("dc", "Would you consider a transfer out of the county?")
            self.say(
                "ip",
                f"Yes. I don't want to go back to {L(self.crime_city)}. I'd go to "
                f"{L(self.pick(vocab.CA_COUNTIES))}, away from the victim's family.",
            )

        def meetings():
            self.say("dc", "Your NA meetings on the outside?")
            self.say(
                "ip",
                f"There's a meeting every {D(self.pick(vocab.WEEKDAYS))} at "
                f"{T(self.pick(('7:00 p.m.', '6:30 p.m.', '12:00 noon')), 'time_digits')} at "
                f"{O(self.pick(('Grace Community Church', 'First Baptist Church', 'Saint Mary Church')))}, "
                "two blocks from the program.",
            )

        def out_of_state():
            city, state = self.pick(vocab.OUT_OF_STATE_CITIES)
            self.say("dc", "Any family outside California?")
            self.say(
                "ip",
                f"My {self.pick(('cousin', 'aunt', 'uncle'))} is in {L(city)}, {L(state)}, but I "
                "know I have to parole to California first. Maybe later, with an interstate "
                "compact.",
            )

        def mentor_org():
            name = f"{self.pick(('New', 'Second', 'Open', 'Bright', 'Safe'))} {self.pick(('Path', 'Chance', 'Door', 'Start', 'Harbor'))} {self.pick(('Mentoring', 'Reentry', 'Alliance', 'Project'))}"
            site = "www." + name.lower().replace(" ", "") + self.pick((".org", ".com", ".net"))
            contact = self.person()
            self.say("dc", f"There's also a letter from {O(name)}. Tell me about that.")
            self.say(
                "ip",
                f"They mentor lifers when they get out. {P(contact.full)} runs it. Their website is "
                f"{m('URL', site)} and I can reach {contact.object} at {self.phone()}.",
            )

        def victim_height():
            self.say(
                "dc",
                "Going back to the offense for a moment. How big was the victim compared to you?",
            )
            self.say(
                "ip",
                f"{P(self.victim.first)} was smaller than me, about "
                f"{m(HEIGHT, self.pick(('five foot six', 'five-seven', 'five foot eight')), 'height_words')}. "
                "I used my size to intimidate people back then.",
            )

        return [id_card, transfer, meetings, out_of_state, mentor_org, victim_height]

    def support_letter(self) -> None:
        rel = self.person()
        relation = rel.rel(self.pick(RELATIVES_M), self.pick(RELATIVES_F))
        city = self.city()
        offer = self.pick(OFFERS).format(
            company=O(self.fake.company()),
            pronoun=rel.pronoun,
            possessive=rel.possessive,
            address=self.street_address(),
        )
        contact = self.pick(
            (
                f"{rel.pronoun.capitalize()} lists a phone number, {self.phone()}.",
                f"{rel.pronoun.capitalize()} gives an email, {self.email(rel)}.",
                f"The letter is dated {self.any_date(self.hearing_date.year - 1, self.hearing_date.year)}.",
                f"{rel.pronoun.capitalize()} is {A(str(self.rng.randint(25, 78)), 'age_digits')} and retired.",
            )
        )
        letter = (
            f"There's a letter from {P(rel.full)}, your {relation}, in {L(city)}. "
            f"{rel.pronoun.capitalize()} {offer}. {contact}"
        )
        k = self.rng.randrange(7)
        if k == 0:
            self.say("dc", f"{letter} How do you spell that last name, for the record?")
            self.say("ip", f"{P(rel.last)}. {spelled(rel.last)}.")
        elif k == 1:
            self.say(
                "dc", f"{letter} I can't read the street on {rel.possessive} letter. What is it?"
            )
            street = self.fake.last_name()
            while not street.isalpha():
                street = self.fake.last_name()
            self.say(
                "ip",
                f"It's {L(street + ' ' + self.pick(vocab.STREET_SUFFIXES))}. That's "
                f"{phonetic(street)}.",
            )
        else:
            self.say("dc", letter)
            self.say(
                "ip",
                self.pick(
                    (
                        f"{P(rel.first)} has known me since I was a kid. I'm grateful.",
                        f"Yes. {P(rel.first)} has been there the whole time I've been down.",
                        f"That's my {relation}. We reconnected in {D(str(self.hearing_date.year - self.rng.randint(2, 9)))}.",
                        f"{P(rel.first)} visits when {rel.pronoun} can. It's a long drive from {L(city)}.",
                        f"{P(rel.first)} is the one who got me into {self.pick(vocab.SELF_HELP)}. {self.reflect(1)}",
                    )
                ),
            )

    # ------------------------------------------------------------------ questions, closing, decision
    def questions(self) -> None:
        if self.has_da:
            self.say("pc", "Deputy District Attorney, any questions? Direct them to the panel.")
            self.say(
                "da",
                "Yes. Could the panel ask whether the inmate has had any contact with the "
                f"{P(self.misspelled, 'misspelled_name')} family since the offense?",
            )
            self.say("pc", "Have you had any contact with the victim's family?")
            self.say(
                "ip",
                "No. I wrote an apology letter, but I kept it in my file through the Victim "
                "Offender Education Group. I don't want to cause them more harm.",
            )
            self.fill("da", [], self.da_exchange, 0.86)
        self.say("pc", "Counsel, any questions for your client?")
        self.fill("attorney", self.att_bank(), self.att_followup, 0.96)

    def da_exchange(self) -> None:
        self.say(
            "da",
            self.pick(
                (
                    f"Could the panel ask about the {D(self.pick(vocab.MONTHS) + ' ' + str(self.offense_date.year - self.rng.randint(1, 3)))} arrest by the {O(self.police)}?",
                    f"Could the panel ask why the inmate told Dr. {P(self.psych.last)} something different about the weapon?",
                    f"Could the panel ask what the inmate would do if {P(self.codefendant.first)} contacted him?",
                    "Could the panel ask how the inmate will stay away from the neighborhood?",
                    f"Could the panel ask about the {D(str(self.hearing_date.year - self.rng.randint(6, 12)))} rules violation?",
                )
            ),
        )
        self.say(
            "pc", self.pick(("Go ahead and answer that.", "You can answer.", "Go ahead, sir."))
        )
        self.say("ip", self.reflect())

    def att_bank(self) -> list[Callable[[], None]]:
        ip = self.ip

        def date_meaning():
            self.say(
                "att",
                f"{ip.title} {P(ip.last)}, what does the date {self.date_words(self.offense_date)} mean to you today?",
            )
            self.say(
                "ip",
                f"It's the day I took {P(self.victim.first)}'s life. Every year on that day I fast "
                "and I pray for the family.",
            )

        def different():
            self.say("att", "How are you different from the person you were then?")
            self.say(
                "ip",
                f"Back then I was {A(vocab.number_words(self.age_at_offense), 'age_words')} and "
                f"I thought only about myself. Today I'm {A(vocab.number_words(self.age_now), 'age_words')}. "
                "I think about consequences and about other people's feelings first.",
            )

        def family():
            self.say(
                "att", "What would you say to the victim's family if they were willing to listen?"
            )
            self.say(
                "ip",
                f"That I'm sorry. That {P(self.victim.first)} didn't deserve it. That "
                f"{stutter('I-I')} don't expect forgiveness.",
            )

        return [date_meaning, different, family]

    def att_followup(self) -> None:
        self.say(
            "att",
            self.pick(
                (
                    "What have you learned about your character defects?",
                    "How will you handle rejection on the outside?",
                    "Tell the panel about your support network.",
                    "What does living amends mean to you?",
                    "How do you deal with stress today?",
                )
            ),
        )
        self.say("ip", self.reflect())

    def closing(self) -> None:
        ip = self.ip
        self.say("pc", "All right. We'll move to closing statements.")
        if self.has_da:
            self.say(
                "da",
                f"Thank you. The People submit that {ip.title} {P(ip.last)} remains an unreasonable "
                f"risk. {ip.pronoun.capitalize()} killed {P(self.victim.full)} and did not call "
                f"for help. The risk assessment is {self.risk}. The {P(self.misspelled)} family "
                "continues to suffer. We ask for a denial of at least five years.",
            )
        self.say(
            "att",
            f"Thank you, Commissioners. {ip.title} {P(ip.last)} has been disciplinary free for "
            f"years, completed {self.pick(vocab.SELF_HELP)}, {self.pick(vocab.SELF_HELP)} and "
            f"{self.pick(vocab.VOCATIONS)}, and has solid parole plans at {O(self.program)}. "
            f"{ip.pronoun.capitalize()} was a youth offender, only "
            f"{A(str(self.age_at_offense), 'age_digits')} at the time, and the hallmark features "
            "of youth apply. We ask that you find suitability.",
        )
        if self.has_vnok:
            self.say(
                "vnok",
                f"{P(self.victim.first)} was {A(vocab.number_words(self.victim_age), 'age_words')} "
                f"years old. {self.victim.pronoun.capitalize()} had two kids. My mother died in "
                f"{D(str(self.hearing_date.year - self.rng.randint(2, 9)))} still waiting for "
                f"justice. I'm asking the panel to deny parole. {stutter('I-I-I')} can't go through "
                "this again every three years.",
            )
            self.say("pc", f"Thank you, {self.vnok.title} {P(self.vnok.last)}.")
        self.say(
            "ip",
            f"I want to apologize to the {P(self.victim.last)} family. I know that sorry isn't "
            "enough. I've spent my time in here trying to become a person who will never hurt "
            "anybody again. Thank you for your time.",
        )
        recess = dt.datetime.combine(self.hearing_date, self.hearing_time) + dt.timedelta(
            minutes=self.rng.randint(90, 180)
        )
        self.say(
            "pc", f"The time is {self.time_said(recess.time())}. We'll recess for deliberations."
        )
        self.heading("RECESS")
        self.b.add("(Off the record.)", kind=model.PARENTHETICAL)
        self.recess_end = (recess + dt.timedelta(minutes=self.rng.randint(15, 45))).time()

    def decision(self) -> None:
        ip = self.ip
        self.heading("DECISION")
        self.say("dc", "We're back on the record.")
        years = self.pick(("three", "five", "seven"))
        ruling = (
            f"The time is {self.time_said(self.recess_end)}. All parties who were present before "
            f"the recess are present again. In the matter of {P(ip.full)}, CDCR number "
            f"{m(CDCR_ID, self.cdcr, 'cdcr_id_plain')}, the panel has reviewed all the information "
            f"and finds that {ip.pronoun} does currently pose an unreasonable risk of danger to "
            f"society, and is therefore not suitable for parole. The denial is for {years} years. "
            f"{ip.title} {P(ip.last)}, you have made progress."
        )
        factors = self.rng.sample(RISK_FACTORS, len(RISK_FACTORS))
        self.section_lines.setdefault("decision_reasons", len(self.b.lines))
        goal = self.target - CERTIFICATION_WORDS - self.b.words
        reasons: list[str] = []
        words = 0
        while words < goal and len(reasons) < 400:
            f = factors.pop() if factors else self.pick(RISK_FACTORS)
            reason = (
                f"The panel is concerned about your {f}. "
                f"{self.pick(('We credit', 'We note', 'We acknowledge'))} your "
                f"{self.pick(PROTECTIVE)} and your work in {self.pick(vocab.SELF_HELP)} since "
                f"{D(str(self.hearing_date.year - self.rng.randint(2, 9)))}. "
                f"{self.pick(('Keep doing the work.', 'Deepen your relapse prevention plans.', 'Get more specific about your triggers.', 'Stay disciplinary free.', ''))}"
            )
            reasons.append(reason)
            words += len(model.strip_marks(reason).split())
        self.say(
            "pc",
            f"{ruling} We considered the letters from {L(self.crime_city)} and the position of the "
            f"{P(self.misspelled, 'misspelled_name')} family. The panel also considered your age, "
            f"{A(str(self.age_now), 'age_digits')}, and the youth offender factors. "
            + " ".join(reasons),
        )
        self.say(
            "dc",
            f"I'd just add, {ip.title} {P(ip.last)}, keep doing what you're doing. "
            f"Get into {self.pick(vocab.SELF_HELP)} and deepen your relapse prevention plans.",
        )
        end = dt.datetime.combine(self.hearing_date, self.recess_end) + dt.timedelta(minutes=20)
        self.say(
            "pc",
            f"That concludes the hearing. The time is {self.time_said(end.time())}. Good luck to you.",
        )
        self.say("ip", "Thank you.")
        self.heading("ADJOURNMENT")
        self.b.add(
            "THIS TRANSCRIPT INCLUDES THE PROPOSED DECISION OF THE BOARD OF PAROLE HEARINGS "
            "ANNOUNCED AT THE HEARING. THE PROPOSED DECISION BECOMES FINAL WITHIN 120 DAYS OF "
            "THE HEARING UNLESS THE BOARD NOTIFIES YOU IN WRITING THAT IT HAS BEEN MODIFIED OR "
            "REFERRED TO THE FULL BOARD. THE GOVERNOR MAY THEN REVIEW THE DECISION UNDER THE "
            "PENAL CODE.",
            kind=model.PARAGRAPH,
        )
        self.b.add(
            f"{P(ip.full.upper())} {m(CDCR_ID, self.cdcr)} {self.date_numeric(self.hearing_date)} "
            "DECISION PAGE 1",
            kind=model.FOOTER_LINE,
        )
