"""The title a transcript is given at import: pseudonymous, it names nobody."""

from engine.importing import ParsedTranscript


def transcript_title(parsed: ParsedTranscript, sha: str) -> str:
    """A title without names: the hearing date and a short content hash."""
    when = parsed.metadata.get("hearing_date") or "undated"
    return f"Hearing {when} · {sha[:8]}"
