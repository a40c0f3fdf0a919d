from anonreview import roles
from tests.factories import make_transcript, make_user
from transcripts.models import Transcript


def test_annotator_sees_only_assigned_transcripts(annotator, other_annotator):
    mine = make_transcript(assignees=[annotator])
    make_transcript(assignees=[other_annotator])
    make_transcript()
    assert list(Transcript.objects.visible_to(annotator)) == [mine]


def test_lead_and_admin_see_all_transcripts(lead, admin_user, annotator):
    make_transcript(assignees=[annotator])
    make_transcript()
    assert Transcript.objects.visible_to(lead).count() == 2
    assert Transcript.objects.visible_to(admin_user).count() == 2


def test_double_assignment_is_not_duplicated(annotator, other_annotator):
    make_transcript(assignees=[annotator, other_annotator])
    assert Transcript.objects.visible_to(annotator).count() == 1


def test_user_without_role_sees_nothing_and_anonymous_nothing(db):
    from django.contrib.auth.models import AnonymousUser

    make_transcript()
    nobody = make_user("nobody", role=None)
    assert Transcript.objects.visible_to(nobody).count() == 0
    assert Transcript.objects.visible_to(AnonymousUser()).count() == 0


def test_role_checks_follow_groups(annotator, lead, admin_user):
    assert roles.is_annotator(annotator) and not roles.is_lead(annotator)
    assert roles.is_lead(lead) and not roles.is_admin(lead)
    assert roles.is_admin(admin_user) and roles.is_lead(admin_user)
