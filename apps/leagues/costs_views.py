"""The season's costs on its organiser page: set them to the current catalogue (issue 17;
what is pinned and when: ``apps.leagues.season_catalog``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.common.http import HtmxHttpRequest
from apps.leagues.common import LeagueError
from apps.leagues.season_catalog import season_costs_repin
from apps.leagues.view_helpers import request_user


@login_required
@require_POST
def season_costs(request: HtmxHttpRequest, key: str, season_id: int) -> HttpResponse:
    """An organiser sets the season's costs to the current catalogue; the players whose
    registered roster is no longer legal with them are named."""
    back = reverse("leagues:season", args=[key, season_id])
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm the new costs."))
        return redirect(back)
    try:
        outcome = season_costs_repin(user=request_user(request), key=key, season_id=season_id)
    except LeagueError as error:
        messages.error(request, error.message)
        return redirect(back)
    if outcome.changed:
        messages.success(request, _("The season now plays the current costs."))
    else:
        messages.success(request, _("The season's costs are the current catalogue's already."))
    if outcome.illegal:
        messages.warning(
            request,
            _("Not legal with the new costs: %(names)s. Ask them for a roster change.")
            % {"names": ", ".join(outcome.illegal)},
        )
    return redirect(back)
