"""``manage.py sample_league``: a public sample league (invented players) to try the pages."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.accounts.models import User
from apps.leagues.sample import SampleUnavailable, sample_league_ensure


class Command(BaseCommand):
    help = "Create the sample league (labelled as sample) organised by the given user."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--organiser", default="demo", help="user name of its organiser")
        parser.add_argument(
            "--force", action="store_true", help="Also create it when DJANGO_DEBUG is off."
        )

    def handle(self, *args: Any, organiser: str, force: bool = False, **options: Any) -> None:
        if not settings.DEBUG and not force:
            raise CommandError("Sample data is for local use; pass --force to create it anyway.")
        user = User.objects.filter(username=organiser).first()
        if user is None:
            raise CommandError(f"No user {organiser!r}; run `manage.py demo_user` first.")
        try:
            league = sample_league_ensure(user)
        except SampleUnavailable as error:
            raise CommandError(str(error)) from None
        self.stdout.write(self.style.SUCCESS(f"Sample league: /leagues/{league.key}/"))
