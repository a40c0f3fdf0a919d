"""Questions, the attorneys' exchanges, closing statements and the decision. Mixed into ``generator._Gen``; Django-free."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from engine.labels import CDCR_ID

from .. import model, vocab
from ..marks import A, D, L, O, P, stutter
from ..model import m
from .constants import CERTIFICATION_WORDS, PROTECTIVE, RISK_FACTORS


class Closing:
    """Section methods; expects the helpers of ``generator._Gen``."""

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
