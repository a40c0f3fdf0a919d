"""Bounded reading of zip archives: uploaded ``.zip`` files and ``.docx`` packages.
Django-free.

A file's size on disk says little about its size in memory: deflate inflates up to
about 1,000 times (a 31 KB ``.docx`` held 30 MB of XML and took 1 GB to parse),
and bzip2 or LZMA members far more. So before anything is decompressed:

* the archive's own directory is read: how many members it has and the size each one
  *declares*; one that declares more than its bound, or members that together declare
  more than theirs, refuse the archive with a sentence naming the limit;
* only ``stored`` and ``deflate`` members are accepted (what zip tools and Word write):
  Python's ``zipfile`` inflates bzip2 and LZMA members without a bound on one read, so
  a member whose header lies about its size could fill the memory at its first read.

Then a member is read in chunks of ``CHUNK`` bytes and counted while it inflates:
declared sizes can lie, so what is read is what is bounded (``BoundedReader``). A member
longer than its header says fails its checksum and is refused as damaged.

Messages never name an archive's members (a name can be a person's).
"""

from __future__ import annotations

import zipfile

from engine.importing.errors import NotSupported, TooLarge, UnsafeArchive

CHUNK = 1 << 20
ACCEPTED_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate"}
_METHOD_NAMES = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA", 9: "deflate64"}


def mb(n: float) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def _over(size: int, limit: int) -> tuple[str, str]:
    """``size`` and ``limit`` in MB, or in bytes where they round alike ("64.0 MB" twice
    reads as no reason at all)."""
    if mb(size) != mb(limit):
        return mb(size), mb(limit)
    return f"{size:,} bytes", f"{limit:,} bytes ({mb(limit)})"


def directory_refusal(data: bytes, *, what: str, max_entries: int) -> UnsafeArchive | None:
    """Refuse ``what`` before its directory is read when it could list more than
    ``max_entries`` entries: ``zipfile`` builds an object per entry of the central
    directory (500,000 empty entries, a 41 MB file, took 286 MB and 30 s before the
    member count refused them). Every entry ``zipfile`` accepts starts with the central
    directory's signature, so counting the signature bounds them whatever the archive's
    end record claims (stored archives inside it count too: ``max_entries`` leaves room)."""
    entries = data.count(b"PK\x01\x02")
    if entries <= max_entries:
        return None
    return UnsafeArchive(
        f"{what} was refused: its directory lists more than {max_entries:,} entries, "
        "far more than a document or a batch of transcripts holds."
    )


def methods_refusal(infos: list[zipfile.ZipInfo], *, what: str) -> UnsafeArchive | None:
    """Refuse ``what`` (``"The zip archive"``) when a member is compressed otherwise than
    stored or deflate."""
    odd = sorted(
        {
            _METHOD_NAMES.get(i.compress_type, f"method {i.compress_type}")
            for i in infos
            if i.compress_type not in ACCEPTED_METHODS
        }
    )
    if not odd:
        return None
    return UnsafeArchive(
        f"{what} was refused: it uses a compression method that is not accepted "
        f"({', '.join(odd)}); only stored and deflate members are read. "
        "Save it again with ordinary zip compression."
    )


def sizes_refusal(
    infos: list[zipfile.ZipInfo],
    *,
    what: str,
    max_member: int,
    max_total: int,
    max_members: int | None = None,
    kind: str = "part",
) -> UnsafeArchive | None:
    """Refuse ``what`` when it has too many members, one member declares more than
    ``max_member`` bytes inflated, or all together more than ``max_total``."""
    if max_members is not None and len(infos) > max_members:
        return UnsafeArchive(
            f"{what} was refused: it has {len(infos)} {kind}s; at most {max_members} are accepted."
        )
    largest = max((i.file_size for i in infos), default=0)
    if largest > max_member:
        size, limit = _over(largest, max_member)
        return UnsafeArchive(
            f"{what} was refused: one of its {kind}s would expand to {size}; "
            f"at most {limit} are accepted for one {kind}."
        )
    total = sum(i.file_size for i in infos)
    if total > max_total:
        size, limit = _over(total, max_total)
        return UnsafeArchive(
            f"{what} was refused: it would expand to {size}; at most {limit} are accepted."
        )
    return None


class BoundedReader:
    """A member opened for reading that counts what it inflates: past ``limit`` bytes it
    raises ``TooLarge`` (whatever the member's header declared). File-like (``read``), so
    a streaming parser reads from it directly."""

    def __init__(
        self, archive: zipfile.ZipFile, info: zipfile.ZipInfo, *, limit: int, refusal: str
    ):
        if info.compress_type not in ACCEPTED_METHODS:  # never inflate those (see above)
            raise UnsafeArchive(methods_refusal([info], what="The archive").message)
        self.limit = limit
        self.refusal = refusal  # the sentence of the TooLarge raised past the limit
        self.count = 0
        self._fh = archive.open(info)

    def read(self, n: int = -1) -> bytes:
        size = CHUNK if n is None or n < 0 or n > CHUNK else n
        data = self._fh.read(size)
        self.count += len(data)
        if self.count > self.limit:
            raise TooLarge(self.refusal)
        return data

    def read_all(self) -> bytes:
        chunks = []
        while chunk := self.read(CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> BoundedReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, *, limit: int, what: str, refusal: str
) -> bytes:
    """The bytes of one member, read in chunks and counted (``TooLarge`` with the sentence
    ``refusal`` past ``limit``). A member that is damaged, encrypted or longer than its
    header says raises ``NotSupported`` with a sentence about ``what``."""
    try:
        with BoundedReader(archive, info, limit=limit, refusal=refusal) as reader:
            return reader.read_all()
    except (zipfile.BadZipFile, OSError, ValueError, RuntimeError, EOFError) as exc:
        raise NotSupported(damaged_sentence(what, exc)) from exc


def damaged_sentence(what: str, exc: BaseException) -> str:
    return (
        f"{what} cannot be read ({type(exc).__name__}): it is damaged, encrypted, or a "
        "member is larger than its header says."
    )
