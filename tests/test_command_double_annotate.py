"""``manage.py double_annotate``: a second annotator's copy from the command line."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.factories import make_transcript, make_user
from transcripts.models import Transcript

pytestmark = pytest.mark.django_db


def test_double_annotate_gives_the_second_annotator_a_copy():
    first = make_user("ann1", role="annotator")
    second = make_user("ann2", role="annotator")
    make_user("lead", role="lead")
    t = make_transcript(assignees=[first])
    out = StringIO()
    call_command("double_annotate", str(t.pk), "--to", "ann2", stdout=out)
    copy = Transcript.objects.get(double_of=t)
    assert list(copy.assignees.all()) == [second] and list(t.assignees.all()) == [first]
    assert f"copy {copy.pk}" in out.getvalue()


@pytest.mark.parametrize(
    ("to", "by", "first", "state", "words"),
    [
        ("ann1", "lead", True, Transcript.State.READY, "two different annotators"),
        ("ann2", "ann1", True, Transcript.State.READY, "Only leads"),
        ("ann2", "lead", False, Transcript.State.READY, "no first annotator"),
        ("ann2", "lead", True, Transcript.State.SUBMITTED, "before the transcript is submitted"),
        ("nobody", "lead", True, Transcript.State.READY, "no user 'nobody'"),
    ],
)
def test_double_annotate_refuses_in_a_sentence(to, by, first, state, words):
    ann1 = make_user("ann1", role="annotator")
    make_user("ann2", role="annotator")
    make_user("lead", role="lead")
    t = make_transcript(assignees=[ann1] if first else [], state=state)
    with pytest.raises(CommandError, match=words):
        call_command("double_annotate", str(t.pk), "--to", to, "--by", by)
    assert not Transcript.objects.filter(double_of=t).exists()
