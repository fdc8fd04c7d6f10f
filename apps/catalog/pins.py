"""A catalogue pinned at versions: what a league season plays (issue 17: costs).

Organisers edit costs in the admin, and every edit makes a new version of the card (kept as a
revision, ``apps.catalog.services``). A season stores the version of every profile and item
when it is pinned (``catalog_versions``) and reads its catalogue as the revisions at those
versions (``pinned_catalog``), so an edit never changes the points of a roster registered for
it. A card added after the pin is read as it is now.

Deleting a card would take its revisions with it, so a card that a pin holds cannot be deleted:
the apps that pin register what holds a card (``register_card_holder``; the league seasons) and
every delete, from the admin or any code, is refused while one does (``refuse_held_delete``).
A pinned version without its revision can then only come from data written around the
services (a card saved without its revision): it is read as the card is now, and logged as an
error, since the points of the rosters that use it may have changed. Refusing it instead would
take the season's pages down for something no player or organiser can mend.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Mapping
from typing import Any

from django.db.models import ProtectedError
from django.utils.translation import gettext as _

from apps.catalog.models import GameSystem, Item, ItemRevision, Profile, ProfileRevision
from apps.systems.core.rosters import CatalogData, CatalogEntry

PIN_KINDS = ("profiles", "items")
Pin = dict[str, dict[str, int]]
# What holds cards of a system at pinned versions: (system, kind, slugs) -> a description of
# each holder, for the refusal of a delete ("the season “Frühling” of the league “Mittwoch”").
CardHolder = Callable[[GameSystem, str, Collection[str]], list[str]]

logger = logging.getLogger(__name__)
_HOLDERS: list[CardHolder] = []


def catalog_versions(system: GameSystem) -> Pin:
    """The version of every profile and item of the system now: a season's pin."""
    return {
        "profiles": dict(Profile.objects.filter(system=system).values_list("slug", "version")),
        "items": dict(Item.objects.filter(system=system).values_list("slug", "version")),
    }


def pin_versions(pin: Any, kind: str) -> dict[str, int]:
    """The pinned versions of one kind; anything malformed in stored data is left out (that
    card is then read as it is now) rather than failing a page."""
    versions = pin.get(kind) if isinstance(pin, Mapping) else None
    if not isinstance(versions, Mapping):
        return {}
    return {
        slug: version
        for slug, version in versions.items()
        if isinstance(slug, str) and isinstance(version, int) and not isinstance(version, bool)
    }


def pin_differs(pin: Any, current: CatalogData) -> bool:
    """Whether any card of ``current`` is at another version than ``pin`` holds (a card added
    since counts as no difference: the season reads it as it is)."""
    for kind, entries in (("profiles", current.profiles), ("items", current.items)):
        versions = pin_versions(pin, kind)
        if any(slug in versions and versions[slug] != e.version for slug, e in entries.items()):
            return True
    return False


def pinned_catalog(system: GameSystem, pin: Any, current: CatalogData) -> CatalogData:
    """``current`` (the system's catalogue now) with every card the pin holds at another version
    replaced by its revision at the pinned version (one missing is logged, see above)."""
    profiles, items = dict(current.profiles), dict(current.items)
    old_profiles = _moved(pin_versions(pin, "profiles"), profiles)
    if old_profiles:
        revisions = ProfileRevision.objects.filter(
            profile__system=system, profile__slug__in=old_profiles
        ).select_related("profile")
        for rev in revisions:
            slug = rev.profile.slug
            if old_profiles[slug] == rev.version:
                profiles[slug] = _entry(rev, slug, factions=tuple(rev.factions))
        _log_missing(system, "profiles", old_profiles, profiles)
    old_items = _moved(pin_versions(pin, "items"), items)
    if old_items:
        item_revisions = ItemRevision.objects.filter(
            item__system=system, item__slug__in=old_items
        ).select_related("item")
        for item_rev in item_revisions:
            slug = item_rev.item.slug
            if old_items[slug] == item_rev.version:
                items[slug] = _entry(item_rev, slug, kind=item_rev.kind, cost=item_rev.cost)
        _log_missing(system, "items", old_items, items)
    return CatalogData(factions=current.factions, profiles=profiles, items=items)


def _log_missing(
    system: GameSystem, kind: str, pinned: Mapping[str, int], read: Mapping[str, CatalogEntry]
) -> None:
    """Log the pinned cards read as they are now because their revision is missing."""
    missing = {slug: v for slug, v in pinned.items() if read[slug].version != v}
    if missing:
        logger.error(
            "Pinned %s of %s without their revision, read as they are now: %s",
            kind,
            system.slug,
            ", ".join(f"{slug} v{v} (now v{read[slug].version})" for slug, v in missing.items()),
        )


def register_card_holder(holder: CardHolder) -> None:
    """Make ``holder`` refuse the deletion of the cards it names (once, however often called)."""
    if holder not in _HOLDERS:
        _HOLDERS.append(holder)


def card_holders(system: GameSystem, kind: str, slugs: Collection[str]) -> list[str]:
    """What holds any of these cards at a pinned version, in words; empty: they may go."""
    return [name for holder in _HOLDERS for name in holder(system, kind, slugs)] if slugs else []


class CardHeld(ProtectedError):
    """A card a pin holds cannot be deleted."""


def held_message(card: Profile | Item, holders: list[str]) -> str:
    """Why ``card`` cannot be deleted, naming what holds it."""
    return _(
        "%(card)s cannot be deleted: its costs are pinned for %(holders)s, and a league "
        "season's costs stay as they were."
    ) % {"card": card.name, "holders": ", ".join(holders)}


def refuse_held_delete(sender: type, instance: Profile | Item, **kwargs: Any) -> None:
    """``pre_delete`` of profiles and items: refuse deleting a card a pin holds. The system's
    row is locked first, as a pin locks it (``apps.leagues.season_catalog.season_pin``), so a
    pin taken at the same time either waits and no longer sees the card, or is seen here."""
    GameSystem.objects.select_for_update().filter(pk=instance.system_id).values_list("pk").first()
    kind = "profiles" if isinstance(instance, Profile) else "items"
    holders = card_holders(instance.system, kind, [instance.slug])
    if holders:
        raise CardHeld(held_message(instance, holders), {instance})


def _moved(versions: Mapping[str, int], entries: Mapping[str, CatalogEntry]) -> dict[str, int]:
    """The pinned cards whose current version is another one."""
    return {
        slug: version
        for slug, version in versions.items()
        if slug in entries and entries[slug].version != version
    }


def _entry(revision: ProfileRevision | ItemRevision, slug: str, **extra: Any) -> CatalogEntry:
    return CatalogEntry(
        slug=slug,
        name=revision.name,
        stats=revision.stats,
        version=revision.version,
        sample=revision.sample,
        **extra,
    )
