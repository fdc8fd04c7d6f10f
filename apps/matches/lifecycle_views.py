"""Archiving and deleting a match from its pages (``services.match_archive`` / ``match_delete``,
the same code path as the API).

Archiving hides a match from its players' lists and is undone by unarchiving; any participant
may do either. Deleting is for the match's creator only, asked on a page of its own (works
without JavaScript), and refused for a match whose result a league game records.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.models import User
from apps.common.http import HtmxHttpRequest
from apps.matches import services
from apps.matches.selectors import match_for_participant, match_in_league_record

DELETE = "matches/delete.html"


def _user(request: HtmxHttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


@login_required
@require_POST
def match_archive(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = services.match_archive(user=_user(request), match_id=match_id, archived=True)
    messages.success(
        request,
        _("“%(title)s” is archived: it is listed under Archived matches.") % {"title": match.title},
    )
    return redirect("matches:list")


@login_required
@require_POST
def match_unarchive(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    match = services.match_archive(user=_user(request), match_id=match_id, archived=False)
    messages.success(
        request, _("“%(title)s” is back in your list of matches.") % {"title": match.title}
    )
    return redirect("matches:tracker", match.pk)


@login_required
@require_http_methods(["GET", "POST"])
def match_delete(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """GET: the question (or why it cannot be deleted); POST: delete, then the list."""
    user = _user(request)
    match = match_for_participant(user, match_id)
    if match.created_by_id != user.pk:
        raise PermissionDenied(_("Only the player who opened this match may delete it."))
    if request.method == "GET":
        refusal = services.league_record_message() if match_in_league_record(match) else ""
        return render(request, DELETE, {"match": match, "refusal": refusal})
    title = match.title
    try:
        services.match_delete(user=user, match_id=match_id)
    except services.MatchError as error:
        return render(request, DELETE, {"match": match, "refusal": error.message}, status=409)
    messages.success(request, _("“%(title)s” is deleted.") % {"title": title})
    return redirect(reverse("matches:list"))
