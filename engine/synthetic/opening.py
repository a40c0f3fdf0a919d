"""The hearing's opening (appearances, the incarcerated person's introduction) and the
transcriber's certification. Mixed into ``generator._Gen``; Django-free."""

from __future__ import annotations

import datetime as dt

from engine.labels import CDCR_ID

from . import hard_cases, layout, model, vocab
from .marks import D, L, O, P, T, phonetic, spelled, stutter
from .model import m


class Opening:
    """Opening and certification; expects the helpers of ``generator._Gen``."""

    # ------------------------------------------------------------------ sections
    def time_said(self, t: dt.time, tag: str | None = "time_digits") -> str:
        h = t.hour % 12 or 12
        ampm = "a.m." if t.hour < 12 else "p.m."
        return T(f"{h}:{t.minute:02d} {ampm}", tag)

    def opening(self) -> None:
        ip, pc = self.ip, self.pc
        self.heading("PROCEEDINGS")
        self.say(
            "dc",
            self.pick(
                ("We're on the record.", "We are on the record.", "And we're on the record, sir.")
            ),
        )
        wd = vocab.WEEKDAYS[self.hearing_date.weekday()]
        mepd = self.received_date.replace(year=self.received_date.year + self.rng.randint(12, 22))
        self.say(
            "pc",
            f"All right. Today's date is, uh, {D(wd)}, {self.date_words(self.hearing_date, 'date_words')}. "
            f"The time is {self.time_said(self.hearing_time)}. This is a subsequent Parole Suitability "
            f"Hearing for {ip.title} {P(ip.last)}, who is currently housed at {O(self.inst)} in "
            f"{L(self.inst_city)}, {L('California')}. {ip.title} {P(ip.last)} was received by the "
            f"Department of Corrections and Rehabilitation on {self.date_words(self.received_date)} "
            f"from {L(self.county)} for the controlling offense of {self.offense}. "
            f"{ip.pronoun.capitalize()} received a term of {self.sentence}, and "
            f"{ip.pronoun} has a minimum eligible parole date of {self.date_words(mepd)}. "
            "Today's proceedings are being audio recorded. So for the purpose of voice "
            "identification, each of us will state our first and last name, spelling our last "
            f"name. {ip.title} {P(ip.last)}, when we get to you, we will also need your CDCR "
            f"number. I'll go first. My name is {P(pc.full)}, last name spelled {spelled(pc.last)}. "
            "I'm a Commissioner with the Board of Parole Hearings, participating by video "
            f"conference. Commissioner {P(self.dc.last)}.",
        )
        self.say(
            "dc",
            f"Good morning. {P(self.dc.full)}, {spelled(self.dc.last)}, Deputy Commissioner "
            "with the Board of Parole Hearings, also appearing by video.",
        )
        self.say("pc", "Thank you. Counsel?")
        self.say(
            "att",
            f"Good morning. {P(self.att.full)}, {spelled(self.att.last)}, attorney for "
            f"{ip.title} {P(ip.last)}, appearing by video conference.",
        )
        if self.has_da:
            self.say("pc", "And the District Attorney's office?")
            self.say(
                "da",
                f"Good morning, Commissioners. {P(self.da.full)}, {spelled(self.da.last)}, "
                f"Deputy District Attorney for {L(self.county)}.",
            )
        if self.has_vnok:
            self.say("pc", "And we have a victim's next of kin present. Ma'am or sir, go ahead.")
            self.say(
                "vnok",
                f"My name is {P(self.vnok.full)}. First name is {phonetic(self.vnok.first)}. "
                f"Last name {spelled(self.vnok.last)}. {P(self.victim.first)} was my "
                f"{self.pick(('brother', 'son', 'father', 'uncle', 'cousin'))}.",
            )
            self.say(
                "pc",
                f"Thank you, {self.vnok.title} {P(self.vnok.last)}. I'm sorry for your loss, and "
                "under Marsy's Law you'll have an opportunity to make a statement at the end of "
                f"the hearing. All right, {ip.title} {P(ip.last)}.",
            )
        else:
            self.say("pc", f"All right, {ip.title} {P(ip.last)}.")
        self.ip_intro()
        self.say(
            "pc",
            "Thank you. We also note that correctional staff may be in the room for security "
            f"purposes only. {ip.title} {P(ip.last)}, I'm going to swear you in. Please raise your "
            "right hand. Do you solemnly swear or affirm that the testimony you give at this "
            "hearing will be the truth, the whole truth, and nothing but the truth?",
        )
        self.say("ip", "Yes, sir." if self.chance(0.5) else "I do.")
        self.say(
            "pc",
            "All right, you can put your hand down. I'm going to do what's called the Americans "
            "with Disabilities Act review. I reviewed the DECS database. You signed your request "
            f"for assistance form, that's Form 1073, and you have a TABE score of "
            f"{self.rng.randint(5, 12)}.{self.rng.randint(0, 9)}. Do you need any accommodation "
            "today, glasses, hearing aids, anything like that?",
        )
        self.say(
            "ip",
            f"{self.um().capitalize()} I wear reading glasses, I have them with me. {stutter('I-I-I')} can hear "
            "you fine.",
        )
        self.say(
            "pc",
            "All right. We've reviewed the Central File, the Comprehensive Risk Assessment "
            f"prepared by Dr. {P(self.psych.last)} dated "
            f"{self.date_words(self.cra_date)}, and the confidential file. Counsel, have you "
            "received all the documents?",
        )
        self.say("att", "Yes, Commissioner, we have, and we have no additional documents.")
        if self.has_da:
            self.say("da", "The People have received them as well.")

    def ip_intro(self) -> None:
        """The incarcerated person's introduction; a filler is chosen so that the spelled
        surname is printed across two lines (hyphen at the line end)."""
        ip = self.ip
        if len(self.cdcr) == 6 and self.cdcr[1].isdigit():
            said_id = m(
                CDCR_ID, f"{vocab.PHONETIC[self.cdcr[0]]} {self.cdcr[1:]}", "cdcr_id_phonetic"
            )
        else:
            said_id = m(
                CDCR_ID,
                f"{vocab.PHONETIC[self.cdcr[0]]} {vocab.PHONETIC[self.cdcr[1]]} {self.cdcr[2:]}",
                "cdcr_id_phonetic",
            )
        fillers = (
            "",
            "Uh,",
            "Um, okay.",
            "Yes, sir.",
            "Good morning.",
            "Good morning, everyone.",
            "Okay. Good morning.",
            "Yes. Good morning, Commissioners.",
            "Uh, good morning, sir.",
            "Okay, uh, thank you.",
            "Thank you, Commissioner. Good morning.",
            "Yes, sir. Um, good morning to the panel.",
        )
        tag, _ = self.tags["ip"]
        plain_tag = model.strip_marks(tag)
        chosen = None
        middles = (
            f"{P(ip.last)}, {spelled(ip.last)}.",
            f"Last name {P(ip.last)}, spelled {spelled(ip.last)}.",
            f"That's {P(ip.last)}, {spelled(ip.last)}, for the record.",
        )
        candidates = [(f, mid) for mid in middles for f in fillers]
        self.rng.shuffle(candidates)
        for filler, middle in candidates:
            body = f"{filler} My name is {P(ip.full)}. {middle} My CDCR number is {said_id}."
            plain = " ".join(f"{plain_tag}: {model.strip_marks(body)}".split())
            letters = "-".join(ip.last.upper())
            if any(
                split and letters.startswith(line.split(" ")[-1])
                for line, split in layout.wrap(plain)
            ):
                chosen = body
                break
        self.say("ip", chosen or body)

    def certification(self) -> None:
        tr = self.transcriber
        add = self.b.add
        c = model.CERTIFICATION
        add("CERTIFICATE AND DECLARATION OF TRANSCRIBER", section=c, kind=model.HEADING)
        add(
            f"I, {P(tr.full)}, declare that I have no interest in the outcome of this hearing "
            "and that this transcript is a true, complete and accurate record, to the best of my "
            "ability, of the recorded proceedings in the matter of:",
            section=c,
            kind=model.PARAGRAPH,
        )
        add(f"{P(self.ip.full.upper())}", section=c, kind=model.CENTERED)
        add(f"CDCR Number: {m(CDCR_ID, self.cdcr)}", section=c, kind=model.CENTERED)
        add(O(self.inst.upper()), section=c, kind=model.CENTERED)
        add(f"{L(self.inst_city.upper())}, {L('CALIFORNIA')}", section=c, kind=model.CENTERED)
        d = self.hearing_date
        add(
            D(f"{vocab.MONTHS[d.month - 1].upper()} {d.day}, {d.year}"),
            section=c,
            kind=model.CENTERED,
        )
        h = self.hearing_time
        add(
            T(f"{h.hour % 12 or 12}:{h.minute:02d} {'AM' if h.hour < 12 else 'PM'}"),
            section=c,
            kind=model.CENTERED,
        )
        hard_cases.address_block(self)
        add(f"Signed: {P(tr.full)}", section=c, kind=model.PARAGRAPH)
        add(
            f"Dated: {self.date_words(d + dt.timedelta(days=self.rng.randint(5, 30)))}",
            section=c,
            kind=model.PARAGRAPH,
        )
        add(
            f"Copyright {D(str(d.year))} / All Rights Reserved by BPH",
            section=c,
            kind=model.PARAGRAPH,
        )
