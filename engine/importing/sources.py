"""Expand command-line paths, folders and zip archives into files to import.

Django-free. Every item carries either its bytes or the reason it cannot be
imported, so one bad file never stops a batch. Zip archives are read in memory
(nothing is extracted to disk) with caps on members and uncompressed size (each
member's declared size checked before anything inflates, then counted while it
inflates: ``archives``), and rejected as a whole when a member's path is unsafe
(absolute, ``..``, drive) or it is compressed otherwise than stored or deflate.
"""

import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from engine.importing.archives import directory_refusal, methods_refusal, read_member
from engine.importing.errors import (
    EmptyFile,
    ImportRejected,
    NotSupported,
    TooLarge,
    UnsafeArchive,
)

IMPORTABLE = (".pdf", ".txt", ".text", ".md", ".markdown", ".rst", ".docx", ".rtf", ".vtt", ".srt")
# The accepted types in words, for every sentence that names them (upload, command, zip).
TYPES = "PDF, .txt, .md, .rst, .docx, .rtf, .vtt or .srt"
UNSUPPORTED = f"Unsupported file type: import {TYPES} files, folders or .zip archives."


@dataclass
class SourceFile:
    """One file of a batch: ``path`` for display, ``data`` or ``error``."""

    path: str
    data: bytes | None = None
    error: ImportRejected | None = None

    @property
    def name(self) -> str:
        return PurePosixPath(self.path.replace("\\", "/")).name


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def too_large(size: int, max_bytes: int) -> TooLarge:
    return TooLarge(f"The file is too large ({_mb(size)}; the limit is {_mb(max_bytes)}).")


def _unsafe(name: str) -> bool:
    normalized = name.replace("\\", "/")
    parts = PurePosixPath(normalized).parts
    return (
        normalized.startswith("/")
        or ".." in parts
        or (len(normalized) > 1 and normalized[1] == ":")
        or "\x00" in normalized
    )


def iter_zip(
    path: str, data: bytes, *, max_bytes: int, max_members: int, max_total: int
) -> Iterator[SourceFile]:
    """The importable members of a zip archive (in memory)."""
    import io

    # stored archives inside it list their own entries: room for 100 per member
    if refusal := directory_refusal(data, what="The zip archive", max_entries=100 * max_members):
        yield SourceFile(path, error=refusal)
        return
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        yield SourceFile(
            path, error=NotSupported(f"The zip archive is damaged ({type(exc).__name__}).")
        )
        return
    unsafe = [i for i in infos if _unsafe(i.filename)]
    if unsafe:
        yield SourceFile(
            path,
            error=UnsafeArchive(
                f"The zip archive was refused: {len(unsafe)} entr{'y' if len(unsafe) == 1 else 'ies'} "
                "point outside the archive (absolute paths or '..'). Nothing from it was imported."
            ),
        )
        return
    members = [
        i
        for i in infos
        if not i.is_dir()
        and not PurePosixPath(i.filename).name.startswith(".")
        and "__MACOSX" not in i.filename
    ]
    if len(members) > max_members:
        yield SourceFile(
            path,
            error=UnsafeArchive(
                f"The zip archive has {len(members)} files; at most {max_members} are accepted."
            ),
        )
        return
    total = sum(i.file_size for i in members)
    if total > max_total:
        yield SourceFile(
            path,
            error=UnsafeArchive(
                f"The zip archive would expand to {_mb(total)}; at most {_mb(max_total)} are accepted."
            ),
        )
        return
    # bzip2/LZMA members inflate without a bound on one read (archives.py): refused whole
    if refusal := methods_refusal(members, what="The zip archive"):
        yield SourceFile(path, error=refusal)
        return
    for info in sorted(members, key=lambda i: i.filename):
        display = f"{path}/{info.filename}"
        if not info.filename.lower().endswith(IMPORTABLE):
            yield SourceFile(
                display,
                error=NotSupported(
                    f"Unsupported file type in the archive: only {TYPES} files are imported."
                ),
            )
            continue
        if info.file_size > max_bytes:
            yield SourceFile(display, error=too_large(info.file_size, max_bytes))
            continue
        try:
            # Read in chunks and counted: a header can lie about the size (a member
            # longer than it says fails its checksum: refused as damaged).
            content = read_member(
                archive,
                info,
                limit=max_bytes,
                what="This archive member",
                refusal=f"The file expands beyond {_mb(max_bytes)}, the limit for one file.",
            )
        except ImportRejected as exc:
            yield SourceFile(display, error=exc)
            continue
        if not content:
            yield SourceFile(display, error=EmptyFile("The file is empty."))
        else:
            yield SourceFile(display, data=content)


def iter_bytes(
    path: str, data: bytes, *, max_bytes: int, max_members: int, max_total: int
) -> Iterator[SourceFile]:
    """One uploaded or read file: a ``.zip`` expands into its members."""
    is_zip = path.lower().endswith(".zip")
    limit = max_total if is_zip else max_bytes
    if len(data) > limit:
        yield SourceFile(path, error=too_large(len(data), limit))
    elif not data:
        yield SourceFile(path, error=EmptyFile("The file is empty."))
    elif is_zip:
        yield from iter_zip(
            path, data, max_bytes=max_bytes, max_members=max_members, max_total=max_total
        )
    else:
        yield SourceFile(path, data=data)


def iter_paths(
    paths: list[str], *, max_bytes: int, max_members: int, max_total: int
) -> Iterator[SourceFile]:
    """Files named on the command line; folders are walked (``IMPORTABLE`` and .zip files)."""
    limits = {"max_bytes": max_bytes, "max_members": max_members, "max_total": max_total}
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and not p.name.startswith(".")
                and p.suffix.lower() in (*IMPORTABLE, ".zip")
            )
            if not files:
                yield SourceFile(
                    raw,
                    error=NotSupported(f"The folder holds no {TYPES} or .zip files."),
                )
            for p in files:
                yield from _read(p, str(p), limits)
        elif path.is_file():
            yield from _read(path, raw, limits)
        else:
            yield SourceFile(raw, error=NotSupported("No such file or folder."))


def _read(path: Path, display: str, limits: dict) -> Iterator[SourceFile]:
    size = path.stat().st_size
    if size > limits["max_bytes"] and path.suffix.lower() != ".zip":
        yield SourceFile(display, error=too_large(size, limits["max_bytes"]))
        return
    if path.suffix.lower() == ".zip" and size > limits["max_total"]:
        yield SourceFile(display, error=too_large(size, limits["max_total"]))
        return
    yield from iter_bytes(display, path.read_bytes(), **limits)


# --- Text encodings -------------------------------------------------------------

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def _utf16_without_bom(data: bytes) -> str | None:
    """UTF-16 without a byte-order mark: ASCII text has a zero in every other byte."""
    sample = data[:4096]
    if len(sample) < 4:
        return None
    even = sample[0::2].count(0) / max(1, len(sample[0::2]))
    odd = sample[1::2].count(0) / max(1, len(sample[1::2]))
    if odd > 0.4 and even < 0.05:
        encoding = "utf-16-le"
    elif even > 0.4 and odd < 0.05:
        encoding = "utf-16-be"
    else:
        return None
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        return None


def decode_text(data: bytes) -> tuple[str, str]:
    """Bytes of a text file → (text with ``\\n`` line endings, the encoding used).

    UTF-8 (with or without a BOM), UTF-16/32 with a BOM, UTF-16 without one, else
    Windows-1252/Latin-1 (every byte decodes, so nothing is lost). CR, LF and CRLF
    line endings all become LF. Raises ``EmptyFile`` or ``NotSupported`` (binary data).
    """
    if not data or not data.strip(b" \t\r\n\f\x00\xef\xbb\xbf\xff\xfe"):
        raise EmptyFile("The file is empty.")
    text = None
    encoding = ""
    for bom, name in _BOMS:
        if data.startswith(bom):
            try:
                text, encoding = data[len(bom) :].decode(name), f"{name} (BOM)"
            except UnicodeDecodeError:
                text = None
            break
    if text is None and b"\x00" in data[:4096]:
        text = _utf16_without_bom(data)
        encoding = "utf-16" if text is not None else ""
        if text is None:
            raise NotSupported("This is neither a PDF nor a text file (it contains binary data).")
    if text is None:
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            try:
                text, encoding = data.decode("cp1252"), "windows-1252"
            except UnicodeDecodeError:
                text, encoding = data.decode("latin-1"), "latin-1"
    controls = sum(1 for c in text[:4096] if ord(c) < 32 and c not in "\n\r\t\f")
    if controls > 8:
        raise NotSupported("This is neither a PDF nor a text file (it contains binary data).")
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    return text, encoding
