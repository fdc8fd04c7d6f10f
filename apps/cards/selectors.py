"""Reads of card exports: who may see a roster's cards and an export.

Who may print a roster's cards: whoever may see the roster, that is its owner (logged in) and
anyone holding its current share token (also logged out). An export is visible to the same
people while its roster exists; once the roster is gone, only to the person who asked for it
(to read why it failed). Blank cards belong to the person who asked for them. Everybody else
gets a 404, as for rosters: other people's exports are not revealed to exist.
"""

from __future__ import annotations

import secrets

from django.contrib.auth.models import AnonymousUser
from django.http import Http404

from apps.accounts.models import User
from apps.cards.documents import document_kind
from apps.cards.models import CardExport
from apps.rosters.models import Roster
from apps.rosters.selectors import roster_by_share_token, roster_for_owner


def roster_for_viewer(user: User | AnonymousUser, roster_id: int, share_token: str) -> Roster:
    """The roster with its contents if ``user`` owns it or ``share_token`` is its share token;
    404 otherwise."""
    if share_token:
        roster = roster_by_share_token(share_token)
        if roster.pk != roster_id:
            raise Http404
        return roster
    if not isinstance(user, User):
        raise Http404
    return roster_for_owner(user, roster_id)


def _may_see(export: CardExport, user: User | AnonymousUser, share_token: str) -> bool:
    document = document_kind(export.contents)
    if document is not None:
        return document.may_see(export, user)
    own = user.is_authenticated and export.requested_by_id == user.pk
    roster = export.roster
    if export.contents == CardExport.Contents.BLANK or roster is None:
        return own
    if user.is_authenticated and roster.owner_id == user.pk:
        return True
    return bool(
        share_token
        and roster.share_token
        and secrets.compare_digest(share_token.encode(), roster.share_token.encode())
    )


def card_export_for_viewer(
    user: User | AnonymousUser, export_id: int, share_token: str = ""
) -> CardExport:
    export = CardExport.objects.select_related("roster", "system").filter(pk=export_id).first()
    if export is None or not _may_see(export, user, share_token):
        raise Http404
    return export
