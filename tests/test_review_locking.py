"""Optimistic locking of review actions: every span action needs a
valid ``version`` (400 with a sentence otherwise, 409 when stale); merge and split check
the versions of what they move."""

import pytest
from django.urls import reverse

from annotations import locking
from annotations.models import Span
from annotations.selectors import review_span_rows
from annotations.services import review as rs
from anonreview.core.models import AuditEvent
from tests.test_review_services import make_review_transcript, span_at

HX = {"HTTP_HX_REQUEST": "true"}
SPAN_ACTIONS = {
    "accept": {},
    "reject": {},
    "delete": {},
    "relabel": {"label": "LOCATION"},
    "resize": {"edge": "right"},
    "apply_all": {},
    "split": {},
}


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def rt(annotator):
    return make_review_transcript(assignees=[annotator])


def action_url(t, name):
    return reverse("annotations:review-action", args=[t.pk, name])


def group_version_of(t, entity_id):
    return locking.group_versions(review_span_rows(transcript=t))[entity_id]


@pytest.mark.parametrize("action", sorted(SPAN_ACTIONS))
@pytest.mark.parametrize("version", [None, "", "abc", "0", "-1", "1.5"])
@pytest.mark.parametrize("htmx", [True, False])
def test_span_action_without_a_valid_version_is_refused_with_400_and_changes_nothing(
    client, annotator, rt, action, version, htmx
):
    client.force_login(annotator)
    quill = span_at(rt, "Quill")
    data = {"span": quill.pk, "loaded": "0", **SPAN_ACTIONS[action]}
    if version is not None:
        data["version"] = version
    events = AuditEvent.objects.count()
    response = client.post(action_url(rt, action), data, **(HX if htmx else {}))
    assert response.status_code == 400
    assert "version" in response.content.decode()
    fresh = Span.objects.get(pk=quill.pk)
    assert (fresh.status, fresh.version, fresh.entity_id) == ("suggested", 1, quill.entity_id)
    assert AuditEvent.objects.count() == events


def test_stale_version_answers_409_for_every_span_action(client, annotator, rt):
    client.force_login(annotator)
    for action, extra in SPAN_ACTIONS.items():
        quill = span_at(rt, "Quill")
        rs.span_accept(span=quill, actor=annotator, version=quill.version)  # someone else
        response = client.post(
            action_url(rt, action),
            {"span": quill.pk, "version": quill.version, "loaded": "0", **extra},
            **HX,
        )
        assert response.status_code == 409, action
        assert Span.objects.get(pk=quill.pk).version == quill.version + 1


def test_merge_needs_the_versions_of_both_groups(client, annotator, rt):
    client.force_login(annotator)
    dana, quill = span_at(rt, "Dana"), span_at(rt, "Quill")
    data = {"source": dana.entity.ref, "target": quill.entity.ref, "span": dana.pk, "loaded": "0"}
    response = client.post(action_url(rt, "merge"), data, **HX)
    assert response.status_code == 400 and "version of group" in response.content.decode()
    assert span_at(rt, "Dana").entity_id == dana.entity_id


def test_merge_with_a_stale_group_version_answers_409_and_moves_nothing(client, annotator, rt):
    client.force_login(annotator)
    dana, quill = span_at(rt, "Dana"), span_at(rt, "Quill")
    versions = [
        f"{dana.entity.ref}:{group_version_of(rt, dana.entity_id)}",
        f"{quill.entity.ref}:{group_version_of(rt, quill.entity_id)}",
    ]
    rs.span_accept(span=dana, actor=annotator, version=dana.version)  # a change since
    data = {
        "source": dana.entity.ref,
        "target": quill.entity.ref,
        "span": dana.pk,
        "group_version": versions,
        "loaded": "0",
    }
    response = client.post(action_url(rt, "merge"), data, **HX)
    assert response.status_code == 409
    assert span_at(rt, "Dana").entity_id == dana.entity_id


def test_merge_with_current_group_versions_is_applied(client, annotator, rt):
    client.force_login(annotator)
    dana, quill = span_at(rt, "Dana"), span_at(rt, "Quill")
    data = {
        "source": dana.entity.ref,
        "target": quill.entity.ref,
        "span": dana.pk,
        "group_version": [
            f"{dana.entity.ref}:{group_version_of(rt, dana.entity_id)}",
            f"{quill.entity.ref}:{group_version_of(rt, quill.entity_id)}",
        ],
        "loaded": "0",
    }
    response = client.post(action_url(rt, "merge"), data, **HX)
    assert response.status_code == 200
    assert span_at(rt, "Dana").entity_id == quill.entity_id


def test_split_with_a_stale_span_version_answers_409(client, annotator, rt):
    client.force_login(annotator)
    quill = span_at(rt, "Quill")
    rs.span_accept(span=quill, actor=annotator, version=quill.version)
    response = client.post(
        action_url(rt, "split"), {"span": quill.pk, "version": 1, "loaded": "0"}, **HX
    )
    assert response.status_code == 409
    assert span_at(rt, "Quill").entity_id == quill.entity_id


def test_review_page_renders_group_versions_for_entities_and_the_merge_form(client, annotator, rt):
    client.force_login(annotator)
    dana = span_at(rt, "Dana")
    body = client.get(reverse("annotations:review", args=[rt.pk]) + f"?span={dana.pk}").content
    version = group_version_of(rt, dana.entity_id)
    assert (
        f'id="e-{dana.entity_id}" data-ref="{dana.entity.ref}" data-version="{version}"'.encode()
        in body
    )
    # The merge form loads on demand (a light inspector) and carries the versions.
    merge = client.get(
        reverse("annotations:review-merge-targets", args=[rt.pk]), {"span": dana.pk}
    ).content
    assert f'name="group_version" value="{dana.entity.ref}:{version}"'.encode() in merge
    preview = client.get(
        reverse("annotations:review-merge-preview", args=[rt.pk]),
        {"source": dana.entity.ref, "target": span_at(rt, "Quill").entity.ref},
    ).content.decode()
    assert f"{dana.entity.ref}:{version}," in preview  # the merge dialog's versions


def test_split_by_spelling_needs_and_checks_the_group_version(client, annotator, rt):
    client.force_login(annotator)
    quill = span_at(rt, "Quill")
    url = reverse("annotations:review-action", args=[rt.pk, "split"])
    data = {"span": quill.pk, "version": quill.version, "form": "Quill", "loaded": "0"}
    assert client.post(url, data, **HX).status_code == 400
    data["group_version"] = f"{quill.entity.ref}:stale"
    assert client.post(url, data, **HX).status_code == 409
    assert span_at(rt, "Quill").entity_id == quill.entity_id


def test_group_version_changes_when_a_member_changes_joins_or_leaves():
    base = locking.group_version([(1, 1), (2, 1)])
    assert base == locking.group_version([(2, 1), (1, 1)])
    assert base != locking.group_version([(1, 2), (2, 1)])
    assert base != locking.group_version([(1, 1)])
    assert base != locking.group_version([(1, 1), (3, 1)])


def test_parse_version_explains_what_is_wrong():
    assert locking.parse_version(" 7 ") == 7
    for bad in (None, "", "abc", "0", "1e3"):
        with pytest.raises(locking.VersionError):
            locking.parse_version(bad)
