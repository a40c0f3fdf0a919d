"""Fill ``Proposal`` for existing transcripts from their audit log, once.

Until now the machine's proposals were rebuilt from the audit log on every dashboard
computation; this migration runs that reconstruction one last time and stores the
result: a proposal for every span with detector provenance (in the shape before a
reviewer first resized or relabelled it) and for every such span a reviewer deleted.
Spans a reviewer created (added, or new name parts of a relabel) get none.
"""

from django.db import migrations

HUMAN = frozenset({"human", ""})
SHAPE = ("start", "end", "label")


def _machine(provenance):
    out = []
    for item in provenance or []:
        name = item.get("detector", "") if isinstance(item, dict) else str(item)
        if name not in HUMAN:
            out.append(item if isinstance(item, dict) else {"detector": name})
    return out


def _snapshots(payload):
    if not isinstance(payload, dict) or not isinstance(payload.get("spans"), list):
        return []
    return [s for s in payload["spans"] if isinstance(s, dict) and "id" in s]


def _histories(AuditEvent, transcript_id):
    """Per span id: [proposed shape or None, created by a reviewer, first snapshot]."""
    histories = {}
    events = AuditEvent.objects.filter(transcript_id=transcript_id).order_by("created_at", "id")
    for event in events.only("span_id", "actor_id", "before", "after"):
        before, after = _snapshots(event.before), _snapshots(event.after)
        if not before and not after and event.span_id and isinstance(event.before, dict):
            flat = {k: event.before[k] for k in SHAPE if k in event.before}
            if flat:
                h = histories.setdefault(event.span_id, [None, False, None])
                if h[0] is None:
                    h[0] = tuple(flat.get(k) for k in SHAPE)
                    h[2] = {"_partial": True}
            continue
        before_ids = {snap["id"] for snap in before}
        for snap in before:
            h = histories.setdefault(snap["id"], [None, False, None])
            if h[0] is None and not h[1]:
                h[0] = (int(snap["start"]), int(snap["end"]), str(snap["label"]))
            h[2] = h[2] or snap
        for snap in after:
            if snap["id"] in before_ids:
                continue
            h = histories.setdefault(snap["id"], [None, False, None])
            if h[0] is None and h[2] is None and event.actor_id is not None:
                h[1] = True
    return histories


def fill(apps, schema_editor):
    Span = apps.get_model("annotations", "Span")
    Proposal = apps.get_model("annotations", "Proposal")
    AuditEvent = apps.get_model("core", "AuditEvent")
    transcript_ids = Span.objects.values_list("transcript_id", flat=True).distinct()
    for transcript_id in sorted(set(transcript_ids)):
        histories = _histories(AuditEvent, transcript_id)
        existing = set()
        for span in Span.objects.filter(transcript_id=transcript_id, proposal__isnull=True):
            existing.add(span.pk)
            h = histories.get(span.pk)
            machine = _machine(span.provenance)
            if span.status == "added" or (h and h[1]) or not machine:
                continue
            current = (span.start, span.end, span.label)
            proposed = current
            if h and h[0] is not None:
                proposed = tuple(c if p is None else type(c)(p) for p, c in zip(h[0], current))
            span.proposal = Proposal.objects.create(
                transcript_id=transcript_id,
                start=proposed[0],
                end=proposed[1],
                label=proposed[2],
                provenance=machine,
                score=span.score,
            )
            span.save(update_fields=["proposal"])
        for span_id, (proposed, by_reviewer, snap) in histories.items():
            if span_id in existing or by_reviewer or not snap or "_partial" in snap:
                continue
            if snap.get("status") == "added" or not _machine(snap.get("provenance")):
                continue
            Proposal.objects.create(
                transcript_id=transcript_id,
                start=proposed[0],
                end=proposed[1],
                label=proposed[2],
                provenance=_machine(snap.get("provenance")),
                score=snap.get("score") or 0.0,
            )


class Migration(migrations.Migration):
    dependencies = [
        ("annotations", "0006_proposal"),
        ("core", "0001_initial"),
    ]

    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
