from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_tracked_results_name_their_reporter"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="result",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("source", "manual"), ("reported_side__in", ["a", "b"])),
                    models.Q(
                        ("source", "tracked"),
                        models.Q(
                            ("reported_side__in", ["a", "b"]),
                            models.Q(
                                ("reported_side", ""),
                                models.Q(("status", "reported"), _negated=True),
                            ),
                            _connector="OR",
                        ),
                    ),
                    models.Q(("source", "organiser"), ("reported_side", "")),
                    _connector="OR",
                ),
                name="result_reporter_is_a_side",
            ),
        ),
    ]
