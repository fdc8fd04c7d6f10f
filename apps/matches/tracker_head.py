"""The *head* of a match in the shared cache: what the tracker's render key reads of the match
row and its seats besides the seq (spectator token, creator, archiving, clock, who holds which
seat), so that a refresh can find its kept render without the database
(``apps.matches.kept_refresh``). The database path of a refresh writes it.

A change to the head without a new seq (archiving, a seat taken, the clock) gives the match a
new head *generation* once it commits; a head is used only with the generation that was
current before its values were read, so a head read just before such a change is never used
after it. A generation lost while the cache is away is bounded by the head's short life, as
the seq's is.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

from django.core.cache import cache
from django.db import transaction

from apps.matches import seqcache

HEAD_TTL_SECONDS = seqcache.TTL_SECONDS
GENERATION_TTL_SECONDS = 24 * 60 * 60


def _generation_key(match_id: int) -> str:
    return f"tracker-head-gen:{match_id}"


def _head_key(match_id: int) -> str:
    return f"tracker-head:{match_id}"


def generation(match_id: int) -> str | None:
    """The match's current head generation, made if there is none; ``None`` while the cache
    does not answer (then no head is written). Read it before reading what the head holds."""
    if not seqcache.enabled():
        return None
    cache.add(_generation_key(match_id), secrets.token_hex(8), GENERATION_TTL_SECONDS)
    value = cache.get(_generation_key(match_id))
    return value if isinstance(value, str) else None


def remember(
    match_id: int, generation_read: str | None, row: tuple[Any, ...], players: Sequence[Any]
) -> None:
    """Keep the head read under ``generation_read``: the match row's values after its seq
    (``tracker_cache.MatchRow`` order) and its seats."""
    if generation_read is not None:
        cache.set(_head_key(match_id), (generation_read, row, list(players)), HEAD_TTL_SECONDS)


def _renew(match_id: int) -> None:
    if seqcache.enabled():
        cache.set(_generation_key(match_id), secrets.token_hex(8), GENERATION_TTL_SECONDS)


def renew_on_commit(match_id: int) -> None:
    """Call inside the transaction of a change the head holds (archiving, a seat, the clock):
    once it commits, no head read before it is used again."""
    transaction.on_commit(partial(_renew, match_id))


def keys(match_id: int, nonce: str) -> list[str]:
    """The cache keys ``read`` needs (for one round trip with others, ``get_many``)."""
    return [seqcache.seq_key(match_id, nonce), _generation_key(match_id), _head_key(match_id)]


def read(
    found: Mapping[str, Any], match_id: int, nonce: str
) -> tuple[int, tuple[Any, ...], list[Any]] | None:
    """The seq, the head row and the seats, from the values of ``keys``, if they hold a head of
    the current generation for this match."""
    seq, current_generation, head = (found.get(key) for key in keys(match_id, nonce))
    if not isinstance(seq, int) or not isinstance(head, tuple) or len(head) != 3:
        return None
    generation_read, row, players = head
    if current_generation is None or generation_read != current_generation:
        return None
    if seqcache.nonce_of(row[0]) != nonce:  # the head of a match that had this id before
        return None
    return seq, row, players


def current(match_id: int, nonce: str) -> tuple[int, tuple[Any, ...], list[Any]] | None:
    return read(cache.get_many(keys(match_id, nonce)), match_id, nonce)
