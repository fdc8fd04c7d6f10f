"""A season pins the catalogue it plays (issue 17: costs).

Before this migration a registered roster's points were read from the current catalogue. A
season with registrations is pinned to the catalogue as it is now, which is what its rosters
played until today; a season nobody has joined yet pins at its first registration. A season
of a system whose rosters have no catalogue costs (none, or an army from outside) is not pinned.
"""

from typing import Any

from django.db import migrations, models
from django.utils import timezone


def catalog_versions(apps: Any, system_id: int) -> dict[str, dict[str, int]]:
    """Every profile's and item's current version in the system (as ``season_catalog``)."""
    profile = apps.get_model("catalog", "Profile")
    item = apps.get_model("catalog", "Item")
    return {
        "profiles": dict(
            profile.objects.filter(system_id=system_id).values_list("slug", "version")
        ),
        "items": dict(item.objects.filter(system_id=system_id).values_list("slug", "version")),
    }


def plays_costs(slug: str) -> bool:
    """As ``apps.leagues.season_catalog.plays_costs``: a system with roster rules whose armies
    come from the catalogue (a system unknown to the code has no costs to pin)."""
    from apps.systems.core.registry import registry

    if slug not in registry().slugs():
        return False
    info = registry().get(slug)
    return info.rosters is not None and not info.outside_army


def pin_joined_seasons(apps: Any, schema_editor: Any) -> None:
    season_model = apps.get_model("leagues", "Season")
    now = timezone.now()
    joined = season_model.objects.filter(
        catalog_pin__isnull=True, registrations__isnull=False
    ).distinct()
    pins: dict[int, dict[str, dict[str, int]]] = {}
    for season in joined.select_related("league__system"):
        if not plays_costs(season.league.system.slug):
            continue
        system_id = season.league.system_id
        if system_id not in pins:
            pins[system_id] = catalog_versions(apps, system_id)
        season.catalog_pin, season.catalog_pinned_at = pins[system_id], now
        season.save(update_fields=["catalog_pin", "catalog_pinned_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("catalog", "0002_catalog_stamp"),
        ("leagues", "0006_season_reveal_in_range"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="catalog_pin",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="season",
            name="catalog_pinned_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.AlterField(
            model_name="logentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("round_paired", "round paired"),
                    ("round_published", "round published"),
                    ("round_discarded", "draft round discarded"),
                    ("pairing_swapped", "players swapped"),
                    ("result_disputed", "result disputed"),
                    ("result_overridden", "result set by an organiser"),
                    ("roster_requested", "roster change requested"),
                    ("roster_approved", "roster change approved"),
                    ("roster_rejected", "roster change rejected"),
                    ("player_dropped", "player dropped"),
                    ("organiser_added", "organiser added"),
                    ("season_finished", "season finished"),
                    ("timer_started", "round timer started"),
                    ("timer_paused", "round timer paused"),
                    ("timer_resumed", "round timer resumed"),
                    ("timer_adjusted", "round timer changed"),
                    ("timer_stopped", "round timer stopped"),
                    ("check_in_set", "check-in set by an organiser"),
                    ("day_settings", "tournament day settings changed"),
                    ("costs_pinned", "season's costs set to the current catalogue"),
                ],
                max_length=24,
            ),
        ),
        migrations.RunPython(pin_joined_seasons, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("catalog_pin__isnull", True), ("catalog_pinned_at__isnull", True)),
                    models.Q(
                        ("catalog_pin__has_keys", ["profiles", "items"]),
                        ("catalog_pinned_at__isnull", False),
                    ),
                    _connector="OR",
                ),
                name="season_catalog_pin_complete",
            ),
        ),
    ]
