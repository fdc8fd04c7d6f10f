"""Printing a team's cards on a tablet: open the print dialog from the builder, choose the
layout and paper, watch it finish, download the PDF and read it back."""

from __future__ import annotations

import pytest

from apps.rosters import services as roster_services
from tests.accounts.factories import PASSWORD, UserFactory
from tests.cards.conftest import pdf_text
from tests.rosters.factories import legal_standard_team

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.usefixtures("catalogue")
def test_print_cards_from_the_builder_and_download_the_pdf(
    tablet_page,  # noqa: ANN001
    live_server,  # noqa: ANN001
    settings,  # noqa: ANN001
    tmp_path,  # noqa: ANN001
) -> None:
    from playwright.sync_api import expect

    settings.MEDIA_ROOT = tmp_path / "media"
    user = UserFactory()
    roster = roster_services.roster_import(owner=user, document=legal_standard_team())
    page = tablet_page

    page.goto(f"{live_server.url}/accounts/login/?next=/rosters/{roster.pk}/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_label("Team name")).to_have_value("Team Vortex")

    page.get_by_role("link", name="Print cards").click()
    dialog = page.get_by_role("dialog", name="Print cards: Team Vortex")
    expect(dialog).to_be_visible()
    dialog.get_by_label("One card per page, card size (for print shops)").check()
    dialog.get_by_label("US Letter").check()
    dialog.get_by_role("button", name="Make the PDF").click()

    download_button = dialog.get_by_role("link", name="Download PDF")
    expect(download_button).to_be_visible(timeout=60_000)
    with page.expect_download() as info:
        download_button.click()
    download = info.value
    assert download.suggested_filename == "team-vortex-cards.pdf"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    pages, text = pdf_text(saved.read_bytes())
    assert pages == 9  # eight cards one a page, the roster sheet
    assert "Direktorin Ilva Syn" in text and "Team Vortex" in text

    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
