"""A Django ``Storage`` that keeps files in the database (``transcripts.StoredFile``).

The default storage of ``Transcript.original_file`` (``STORAGES["originals"]``): a worker
on another machine imports a PDF and the web process can read it back, with no shared
disk; the write takes part in the import's transaction. Point ``ORIGINALS_STORAGE`` at
another backend (``django.core.files.storage.FileSystemStorage``, an S3 backend) to keep
big archives out of the database.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, storages
from django.utils.deconstruct import deconstructible


@deconstructible
class DatabaseStorage(Storage):
    """Files as rows: name → bytes. No URLs (originals are never served directly)."""

    def _model(self):
        # By name, not by import: transcripts.models imports this module (the file
        # field's storage), so the arrow runs one way.
        from django.apps import apps

        return apps.get_model("transcripts", "StoredFile")

    def _open(self, name, mode="rb"):
        if "w" in mode or "a" in mode:
            raise ValueError("DatabaseStorage files are written with save(), not open('w').")
        try:
            row = self._model().objects.get(name=name)
        except self._model().DoesNotExist as exc:
            raise FileNotFoundError(name) from exc
        return ContentFile(bytes(row.data), name=name)

    def _save(self, name, content):
        if hasattr(content, "seek"):
            content.seek(0)
        data = b"".join(content.chunks()) if hasattr(content, "chunks") else content.read()
        self._model().objects.create(name=name, data=data, size=len(data))
        return name

    def delete(self, name):
        self._model().objects.filter(name=name).delete()

    def exists(self, name):
        return self._model().objects.filter(name=name).exists()

    def size(self, name):
        row = self._model().objects.filter(name=name).values("size").first()
        if row is None:
            raise FileNotFoundError(name)
        return row["size"]

    def listdir(self, path):
        prefix = path.rstrip("/") + "/" if path else ""
        names = self._model().objects.filter(name__startswith=prefix).values_list("name", flat=True)
        files, dirs = set(), set()
        for name in names:
            rest = name[len(prefix) :]
            if "/" in rest:
                dirs.add(rest.split("/", 1)[0])
            else:
                files.add(rest)
        return sorted(dirs), sorted(files)

    def url(self, name):
        raise NotImplementedError("Originals are not served by URL.")


def originals_storage():
    """The storage of ``Transcript.original_file``: ``STORAGES["originals"]``, else the
    default storage (settings written before this alias existed)."""
    from django.conf import settings

    return storages["originals" if "originals" in settings.STORAGES else "default"]


def staging_dir() -> Path:
    """Where uploads wait for their import job (``UPLOAD_STAGING_DIR``), created 0700."""
    path = Path(settings.UPLOAD_STAGING_DIR)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def staging_path(name: str) -> Path:
    """The staged file ``name`` (a bare file name: nothing outside the directory)."""
    if not name or Path(name).name != name:
        raise ValueError("not a staged file name")
    return staging_dir() / name


def staging_store(upload, *, name: str) -> int:
    """Move or stream ``upload`` (Django's ``UploadedFile``) to the staged file ``name``
    without reading it into memory: a temporary file on disk is moved (copied in
    chunks across file systems), a small in-memory one written out. Returns its size."""
    target = staging_path(name)
    temp = getattr(upload, "temporary_file_path", None)
    if temp is not None:
        upload.file.flush()
        shutil.move(temp(), target)
        upload.close()  # Django's close() expects the file to be gone (moved)
    else:
        with open(target, "wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
    target.chmod(0o600)
    return target.stat().st_size
