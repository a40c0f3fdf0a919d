"""Create one demo account per role (annotator, lead, admin); idempotent.

Passwords are random and printed once, when the account is created. Running the
command again changes nothing and says so.
"""

import secrets

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

    def handle(self, *args, **options):
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
        if created_lines:
            self.stdout.write("Demo accounts created (shown only this once):")
            for line in created_lines:
                self.stdout.write(line)
        else:
            self.stdout.write(
                "Demo accounts already exist; passwords unchanged "
                "(reset one with: python manage.py changepassword USERNAME)."
            )
