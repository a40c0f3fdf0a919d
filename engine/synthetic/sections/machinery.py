"""Section machinery: word budgets, reflections, fresh names and dates. Mixed into ``generator._Gen``; Django-free."""

from __future__ import annotations

from collections.abc import Callable

from .. import vocab
from ..marks import D, P, stutter
from .constants import FEELINGS, LESSONS, OPENERS, REFLECTIONS, TAIL_WORDS


class Machinery:
    """Section methods; expects the helpers of ``generator._Gen``."""

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
