"""The badge, the list page, opening a notification and reading them all."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from apps.accounts.models import User
from apps.notifications.models import Notification
from apps.notifications.views import safe_target
from tests.accounts.factories import UserFactory

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
LIST = reverse("notifications:list")
Kind = Notification.Kind


def notify(user: User, count: int = 1, *, url: str = "/leagues/") -> list[Notification]:
    return Notification.objects.bulk_create(
        Notification(
            user=user,
            kind=Kind.RESULT_DECIDED,
            url=url,
            params={"a": "Ada", "b": "Ben", "vp_a": 3, "vp_b": count, "round": 1, "league": "L"},
        )
        for _ in range(count)
    )


def test_badge_shows_the_unread_count_in_one_query(client: Any) -> None:
    user = UserFactory()
    notify(user, 2)
    Notification.objects.filter(pk=notify(user)[0].pk).update(read_at="2026-01-01T00:00Z")
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("pages:home"), **EN).content.decode()
    counted = [q for q in queries if "notifications_notification" in q["sql"]]
    assert len(counted) == 1
    assert '<span class="badge warn">2<span class="visually-hidden"> unread</span>' in page


def test_no_badge_when_everything_is_read(client: Any) -> None:
    user = UserFactory()
    client.force_login(user)
    page = client.get(reverse("pages:home"), **EN).content.decode()
    assert f'href="{LIST}"' in page
    assert "badge warn" not in page


def test_anonymous_pages_do_not_count_notifications(client: Any) -> None:
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("pages:home"), **EN).content.decode()
    assert not [q for q in queries if "notifications_notification" in q["sql"]]
    assert f'href="{LIST}"' not in page


def test_list_needs_a_login(client: Any) -> None:
    response = client.get(LIST)
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_list_shows_only_the_users_own_notifications_newest_first(client: Any) -> None:
    user, other = UserFactory(), UserFactory()
    first, second = notify(user), notify(user)
    Notification.objects.filter(pk=second[0].pk).update(read_at="2026-01-01T00:00Z")
    Notification.objects.filter(pk=first[0].pk).update(created_at="2026-01-01T00:00Z")
    mine_url = reverse("notifications:open", args=[first[0].pk])
    theirs = notify(other)[0]
    client.force_login(user)
    page = client.get(LIST, **EN).content.decode()
    assert page.index(reverse("notifications:open", args=[second[0].pk])) < page.index(mine_url)
    assert reverse("notifications:open", args=[theirs.pk]) not in page
    assert "An organiser set the result of Ada – Ben" in page
    assert page.count('class="card unread"') == 1
    assert "Mark all as read" in page


def test_list_pages_by_fifty(client: Any) -> None:
    user = UserFactory()
    notify(user, 51)
    client.force_login(user)
    first = client.get(LIST, **EN).content.decode()
    second = client.get(LIST, {"page": 2}, **EN).content.decode()
    assert first.count('class="card unread"') == 50
    assert second.count('class="card unread"') == 1
    assert "Page 2 of 2" in second


def test_opening_a_notification_marks_it_read_and_follows_its_link(client: Any) -> None:
    user = UserFactory()
    [notification] = notify(user, url="/leagues/abc/games/1/")
    client.force_login(user)
    response = client.get(reverse("notifications:open", args=[notification.pk]))
    assert response.status_code == 302
    assert response["Location"] == "/leagues/abc/games/1/"
    notification.refresh_from_db()
    assert notification.read_at is not None


def test_opening_another_users_notification_is_404(client: Any) -> None:
    [theirs] = notify(UserFactory())
    client.force_login(UserFactory())
    response = client.get(reverse("notifications:open", args=[theirs.pk]))
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_a_notification_without_a_link_opens_the_list(client: Any) -> None:
    user = UserFactory()
    [notification] = notify(user, url="")
    client.force_login(user)
    response = client.get(reverse("notifications:open", args=[notification.pk]))
    assert response["Location"] == LIST


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/",
        "//evil.example/",
        "/\\evil.example/",
        "javascript:alert(1)",
        "leagues/",
        "",
    ],
)
def test_only_paths_on_this_site_are_followed(url: str) -> None:
    assert safe_target(url) is None


def test_a_path_on_this_site_is_followed() -> None:
    assert safe_target("/leagues/abc/games/1/?x=1") == "/leagues/abc/games/1/?x=1"


def test_mark_all_read_needs_a_post(client: Any) -> None:
    user = UserFactory()
    notify(user, 2)
    client.force_login(user)
    assert client.get(reverse("notifications:mark_all_read")).status_code == 405
    assert Notification.objects.filter(user=user, read_at__isnull=True).count() == 2


def test_mark_all_read_reads_only_the_users_own(client: Any) -> None:
    user, other = UserFactory(), UserFactory()
    notify(user, 2)
    notify(other)
    client.force_login(user)
    response = client.post(reverse("notifications:mark_all_read"))
    assert response.status_code == 302
    assert not Notification.objects.filter(user=user, read_at__isnull=True).exists()
    assert Notification.objects.filter(user=other, read_at__isnull=True).count() == 1


def test_mark_all_read_from_htmx_answers_with_the_list(client: Any) -> None:
    user = UserFactory()
    notify(user)
    client.force_login(user)
    response = client.post(reverse("notifications:mark_all_read"), HTTP_HX_REQUEST="true", **EN)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="notifications"' in page
    assert "<html" not in page
    assert 'class="card unread"' not in page
    assert 'id="nav-notifications" class="nav-notifications" href="/notifications/"' in page
    assert 'hx-swap-oob="true"' in page
    assert "badge warn" not in page  # the badge in the navigation is swapped for an empty one


def test_mark_all_read_checks_the_csrf_token(client: Any) -> None:
    from django.test import Client

    user = UserFactory()
    notify(user)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post(reverse("notifications:mark_all_read")).status_code == 403


def test_profile_turns_email_notifications_off_and_on(client: Any) -> None:
    user = UserFactory(display_name="Ada")
    client.force_login(user)
    profile = reverse("accounts:profile")
    page = client.get(profile, **EN).content.decode()
    assert 'name="email_notifications"' in page
    assert "checked" in page
    client.post(profile, {"display_name": "Ada"})
    user.refresh_from_db()
    assert user.email_notifications is False
    client.post(profile, {"display_name": "Ada", "email_notifications": "on"})
    user.refresh_from_db()
    assert user.email_notifications is True
