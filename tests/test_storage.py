"""Originals are kept in the database: workers and the web share them with no disk."""

import os

import pytest
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction

from transcripts.models import StoredFile
from transcripts.services.importing import sources_from_bytes, transcripts_import_batch
from transcripts.storage import DatabaseStorage, originals_storage

pytestmark = pytest.mark.django_db

SPEECH = b"PRESIDING COMMISSIONER ALDEN: Good morning.\nINMATE QUILL: Good morning.\n"


def media_files():
    root = settings.MEDIA_ROOT
    return [f for _d, _s, files in os.walk(root) for f in files]


def test_database_storage_saves_opens_sizes_lists_and_deletes():
    storage = DatabaseStorage()
    name = storage.save("originals/a.pdf", ContentFile(b"%PDF-1.7 bytes"))
    assert storage.exists(name) and storage.size(name) == 14
    with storage.open(name) as fh:
        assert fh.read() == b"%PDF-1.7 bytes"
    second = storage.save("originals/a.pdf", ContentFile(b"other"))
    assert second != name  # a taken name gets a new one, nothing is overwritten
    assert storage.listdir("originals") == ([], sorted([name[10:], second[10:]]))
    storage.delete(name)
    assert not storage.exists(name)
    with pytest.raises(FileNotFoundError):
        storage.open(name)


def test_imported_original_lives_in_the_database_not_on_disk():
    before = media_files()
    [outcome] = transcripts_import_batch(sources=sources_from_bytes("h.txt", SPEECH), user=None)
    assert outcome.ok
    from transcripts.models import Transcript

    t = Transcript.objects.get(pk=outcome.transcript_id)
    assert isinstance(originals_storage(), DatabaseStorage)
    assert StoredFile.objects.get(name=t.original_file.name).size == len(SPEECH)
    with t.original_file.open("rb") as fh:
        assert fh.read() == SPEECH
    assert media_files() == before


def test_a_failed_import_leaves_no_stored_original():
    with pytest.raises(RuntimeError), transaction.atomic():
        DatabaseStorage().save("originals/x.txt", ContentFile(b"data"))
        raise RuntimeError("the import failed after storing its original")
    assert not StoredFile.objects.exists()
