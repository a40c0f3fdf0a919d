"""Post-conviction programming and the risk assessment. Mixed into ``generator._Gen``; Django-free."""

from __future__ import annotations

from collections.abc import Callable

from engine.labels import CDCR_ID

from .. import vocab
from ..marks import D, N, O, P, T, stutter
from ..model import m
from .constants import OPENERS, PROTECTIVE, RISK_FACTORS, VIOLATIONS


class Programming:
    """Section methods; expects the helpers of ``generator._Gen``."""

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
