"""Create one demo account per role (annotator, lead, admin); idempotent.

Passwords are random and printed once, when the account is created. Running the
command again changes nothing and says so.

``make run`` passes ``--passwords-file var/demo_passwords``: the new passwords are kept
there (mode 600) instead of printed among the start-up output, and
``create_demo_accounts --show-box var/demo_passwords``, the last thing ``make run`` does
before it serves, prints them in a box and deletes the file (printed once, they
drowned in the installer's warnings).
"""

import os
import secrets
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

from anonreview import roles

DEMO_ACCOUNTS = (
    ("annotator", roles.ANNOTATOR),
    ("lead", roles.LEAD),
    ("admin", roles.ADMIN),
)


class Command(BaseCommand):
    help = "Create the demo accounts annotator, lead and admin (prints passwords once)."

    def add_arguments(self, parser):
        parser.add_argument("--password", help="Use this password instead of random ones.")
        parser.add_argument(
            "--passwords-file", help="Keep new passwords in this file (mode 600), not stdout."
        )
        parser.add_argument(
            "--show-box",
            metavar="FILE",
            help="Print the passwords kept in FILE in a box, delete it.",
        )
        parser.add_argument(
            "--after-workers",
            type=int,
            default=0,
            metavar="N",
            help="With --show-box: first wait (up to 5 minutes) until N workers are alive.",
        )

    def handle(self, *args, **options):
        if options["show_box"]:
            self._wait_for_workers(options["after_workers"])
            return self._show_box(Path(options["show_box"]))
        User = get_user_model()
        created_lines = []
        for username, role in DEMO_ACCOUNTS:
            group, _ = Group.objects.get_or_create(name=role)
            user, created = User.objects.get_or_create(username=username)
            if created:
                password = options["password"] or secrets.token_urlsafe(9)
                user.set_password(password)
                user.is_staff = role == roles.ADMIN
                user.is_superuser = role == roles.ADMIN
                user.save()
                created_lines.append(f"  {username:10} {password:16} ({role})")
            user.groups.add(group)
        if created_lines and options["passwords_file"]:
            path = Path(options["passwords_file"])
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as out:
                out.write("\n".join(created_lines) + "\n")
            self.stdout.write(
                "Demo accounts created; their passwords are shown when the server starts."
            )
        elif created_lines:
            self.stdout.write("Demo accounts created (shown only this once):")
            for line in created_lines:
                self.stdout.write(line)
        else:
            self.stdout.write(
                "Demo accounts already exist; passwords unchanged "
                "(reset one with: python manage.py changepassword USERNAME)."
            )

    def _wait_for_workers(self, count: int, timeout: float = 300) -> None:
        """Wait until ``count`` workers run (they log while they start: the box comes
        after them); gives up silently after ``timeout`` seconds."""
        import time

        from anonreview.core.workers import workers_alive_count

        deadline = time.monotonic() + timeout
        while count > 0 and time.monotonic() < deadline:
            if workers_alive_count() >= count:
                time.sleep(1)  # their first lines
                return
            time.sleep(0.5)

    def _show_box(self, path: Path) -> None:
        """The passwords kept by ``--passwords-file``, in a box; the file is deleted."""
        try:
            lines = [line.rstrip() for line in path.read_text().splitlines() if line.strip()]
        except FileNotFoundError:
            return  # accounts made earlier: their passwords were shown then
        title = "Demo accounts (passwords shown only this once)"
        body = [title, "", *lines, "", "Reset one: .venv/bin/python manage.py changepassword USER"]
        width = max(len(line) for line in body)
        self.stdout.write("+" + "-" * (width + 2) + "+")
        for line in body:
            self.stdout.write(f"| {line:<{width}} |")
        self.stdout.write("+" + "-" * (width + 2) + "+")
        path.unlink()
