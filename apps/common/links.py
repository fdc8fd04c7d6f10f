"""Links for long tables: one reverse for hundreds of rows."""

from __future__ import annotations

from django.urls import reverse


def url_stem(name: str, *args: object) -> str:
    """``reverse(name, args=[*args, n])`` without its last segment ``n/``: a table linking
    each of its rows to pages that differ only in a trailing id adds ``f"{id}/"`` to the stem
    instead of reversing once per row (a reversal costs as much as a small query). The
    pattern must end in an integer segment (``<int:…>/``)."""
    url = reverse(name, args=[*args, 1])
    assert url.endswith("/1/"), f"{name} does not end in an integer segment: {url}"
    return url[: -len("1/")]
