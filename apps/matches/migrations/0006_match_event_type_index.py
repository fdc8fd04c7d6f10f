from django.db import migrations, models


class Migration(migrations.Migration):
    """An index for a match's undo markers: the tracker reads them on every render, and
    without it that read scans the whole log."""

    dependencies = [
        ("matches", "0005_seat_held_by_team_owner"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="matchevent",
            index=models.Index(fields=["match", "type"], name="match_event_type"),
        ),
    ]
