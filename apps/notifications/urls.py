"""URLs of the notification pages."""

from __future__ import annotations

from django.urls import path

from apps.notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.mark_all_read, name="mark_all_read"),
    path("<int:notification_id>/", views.notification_open, name="open"),
]
