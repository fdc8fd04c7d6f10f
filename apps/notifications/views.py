"""The notification pages: the list, opening one (which marks it read), and reading them all."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.models import User
from apps.common.http import HtmxHttpRequest
from apps.notifications import selectors, services
from apps.notifications.texts import notification_text

PAGE_SIZE = 50


def _user(request: HtmxHttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _list_page(request: HtmxHttpRequest) -> HttpResponse:
    user = _user(request)
    page = Paginator(selectors.notification_list(user), PAGE_SIZE).get_page(request.GET.get("page"))
    rows = [(n, notification_text(n.kind, n.params)) for n in page]
    template = "notifications/list.html#list" if request.htmx else "notifications/list.html"
    # The unread count (the badge, and whether to offer "mark all read") comes from the
    # context processor: one query for the page.
    return render(request, template, {"page": page, "rows": rows})


@login_required
@require_GET
def notification_list(request: HtmxHttpRequest) -> HttpResponse:
    return _list_page(request)


@login_required
@require_POST
def mark_all_read(request: HtmxHttpRequest) -> HttpResponse:
    services.notifications_mark_all_read(user=_user(request))
    if request.htmx:
        return _list_page(request)
    return redirect("notifications:list")


def safe_target(url: str) -> str | None:
    """The notification's link if it is a path on this site, else None: a stored link must
    never send a reader to another site (an open redirect)."""
    if not url.startswith("/") or url.startswith("//") or "\\" in url:
        return None
    return url if url_has_allowed_host_and_scheme(url, allowed_hosts=None) else None


@login_required
@require_GET
def notification_open(request: HtmxHttpRequest, notification_id: int) -> HttpResponse:
    """Mark the notification read and go where it points; another user's is 404."""
    notification = selectors.notification_for_user(_user(request), notification_id)
    if notification is None:
        raise Http404
    services.notification_mark_read(notification=notification)
    return redirect(safe_target(notification.url) or "notifications:list")
