"""``manage.py demo_user``: create the demo login for a local first start and print it."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.accounts.services import demo_user_ensure


class Command(BaseCommand):
    help = "Create or reset the demo login (staff) for local use and print its credentials."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Also create it when DJANGO_DEBUG is off (never on a public server).",
        )

    def handle(self, *args: Any, force: bool = False, **options: Any) -> None:
        if not settings.DEBUG and not force:
            raise CommandError(
                "Refusing to create a demo login with a known password while DJANGO_DEBUG is "
                "off; pass --force if this really is a private machine."
            )
        login = demo_user_ensure()
        self.stdout.write(
            self.style.SUCCESS(f"Demo login: user {login.username!r}, password {login.password!r}")
        )
