"""Errors the importer reports to users (in the upload page and the command).

Every message is written for a person, names the problem and what to do, and
never contains transcript text or names (it may be logged).
"""


class ImportRejected(Exception):
    """A file that cannot be imported. ``code`` is stable, ``message`` is for people."""

    code = "rejected"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code

    def __str__(self) -> str:
        return self.message


class NotSupported(ImportRejected):
    code = "not_supported"


class EmptyFile(ImportRejected):
    code = "empty"


class TooLarge(ImportRejected):
    code = "too_large"


class EncryptedPdf(ImportRejected):
    code = "encrypted"


class CorruptPdf(ImportRejected):
    code = "corrupt"


class NeedsOcr(ImportRejected):
    code = "needs_ocr"


class NoTranscript(ImportRejected):
    code = "no_transcript"


class UnsafeArchive(ImportRejected):
    code = "unsafe_archive"


class Duplicate(ImportRejected):
    code = "duplicate"
