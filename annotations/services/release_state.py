"""What a transcript's release text and its leak check are a function of, as one
fingerprint: the text and cover, every span (place, label, status, group, version,
provenance), the groups' refs, the allow-list, the "not a leak here" places, the speakers
and the pseudonymization settings. Two reads with the same fingerprint give the same
release text and the same leaks, so the approval screen, reading mode, Submit and Approve
compute them once per state instead of once per request.

``None`` when the result depends on more than this transcript (pseudonyms scoped to the
corpus): then nothing is cached."""

from __future__ import annotations

import hashlib

from django.conf import settings

from annotations.models import AllowListTerm, Entity, LeakException, Span
from transcripts.models import Transcript, Utterance


def _settings() -> dict:
    return {
        name: repr(getattr(settings, name))
        for name in dir(settings)
        if name.startswith(("PSEUDONYM", "LEAK", "ALLOW"))
    }


def release_fingerprint(*, transcript: Transcript) -> str | None:
    """The fingerprint of everything the release text and its leak check read (five
    queries), or ``None`` when they read more."""
    if getattr(settings, "PSEUDONYM_SCOPE", "transcript") != "transcript":
        return None
    digest = hashlib.sha256()

    def feed(value) -> None:  # rows as read (repr: a third of json.dumps's time)
        digest.update(repr(value).encode("utf-8", "surrogatepass"))
        digest.update(b"\0")

    feed([transcript.pk, _settings(), transcript.metadata or {}])
    digest.update(transcript.text.encode("utf-8", "surrogatepass"))
    feed(
        list(
            Span.objects.filter(transcript=transcript)
            .order_by("pk")
            .values_list(
                "pk", "start", "end", "label", "status", "entity_id", "version", "provenance"
            )
        )
    )
    feed(
        list(
            Entity.objects.filter(transcript=transcript)
            .order_by("pk")
            .values_list("pk", "ref", "key", "label", "pseudonym")
        )
    )
    feed(list(AllowListTerm.objects.order_by("pk").values_list("pk", "term")))
    feed(
        list(
            LeakException.objects.filter(transcript=transcript)
            .order_by("pk")
            .values_list("pk", "start", "end")
        )
    )
    feed(
        sorted(
            Utterance.objects.filter(transcript=transcript)
            .exclude(speaker="")
            .values_list("speaker", flat=True)
            .distinct()
        )
    )
    return digest.hexdigest()
