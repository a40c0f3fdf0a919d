"""Names and places printed in capitals, read as a person writes them. Django-free.

Shared by the cover page (``cover``) and the court caption (``court``), which both read
lines that a cover prints in capitals.
"""


def nice_case(value: str | None) -> str | None:
    """Covers print names and places in capitals: "MULE CREEK STATE PRISON" →
    "Mule Creek State Prison". Values with lower-case letters are kept as printed."""
    if not value or any(c.islower() for c in value):
        return value
    words = []
    for word in value.split(" "):
        titled = "-".join(part[:1].upper() + part[1:].lower() for part in word.split("-"))
        if "'" in titled and len(titled.split("'", 1)[0]) == 1:  # O'BRIEN → O'Brien
            head, tail = titled.split("'", 1)
            titled = f"{head}'{tail[:1].upper()}{tail[1:]}"
        if word.strip(".,") in {"II", "III", "IV", "VI", "VII", "VIII"}:
            titled = word
        words.append(titled)
    return " ".join(words)
