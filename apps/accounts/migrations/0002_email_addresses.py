"""Users from before django-allauth keep their email address: one EmailAddress row each.

The address was never verified, so it is recorded as unverified (allauth asks to verify it when
ACCOUNT_EMAIL_VERIFICATION is mandatory). It becomes the primary address, as it is ``user.email``.
"""

from django.db import migrations


def email_addresses_create(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    have = set(EmailAddress.objects.values_list("user_id", flat=True))
    EmailAddress.objects.bulk_create(
        [
            EmailAddress(user_id=user_id, email=email.strip().lower(), primary=True, verified=False)
            for user_id, email in User.objects.exclude(email="").values_list("id", "email")
            if user_id not in have and email.strip()
        ],
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(email_addresses_create, migrations.RunPython.noop)]
