"""What happened to one file of an import (``ImportOutcome``): shown in the upload page,
the import command and the job results. Its own module because the import
(``importing``), the upload's staging and the job bookkeeping (``jobs``, which ends an
upload's batch) all write it, and the import itself imports the job bookkeeping."""

from dataclasses import asdict, dataclass, field


@dataclass
class ImportOutcome:
    """What happened to one file of a batch (shown in the page, the command and job results)."""

    path: str
    ok: bool
    error: str = ""
    code: str = ""
    metadata: dict = field(default_factory=dict)
    utterances: int = 0
    pages: int = 0
    transcript_id: int | None = None
    duplicate_of: int | None = None
    annotation_job_id: int | None = None
    annotation_error: str = ""
    notices: list[str] = field(default_factory=list)
    layout: dict = field(default_factory=dict)
    text: str | None = None

    def to_json(self, *, with_text: bool = False) -> dict:
        data = asdict(self)
        if not with_text:
            data.pop("text")
        return data

    def stored(self, label: str) -> dict:
        """What a job's result keeps: ids and counts, no personal data — the
        file is ``label`` (``file 2 (.pdf)``), never its upload name (``Surname-ID-date``),
        and no cover metadata (names, CDCR number, next of kin live in the transcript)."""
        data = self.to_json()
        data.pop("metadata")
        data["path"] = label
        return data
