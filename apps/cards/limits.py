"""How large an export may be, and the errors of an export that cannot be started.

The ceiling (``rendering.MAX_CARDS_PER_EXPORT``) holds everywhere; without a broker, where the
export is rendered inside the request, a lower one does (``IN_PROCESS_MAX_CARDS``).
"""

from __future__ import annotations

from typing import Final

from django.utils.translation import gettext as _

from apps.cards.rendering import MAX_CARDS_PER_EXPORT, too_many_cards_message

# Without a broker (no CELERY_BROKER_URL: development, a single small server) an export is
# rendered inside the web request that asks for it. Only a small one: about 0.1 s a card, so
# a legal team (under 40 cards) takes a few seconds and nothing comes near gunicorn's 30 s
# timeout. A larger export is refused with a message instead.
IN_PROCESS_MAX_CARDS: Final = 40


class ExportsUnavailable(Exception):
    """The task queue cannot be reached: no export can be started now (or, without a broker,
    none this large: ``message`` says which)."""

    def __init__(self, message: str = "") -> None:
        super().__init__(
            message
            or _(
                "Card exports are unavailable right now: the task queue cannot be reached. "
                "Please try again in a few minutes."
            )
        )


class ExportTooLarge(Exception):
    """More cards than one export may print (``rendering.MAX_CARDS_PER_EXPORT``)."""

    code = "too_many_cards"

    def __init__(self, count: int) -> None:
        super().__init__(too_many_cards_message(count))
        self.count = count


def check_size(count: int, *, in_process: bool) -> None:
    """Refuse an export over the ceiling, and, without a broker, one too large to render
    inside the request."""
    if count > MAX_CARDS_PER_EXPORT:
        raise ExportTooLarge(count)
    if in_process and count > IN_PROCESS_MAX_CARDS:
        raise ExportsUnavailable(
            _(
                "Printing is unavailable right now: without the print queue only up to "
                "%(limit)d cards can be printed at once, and this print has %(count)d. "
                "Print the roster sheet alone, or try again later."
            )
            % {"limit": IN_PROCESS_MAX_CARDS, "count": count}
        )
