from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0004_seats_taken_by_their_owner"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="matchplayer",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("user__isnull", True), ("user", models.F("team_owner")), _connector="OR"
                ),
                name="match_player_held_by_team_owner",
            ),
        ),
    ]
