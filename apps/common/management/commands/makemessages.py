"""``makemessages`` that also extracts the rule systems' plural pairs: the framework-free
``apps.systems.core.i18n.ngettext_noop(singular, plural)`` marks them as ``ngettext_lazy``
marks Django's (Django's documented way to extend xgettext's keywords)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]
