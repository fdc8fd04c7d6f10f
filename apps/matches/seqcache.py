"""Each match's seq in the shared cache, so that a poll of an unchanged match needs no database.

Every open tracker asks "has the match moved?" every second or two; the answer is the seq.
It is written here when a command (or an undo) commits, and read by ``apps.matches.poll``.

Two rules keep it right with many web processes and a cache that may fail:

- **Only ever upwards.** A seq never decreases, so the cache keeps the greatest value it was
  given (atomically in Redis, ``SharedRedisCache.set_if_greater``). Two commits whose
  callbacks run out of order, or a poll filling the cache with a value it read just before a
  commit, can therefore never put an older seq back.
- **Short-lived.** A write lost while Redis was away (the command committed, the cache kept the
  old seq) is corrected when the entry expires: ``TTL_SECONDS`` bounds how long a poll may say
  "unchanged" wrongly. A miss costs one small query and refills the entry.

Only a cache every process shares may hold it (``settings.MATCH_SEQ_IN_CACHE``): with a local
memory cache per process, another process would keep answering from the seq it saw last.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

TTL_SECONDS = 30
# Local-memory caches (tests, a development server) have no atomic "keep the greater"; one
# process's threads are serialised here instead.
_local_lock = threading.Lock()


def enabled() -> bool:
    return bool(getattr(settings, "MATCH_SEQ_IN_CACHE", False))


def nonce_of(spectator_token: str) -> str:
    """A piece of the match's random spectator token, in every key: a match id used again (a
    database restored or reset while the cache kept its entries, SQLite reusing the ids of a
    rolled-back test) never finds the seq of the match that had it before."""
    return spectator_token[:12]


SEQ_KEY_STEM = "match-seq:"


def seq_key(match_id: int, nonce: str) -> str:
    return f"{SEQ_KEY_STEM}{match_id}:{nonce}"


def cached_seq(match_id: int, nonce: str) -> int | None:
    """The seq the cache holds for the match; ``None`` on a miss, when disabled, or while the
    cache does not answer (the caller then asks the database)."""
    if not enabled():
        return None
    value = cache.get(seq_key(match_id, nonce))
    return value if isinstance(value, int) else None


def remember(match_id: int, nonce: str, seq: int) -> None:
    """Keep ``seq`` unless the cache already holds a greater one; a greater one is also told
    to the open streams of the match (apps.matches.stream), in the same step."""
    if not enabled():
        return
    key = seq_key(match_id, nonce)
    set_if_greater = getattr(cache, "set_if_greater", None)
    if set_if_greater is not None:
        set_if_greater(key, seq, TTL_SECONDS, publish=True)
        return
    with _local_lock:
        current = cache.get(key)
        if not isinstance(current, int) or current < seq:
            cache.set(key, seq, TTL_SECONDS)


def forget(match_id: int, nonce: str) -> None:
    if enabled():
        cache.delete(seq_key(match_id, nonce))


def remember_on_commit(match_id: int, nonce: str, seq: int) -> None:
    """Call inside the transaction that stores ``seq``: the cache learns it once the rows are
    visible to every other connection, never before (a poll answered from the cache must not
    announce a state that a refresh cannot read yet) -- and, inside ``announced_after``, only
    when that block ends."""
    transaction.on_commit(partial(_announce, match_id, nonce, seq))


_deferred = threading.local()


def _announce(match_id: int, nonce: str, seq: int) -> None:
    pending = getattr(_deferred, "pending", None)
    if pending is not None:
        pending.append((match_id, nonce, seq))
    else:
        remember(match_id, nonce, seq)


@contextmanager
def announced_after() -> Iterator[None]:
    """Seqs committed inside reach the cache when the block ends, not before. A tap keeps the
    tracker it answers with before the other devices learn the new seq: their refresh then
    finds that render instead of drawing the same board again at the same moment (issue 16:
    under load most refreshes came before the tap's own render was kept)."""
    outer = getattr(_deferred, "pending", None)
    if outer is None:
        _deferred.pending = []
    try:
        yield
    finally:
        if outer is None:
            pending, _deferred.pending = _deferred.pending, None
            for match_id, nonce, seq in pending:
                remember(match_id, nonce, seq)


def forget_on_commit(match_id: int, nonce: str) -> None:
    transaction.on_commit(partial(forget, match_id, nonce))
