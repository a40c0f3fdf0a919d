"""The title a transcript is given at import: pseudonymous, it names nobody and carries no
date (the date reached the dashboard download and the gold's
``meta.title``, while the release replaces it)."""

from engine.importing import ParsedTranscript

# engine.importing.proceeding's kinds as a title says them.
KIND_TITLES = {
    "grand jury": "Grand jury",
    "deposition": "Deposition",
    "jury selection": "Jury selection",
    "appeal": "Appeal",
    "trial": "Trial",
    "hearing": "Hearing",
}


def transcript_title(parsed: ParsedTranscript, sha: str) -> str:
    """The kind of proceeding when the transcript says it (``Grand jury · c7a2939c``),
    else ``Transcript · c7a2939c``: no name, no date, a short content hash."""
    kind = KIND_TITLES.get(parsed.proceeding or "", "Transcript")
    return f"{kind} · {sha[:8]}"
