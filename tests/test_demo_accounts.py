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


def test_passwords_kept_for_the_box_are_shown_once_last(db, tmp_path):
    # Make run keeps them out of the start-up output and prints them last.
    import stat
    from io import StringIO

    from django.core.management import call_command

    kept = tmp_path / "demo_passwords"
    out = StringIO()
    call_command("create_demo_accounts", "--passwords-file", str(kept), stdout=out)
    assert "annotator" not in out.getvalue()  # no password among the start-up lines
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    from anonreview.core import workers

    workers.worker_register(worker_id="w-demo")  # make run: the box waits for the workers
    box = StringIO()
    try:
        call_command(
            "create_demo_accounts", "--show-box", str(kept), "--after-workers", "1", stdout=box
        )
    finally:
        workers.worker_unregister()
    lines = box.getvalue().splitlines()
    assert lines[0].startswith("+-") and lines[-1].startswith("+-")
    assert all(line.startswith("| ") for line in lines[1:-1])
    assert any(line.startswith("|   annotator ") for line in lines)
    assert not kept.exists()  # shown once
    again = StringIO()
    call_command("create_demo_accounts", "--show-box", str(kept), stdout=again)
    assert again.getvalue() == ""
