"""Parole plans and support letters. Mixed into ``generator._Gen``; Django-free."""

from __future__ import annotations

from collections.abc import Callable

from engine.labels import HEIGHT

from .. import vocab
from ..marks import A, D, L, O, P, T, phonetic, spelled
from ..model import m
from .constants import OFFERS, RELATIVES_F, RELATIVES_M


class Plans:
    """Section methods; expects the helpers of ``generator._Gen``."""

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
