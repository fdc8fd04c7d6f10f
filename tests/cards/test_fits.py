"""Fitted type sizes are stored by card content in the shared cache: a card is fitted once,
by whichever worker prints it first, and fitted again only when what it says changes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import translation

from apps.cards import fits, rendering
from apps.cards.rendering import render_pdf
from apps.systems.deathmatch.cards import AbilityLine
from tests.cards.conftest import pdf_text
from tests.cards.test_rendering import card_job, profile_card


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts the layout passes (WeasyPrint renders) of every print; the cache starts empty."""
    cache.clear()
    passes: list[int] = []
    render = rendering._Renderer.render

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        passes.append(1)
        return render(self, *args, **kwargs)

    monkeypatch.setattr(rendering._Renderer, "render", counted)
    yield passes
    cache.clear()


def _full_card(words: int, word: str = "Regel") -> Any:
    text = " ".join(f"{word}{n} gilt" for n in range(words))
    return profile_card("organon-direktorin-ilva-syn", abilities=(AbilityLine("Lang", text),))


@pytest.mark.slow
def test_a_fitted_card_is_stored_and_a_second_print_lays_out_once(layouts: list[int]) -> None:
    card = _full_card(40)  # needs smaller type
    with translation.override("en"):
        first = render_pdf(card_job(card))
        assert len(layouts) >= 2  # laid out, measured, laid out again in smaller type
        stored = fits.recall([fits.fit_key("deathmatch", card)])
        assert list(stored.values()) == [1]

        layouts.clear()
        again = render_pdf(card_job(card))
    assert len(layouts) == 1
    assert pdf_text(again) == pdf_text(first)


@pytest.mark.slow
def test_a_card_whose_text_changed_is_fitted_again(layouts: list[int]) -> None:
    with translation.override("en"):
        render_pdf(card_job(_full_card(40)))
        layouts.clear()
        changed = _full_card(40, word="Ausnahme")
        assert fits.recall([fits.fit_key("deathmatch", changed)]) == {}
        render_pdf(card_job(changed))
        assert list(fits.recall([fits.fit_key("deathmatch", changed)]).values()) == [2]
    assert len(layouts) >= 2


@pytest.mark.slow
def test_a_split_card_is_stored_as_split_and_printed_again_in_one_layout(
    layouts: list[int],
) -> None:
    long_text = " ".join(f"Wort{n} schützt Äußeres" for n in range(90)) + " ENDE."
    card = profile_card(
        "organon-direktorin-ilva-syn", abilities=(AbilityLine("Endlose Regel", long_text),)
    )
    with translation.override("en"):
        first = render_pdf(card_job(card))
        assert fits.recall([fits.fit_key("deathmatch", card)]) != {}
        layouts.clear()
        again = render_pdf(card_job(card))
    assert len(layouts) == 1
    assert pdf_text(again) == pdf_text(first)
    assert "Wort89" in pdf_text(again)[1]


def test_the_key_depends_on_the_language_and_the_text() -> None:
    card = _full_card(3)
    with translation.override("en"):
        english = fits.fit_key("deathmatch", card)
        assert fits.fit_key("deathmatch", _full_card(3)) == english  # content, not identity
        assert fits.fit_key("deathmatch", _full_card(4)) != english
    with translation.override("de"):
        assert fits.fit_key("deathmatch", card) != english
