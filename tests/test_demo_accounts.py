from django.contrib.auth import get_user_model
from django.core.management import call_command

from anonreview import roles


def test_demo_accounts_are_created_once_with_roles(db, capsys):
    call_command("create_demo_accounts")
    first = capsys.readouterr().out
    assert "shown only this once" in first
    call_command("create_demo_accounts")
    second = capsys.readouterr().out
    assert "already exist" in second
    User = get_user_model()
    assert User.objects.filter(username__in=["annotator", "lead", "admin"]).count() == 3
    assert roles.is_lead(User.objects.get(username="lead"))
    assert not roles.is_lead(User.objects.get(username="annotator"))
    assert roles.is_admin(User.objects.get(username="admin"))
