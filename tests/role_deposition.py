"""A made-up deposition whose people carry role words and ordinary words as surnames: the
witness George Foreman (sworn, a speaker tag), counsel Owen Judge ("BY MR. JUDGE:"),
the plaintiff Carla Justice ("Ms. Justice"), counsel Nora Speaker ("BY MS. SPEAKER:"),
Paul Fair and Ellen Hall (who also say "a fair trial", "down the hall"), beside role-only
tags ("THE COURT SECURITY OFFICER", "THE COURTROOM DEPUTY"). All names are invented."""

import re

CAPTION = """IN THE UNITED STATES DISTRICT COURT
FOR THE EASTERN DISTRICT OF MINNESOTA
CARLA JUSTICE, )
Plaintiff, ) Case No. 0:21-cv-04417
v. )
NORTHWIND FREIGHT, INC., )
Defendant. )
VIDEOTAPED DEPOSITION OF GEORGE FOREMAN
March 3, 2021
10:30 a.m.
APPEARANCES:
FOR THE PLAINTIFF:
MR. OWEN JUDGE
FOR THE DEFENDANT:
MS. NORA SPEAKER
MR. PAUL FAIR
MS. ELLEN HALL
REPORTED BY: KRISTEN TURNER, RPR"""

TESTIMONY = """THE VIDEOGRAPHER: We are on the record. This is the deposition of George Foreman.
THE COURT SECURITY OFFICER: The room is secure.
THE COURTROOM DEPUTY: Counsel may proceed.
GEORGE FOREMAN, called as a witness by the Plaintiff,
having been first duly sworn, was examined and testified as
follows:
EXAMINATION
BY MR. JUDGE:
Q Please state your name for the record.
A George Foreman.
Q Do you know the plaintiff, Carla Justice?
A Yes. Ms. Justice drove with me for two years.
Q Did Ms. Justice ever complain about the brakes?
A She said we all deserve a fair trial on that.
Q Where was the logbook kept?
A Down the hall, past the security desk.
MS. SPEAKER: Objection. Form.
MR. JUDGE: You may answer, Mr. Foreman.
A The Judge who heard the first case asked the same.
EXAMINATION
BY MS. SPEAKER:
Q Mr. Foreman, who else rode with you?
A Carla Justice and Mr. Fair's cousin. Ms. Hall saw the truck.
MR. FAIR: Nothing further.
MS. HALL: Nothing from me."""

DEPOSITION = (CAPTION + "\f\n" + TESTIMONY + "\n").encode()

# The name words an annotator finds without trouble (no role word among them).
PLAIN_NAMES = ("George", "GEORGE", "Carla", "CARLA", "Owen", "OWEN", "Nora", "NORA", "Paul",
               "PAUL", "Ellen", "ELLEN", "Fair", "FAIR", "Hall", "HALL", "Kristen", "Turner")  # fmt: skip
# The role-word surnames, in the forms the transcript writes them.
ROLE_SURNAMES = ("JUDGE", "Justice", "FOREMAN", "Foreman", "SPEAKER")
# Where a role word of ROLE_SURNAMES stands as the role, not the name.
NOT_NAMES = ("The Judge who",)


def occurrences(text: str, words) -> list[tuple[int, int]]:
    """Every capitalised, whole-word occurrence of ``words`` in ``text``."""
    out = []
    for word in words:
        out += [m.span() for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)]
    return sorted(out)


def role_surname_places(text: str) -> list[tuple[int, int]]:
    """Where ``text`` (the imported text or a release of it) holds a role-word surname."""
    skip = [text.index(p) for p in NOT_NAMES if p in text]
    return [
        (s, e)
        for s, e in occurrences(text, ROLE_SURNAMES)
        if not any(k <= s < k + 12 for k in skip)
    ]
