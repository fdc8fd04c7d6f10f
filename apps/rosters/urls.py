"""URLs of the roster pages."""

from __future__ import annotations

from django.urls import path

from apps.rosters import army_views, views

app_name = "rosters"

urlpatterns = [
    path("", views.roster_list, name="list"),
    path("new/<slug:system_slug>/", views.roster_new, name="new"),
    path("import/", views.roster_import, name="import"),
    path("import/<slug:system_slug>/army/", army_views.army_import, name="army_import"),
    path("<int:roster_id>/units/", army_views.unit_add, name="unit_add"),
    path("<int:roster_id>/units/<int:unit_id>/answer/", army_views.unit_answer, name="unit_answer"),
    path("<int:roster_id>/units/<int:unit_id>/remove/", army_views.unit_remove, name="unit_remove"),
    path("<int:roster_id>/", views.roster_builder, name="builder"),
    path("<int:roster_id>/settings/", views.roster_settings, name="settings"),
    path("<int:roster_id>/fighters/", views.entry_add, name="entry_add"),
    path(
        "<int:roster_id>/fighters/<int:entry_id>/remove/", views.entry_remove, name="entry_remove"
    ),
    path(
        "<int:roster_id>/fighters/<int:entry_id>/rename/", views.entry_rename, name="entry_rename"
    ),
    path("<int:roster_id>/fighters/<int:entry_id>/count/", views.entry_count, name="entry_count"),
    path(
        "<int:roster_id>/fighters/<int:entry_id>/attach/", views.entry_attach, name="entry_attach"
    ),
    path(
        "<int:roster_id>/fighters/<int:entry_id>/update/",
        views.entry_update_version,
        name="entry_update",
    ),
    path("<int:roster_id>/fighters/<int:entry_id>/items/", views.item_add, name="item_add"),
    path(
        "<int:roster_id>/fighters/<int:entry_id>/items/<int:row_id>/remove/",
        views.item_remove,
        name="item_remove",
    ),
    path("<int:roster_id>/duplicate/", views.roster_duplicate, name="duplicate"),
    path("<int:roster_id>/delete/", views.roster_delete, name="delete"),
    path("<int:roster_id>/share/", views.roster_share, name="share"),
    path("<int:roster_id>/export/", views.roster_export, name="export"),
    path("shared/<str:token>/", views.roster_shared, name="shared"),
]
