"""The surface-form table: one row per (label, case-folded form) with counts and context;
one POST decides every mention of a form; the answer redraws only the touched rows."""

import re

import pytest
from django.urls import reverse

from annotations.models import Span
from annotations.selectors.forms import review_form_table
from anonreview.core.models import AuditEvent
from tests.factories import make_transcript

HX = {"HTTP_HX_REQUEST": "true"}
TEXT = "\n".join(
    [
        "COMMISSIONER ALDEN: Um, Mr. Quill, you lived in Fresno?",
        "INMATE QUILL: Um, yes. um. Fresno, with Dana Quill.",
        "COMMISSIONER ALDEN: Correct. UM, thank you, Mr. Quill.",
    ]
)


@pytest.fixture(autouse=True)
def _gazetteer_subtypes_only(settings):
    settings.PSEUDONYMIZE_SUBTYPE_MODEL = "none"


@pytest.fixture
def ft(annotator):
    from annotations.services.review import review_assign_entities

    transcript = make_transcript(TEXT, assignees=[annotator])
    for word, label in (("Um", "PERSON"), ("um", "PERSON"), ("UM", "PERSON"), ("Quill", "PERSON"),
                        ("Fresno", "LOCATION"), ("Correct", "PERSON"), ("Dana", "PERSON")):  # fmt: skip
        for m in re.finditer(rf"\b{word}\b", TEXT):
            Span.objects.create(transcript=transcript, start=m.start(), end=m.end(), label=label)
    review_assign_entities(transcript=transcript)
    return transcript


def test_forms_are_grouped_case_folded_by_label_most_mentions_first(ft):
    table = review_form_table(transcript=ft)
    assert list(table) == ["PERSON", "LOCATION"]
    person = [(f.form, f.count, f.open) for f in table["PERSON"]]
    assert person == [("Um", 4, 4), ("Quill", 3, 3), ("Correct", 1, 1), ("Dana", 1, 1)]
    um = table["PERSON"][0]
    assert um.key == "um" and um.context.text == "Um"
    assert um.context.after.startswith(", Mr. Quill")
    assert [o.text for o in um.occurrences] == ["Um", "Um", "um", "UM"]


def test_the_page_lists_a_labels_forms_with_their_occurrences(client, annotator, ft):
    client.force_login(annotator)
    body = client.get(
        reverse("annotations:review-forms", args=[ft.pk]), {"label": "PERSON"}
    ).content.decode()
    assert body.count('class="fm-row') == 4
    assert 'data-form="um"' in body and "×4" in body
    assert "Accept the rest of PERSON: 9" in body


def test_a_row_names_every_span_of_its_form_in_text_order(client, annotator, ft):
    client.force_login(annotator)
    body = client.get(
        reverse("annotations:review-forms", args=[ft.pk]), {"label": "PERSON"}
    ).content.decode()
    ums = Span.objects.filter(transcript=ft, label="PERSON", start__in=[
        m.start() for m in re.finditer(r"\b(?i:um)\b", TEXT)
    ]).order_by("start")  # fmt: skip
    ids = ",".join(str(s.pk) for s in ums)
    assert f'data-form="um" data-open="4" data-spans="{ids}"' in body


def test_rejecting_a_form_through_htmx_redraws_its_row_and_writes_one_event(client, annotator, ft):
    client.force_login(annotator)
    url = reverse("annotations:review-forms-action", args=[ft.pk, "reject_form"]) + "?label=PERSON"
    response = client.post(url, {"label": "PERSON", "form": "um"}, **HX)
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('class="fm-row') == 1 and "st-rejected" in body
    assert "data-toast-undo" in body
    texts = {
        ft.text[s.start : s.end] for s in Span.objects.filter(transcript=ft, status="rejected")
    }
    assert texts == {"Um", "um", "UM"}
    assert AuditEvent.objects.filter(event_type__startswith="review.").count() == 1
    response = client.post(
        reverse("annotations:review-forms-action", args=[ft.pk, "undo"]) + "?label=PERSON", {}, **HX
    )
    assert response.status_code == 200
    assert not Span.objects.filter(transcript=ft, status="rejected").exists()


def test_accepting_the_rest_of_a_label_from_the_table(client, annotator, ft):
    client.force_login(annotator)
    base = reverse("annotations:review-forms-action", args=[ft.pk, "reject_form"])
    client.post(base + "?label=PERSON", {"label": "PERSON", "form": "correct"}, **HX)
    url = reverse("annotations:review-forms-action", args=[ft.pk, "accept_all"]) + "?label=PERSON"
    response = client.post(url, {"label": "PERSON"}, **HX)
    assert response.status_code == 200
    statuses = dict(
        (ft.text[s.start : s.end], s.status)
        for s in Span.objects.filter(transcript=ft, label="PERSON")
    )
    assert statuses["Correct"] == "rejected" and statuses["Quill"] == "accepted"
    assert Span.objects.filter(transcript=ft, label="LOCATION", status="suggested").count() == 2


def test_a_batch_sent_as_the_page_goes_runs_its_actions_in_order(client, annotator, ft):
    import json

    client.force_login(annotator)
    um = Span.objects.filter(transcript=ft, label="PERSON").order_by("start")[0]
    dana = Span.objects.get(transcript=ft, start=TEXT.index("Dana"))
    actions = [
        {"action": "accept", "values": {"span": um.pk, "version": um.version}},
        # the same span again: its version is the one the first action left
        {"action": "reject", "values": {"span": um.pk, "version": um.version}},
        {"action": "reject", "values": {"span": dana.pk, "version": dana.version + 5}},
    ]
    response = client.post(
        reverse("annotations:review-batch", args=[ft.pk]),
        json.dumps({"actions": actions}),
        content_type="application/json",
    )
    assert response.status_code == 200
    assert [r["status"] for r in response.json()["results"]] == [200, 200, 409]
    um.refresh_from_db()
    dana.refresh_from_db()
    assert um.status == "rejected" and dana.status == "suggested"


def _dissent(transcript, word: str, other: str) -> None:
    """The ensemble's provenance when a second detector proposed ``other`` for ``word``."""
    for span in Span.objects.filter(transcript=transcript):
        if transcript.text[span.start : span.end] == word:
            span.provenance = [
                {"detector": "spacy", "score": 0.8},
                {"detector": "presidio", "score": 0.6, "label": other},
            ]
            span.save(update_fields=["provenance"])


# Fresno where nothing around it says what it is ("you lived in Fresno?" is a town to the
# rules, and the table then keeps its label whatever a detector proposed)
BARE = "COMMISSIONER ALDEN: Um, Fresno, you said?\nINMATE QUILL: Um, yes. Fresno, with Dana Quill."


@pytest.fixture
def bare(annotator):
    transcript = make_transcript(BARE, assignees=[annotator])
    for m in re.finditer(r"\bFresno\b", BARE):
        Span.objects.create(transcript=transcript, start=m.start(), end=m.end(), label="LOCATION")
    return transcript


def test_a_form_a_detector_labelled_otherwise_offers_that_label_as_one_input(
    client, annotator, ft, bare
):
    _dissent(bare, "Fresno", "ORGANIZATION")
    client.force_login(annotator)
    body = client.get(
        reverse("annotations:review-forms", args=[bare.pk]), {"label": "LOCATION"}
    ).content.decode()
    assert 'data-alternative="ORGANIZATION"' in body
    assert "a detector proposed ORGANIZATION for 2 of its 2 mentions" in body
    # forms no detector disputes offer nothing
    person = client.get(
        reverse("annotations:review-forms", args=[ft.pk]), {"label": "PERSON"}
    ).content.decode()
    assert "data-alternative" not in person


def test_relabelling_a_form_moves_every_mention_in_one_undo_step(client, annotator, ft):
    client.force_login(annotator)
    url = reverse("annotations:review-forms-action", args=[ft.pk, "relabel_form"])
    response = client.post(
        url + "?label=LOCATION", {"label": "LOCATION", "form": "fresno", "to": "ORGANIZATION"}, **HX
    )
    assert response.status_code == 200
    # the row stays, as moved (an undo redraws it in place; keys typed meanwhile reach it)
    row = re.search(
        r'<li class="fm-row[^>]*data-form="fresno".*?</li>', response.content.decode(), re.S
    )
    assert row and "moved to ORGANIZATION" in row.group() and 'data-open="0"' in row.group()
    assert ">Fresno</mark>" in row.group()  # as the transcript writes it, not the key
    assert "fm-alt" not in row.group()  # no relabel button on a moved row
    # the other labels' tabs are redrawn as a whole: ORGANIZATION, new here, gets one
    assert 'id="fm-tabs" aria-label="Labels" hx-swap-oob="true"' in response.content.decode()
    assert 'id="tab-ORGANIZATION"' in response.content.decode()
    assert "Relabelled every “Fresno” as ORGANIZATION" in response.content.decode()  # as written
    assert 'data-alternative="ORGANIZATION"' in row.group()
    moved = Span.objects.filter(transcript=ft, label="ORGANIZATION")
    assert [(ft.text[s.start : s.end], s.status) for s in moved] == [("Fresno", "accepted")] * 2
    assert len({s.entity_id for s in moved}) == 1  # one new group for the two mentions
    [event] = AuditEvent.objects.filter(event_type="review.relabel_form")
    assert event.after["bulk"] == "form" and event.after["count"] == 2
    assert "Fresno" not in str(event.before) + str(event.after)  # places only, no text
    undo = client.post(
        reverse("annotations:review-forms-action", args=[ft.pk, "undo"]) + "?label=LOCATION",
        {}, **HX,
    )  # fmt: skip
    back = Span.objects.filter(transcript=ft, label="LOCATION")
    assert 'data-form="fresno"' in undo.content.decode() and "2 open" in undo.content.decode()
    assert [s.status for s in back] == ["suggested", "suggested"]
    assert not Span.objects.filter(transcript=ft, label="ORGANIZATION").exists()


def test_relabelling_a_form_to_its_own_label_or_an_unknown_one_is_refused(ft, annotator):
    from annotations.services.review import ReviewError, spans_relabel_form

    for to in ("LOCATION", "PLACE"):
        with pytest.raises(ReviewError):
            spans_relabel_form(
                transcript=ft, actor=annotator, label="LOCATION", form="fresno", to=to
            )
    assert not AuditEvent.objects.filter(event_type__startswith="review.").exists()


def test_an_address_is_never_hinted_as_a_person(annotator):
    from annotations.selectors.forms import form_alternatives

    text = "WITNESS: We lived on 17837 Stephanie Circles with my grandmother."
    t = make_transcript(text, assignees=[annotator])
    start = text.index("17837")
    Span.objects.create(
        transcript=t, start=start, end=start + len("17837 Stephanie Circles"), label="LOCATION",
        provenance=[{"detector": "transformer", "score": 0.99, "label": "PERSON"}],
    )  # fmt: skip
    table = review_form_table(transcript=t)
    form_alternatives(transcript=t, table=table)
    assert table["LOCATION"][0].alternative != "PERSON"


def test_without_a_dissent_the_table_proposes_the_move_reviewers_make_most(ft, annotator, bare):
    from annotations.selectors.forms import HABIT_MIN, form_alternatives
    from annotations.services.review import span_relabel

    other = make_transcript(TEXT, assignees=[annotator])
    for m in list(re.finditer(r"\bFresno\b", TEXT)) + list(re.finditer(r"\bQuill\b", TEXT)):
        span = Span.objects.create(transcript=other, start=m.start(), end=m.end(), label="LOCATION")
        span_relabel(span=span, actor=annotator, label="ORGANIZATION")
    assert HABIT_MIN <= 5
    table = review_form_table(transcript=bare)
    form_alternatives(transcript=bare, table=table)
    fresno = table["LOCATION"][0]
    assert fresno.alternative == "ORGANIZATION"
    assert fresno.alternative_why == "reviewers relabelled LOCATION as ORGANIZATION 5 times"
    assert fresno.alternative_habit  # shown on the focused row only
    table = review_form_table(transcript=ft)
    form_alternatives(transcript=ft, table=table)
    assert all(not f.alternative for f in table["PERSON"])
    # "you lived in Fresno?": a rule reads a town there, the habit is not offered
    assert not table["LOCATION"][0].alternative


def test_without_a_dissent_a_place_or_body_form_gets_the_label_its_words_read(annotator):
    """A county proposed as a body and a hotel as a place, each by one voice: the table
    proposes what a rule reads in the words where they stand, before the habits."""
    from annotations.selectors.forms import form_alternatives

    text = "\n".join(
        [
            "MR. PARK: Is that in the county?",
            "WITNESS: Yes. Ardenne County.",
            "WITNESS: At the Gioberti Tavern, and later in the bar of the Westin.",
            "WITNESS: We drove up to Velmont to see my aunt.",
        ]
    )
    t = make_transcript(text, assignees=[annotator])
    for words, label in (("Ardenne County", "ORGANIZATION"), ("Westin", "LOCATION"),
                         ("Gioberti Tavern", "ORGANIZATION"), ("Velmont", "LOCATION")):  # fmt: skip
        start = text.index(words)
        Span.objects.create(transcript=t, start=start, end=start + len(words), label=label)
    table = review_form_table(transcript=t)
    form_alternatives(transcript=t, table=table)
    forms = {f.form: f for forms in table.values() for f in forms}
    assert forms["Ardenne County"].alternative == "LOCATION"
    assert forms["Ardenne County"].alternative_why == (
        "a rule reads LOCATION in the words of 1 of its 1 mention"
    )
    assert not forms["Ardenne County"].alternative_habit
    assert forms["Westin"].alternative == "ORGANIZATION"
    # the rules read the label it has: nothing to propose
    assert not forms["Gioberti Tavern"].alternative and not forms["Velmont"].alternative


def test_every_occurrence_is_loaded_when_a_row_is_opened_not_with_the_table(client, annotator, ft):
    client.force_login(annotator)
    page = reverse("annotations:review-forms", args=[ft.pk])
    body = client.get(page, {"label": "PERSON"}).content.decode()
    assert "?span=" not in body  # no occurrence list in the table itself
    url = reverse("annotations:review-forms-occurrences", args=[ft.pk])
    items = client.get(url, {"label": "PERSON", "form": "UM"}).content.decode()
    assert items.count("<li") == 4 and items.count("?span=") == 4
    assert client.get(url, {"label": "PERSON", "form": "nobody"}).status_code == 404
    # without JavaScript the ▸ link opens the row in the page
    opened = client.get(page, {"label": "PERSON", "open": "um"}).content.decode()
    assert opened.count("?span=") == 4


def test_another_annotators_transcript_has_no_occurrences_to_show(client, ft, django_user_model):
    from django.contrib.auth.models import Group

    from anonreview import roles

    other = django_user_model.objects.create_user(username="other-annotator")
    other.groups.add(Group.objects.get_or_create(name=roles.ANNOTATOR)[0])
    client.force_login(other)
    url = reverse("annotations:review-forms-occurrences", args=[ft.pk])
    assert client.get(url, {"label": "PERSON", "form": "um"}).status_code in (403, 404)


def test_a_form_relabel_counts_every_mention_it_moved_in_the_habits(annotator):
    from annotations.selectors.forms import relabel_habits
    from annotations.services.review import spans_relabel_form

    other = make_transcript(TEXT, assignees=[annotator])
    for m in re.finditer(r"\bQuill\b", TEXT):
        Span.objects.create(transcript=other, start=m.start(), end=m.end(), label="LOCATION")
    spans_relabel_form(
        transcript=other, actor=annotator, label="LOCATION", form="quill", to="PERSON"
    )
    assert relabel_habits() == {"LOCATION": ("PERSON", 3)}


# --- One occurrence decided alone, from the form's list ---------------


def _occurrence_url(ft, action):
    return reverse("annotations:review-forms-action", args=[ft.pk, action]) + "?label=PERSON"


def test_the_occurrence_list_offers_a_decision_per_occurrence_with_its_version(
    client, annotator, ft
):
    client.force_login(annotator)
    body = client.get(
        reverse("annotations:review-forms-occurrences", args=[ft.pk]),
        {"label": "PERSON", "form": "um"},
    ).content.decode()
    spans = Span.objects.filter(transcript=ft, label="PERSON", start__in=[
        m.start() for m in re.finditer(r"\b(?i:um)\b", TEXT)
    ])  # fmt: skip
    assert body.count('class="fm-o ') == 4
    for span in spans:
        assert f'data-span="{span.pk}" data-version="{span.version}"' in body
    assert body.count('data-occ="accept"') == 4
    assert body.count('data-occ="reject"') == 4
    assert body.count('class="tiny fm-pick"') == 4


def test_rejecting_one_occurrence_keeps_the_others_open_and_the_list_open_in_the_answer(
    client, annotator, ft
):
    client.force_login(annotator)
    first, *rest = Span.objects.filter(transcript=ft, start__in=[
        m.start() for m in re.finditer(r"\b(?i:um)\b", TEXT)
    ]).order_by("start")  # fmt: skip
    response = client.post(
        _occurrence_url(ft, "reject"),
        {"span": first.pk, "version": first.version, "open": "um"},
        **HX,
    )
    assert response.status_code == 200
    first.refresh_from_db()
    assert first.status == "rejected"
    assert {s.status for s in Span.objects.filter(pk__in=[s.pk for s in rest])} == {"suggested"}
    body = response.content.decode()
    assert body.count('class="fm-row') == 1  # only the form's row is redrawn
    assert 'class="fm-occ" aria-label' in body and 'class="fm-occ" hidden' not in body
    assert f'data-span="{first.pk}" data-version="{first.version}"' in body
    assert "3 open · 0 kept · 1 rejected" in body
    assert "data-toast-undo" in body
    client.post(_occurrence_url(ft, "undo"), {}, **HX)
    first.refresh_from_db()
    assert first.status == "suggested"


def test_relabelling_one_occurrence_moves_it_alone_to_the_other_labels_table(client, annotator, ft):
    client.force_login(annotator)
    span = Span.objects.filter(transcript=ft, start=TEXT.index("Quill")).get()
    response = client.post(
        _occurrence_url(ft, "relabel"),
        {"span": span.pk, "version": span.version, "label": "NRP"},
        **HX,
    )
    assert response.status_code == 200
    table = review_form_table(transcript=ft)
    assert [f.count for f in table["PERSON"] if f.key == "quill"] == [2]
    assert [f.form for f in table["NRP"]] == ["Quill"]


def test_a_stale_occurrence_version_answers_409_and_redraws_the_row(client, annotator, ft):
    from annotations.services.review import span_accept

    client.force_login(annotator)
    span = Span.objects.filter(transcript=ft, start=TEXT.index("Fresno")).get()
    stale = span.version
    span_accept(span=span.pk, actor=annotator, version=stale)  # someone else, meanwhile
    response = client.post(
        reverse("annotations:review-forms-action", args=[ft.pk, "reject"]) + "?label=LOCATION",
        {"span": span.pk, "version": stale},
        **HX,
    )
    assert response.status_code == 409
    span.refresh_from_db()
    assert span.status == "accepted"
    assert 'data-form="fresno"' in response.content.decode()


def test_the_table_offers_a_label_menu_on_every_row(client, annotator, ft):
    client.force_login(annotator)
    body = client.get(
        reverse("annotations:review-forms", args=[ft.pk]), {"label": "PERSON"}
    ).content.decode()
    assert body.count('class="tiny fm-pick"') == 4
    assert 'id="fm-picker"' in body and 'data-to="NRP"' in body


@pytest.mark.parametrize("mentions", [3, 12])
def test_relabelling_a_form_updates_its_mentions_in_as_many_statements_whatever_their_number(
    annotator, mentions
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from annotations.services.review import review_assign_entities, spans_relabel_form

    text = "\n".join(f"WITNESS: Fresno was far, line {i}." for i in range(mentions))
    transcript = make_transcript(text, assignees=[annotator])
    for m in re.finditer(r"Fresno", text):
        Span.objects.create(transcript=transcript, start=m.start(), end=m.end(), label="PERSON")
    review_assign_entities(transcript=transcript)
    with CaptureQueriesContext(connection) as queries:
        spans = spans_relabel_form(
            transcript=transcript, actor=annotator, label="PERSON", form="fresno", to="LOCATION"
        )
    assert len(spans) == mentions and {s.label for s in spans} == {"LOCATION"}
    updates = [
        q for q in queries if q["sql"].startswith("UPDATE") and "annotations_span" in q["sql"]
    ]
    assert len(updates) <= 3, len(updates)
