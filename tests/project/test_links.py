"""``url_stem``: one reverse for a table's links (apps/common/links.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.common.links import url_stem


def test_a_stem_and_an_id_make_the_reversed_url() -> None:
    assert url_stem("leagues:history") + "7/" == reverse("leagues:history", args=[7])
    assert url_stem("leagues:pairing", "abc") + "42/" == reverse(
        "leagues:pairing", args=["abc", 42]
    )


def test_a_pattern_with_a_segment_after_the_id_is_refused() -> None:
    with pytest.raises(AssertionError):
        url_stem("leagues:new_code")  # <str:key>/join-code/
