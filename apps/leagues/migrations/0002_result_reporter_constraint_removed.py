from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0001_initial"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="result", name="result_reporter_is_a_side"),
    ]
