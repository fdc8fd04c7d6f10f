"""Print pages: the dialog on a roster (layout, paper), the export's live status, the
download, and blank cards for organisers. The builder and the shared view open the dialog
with HTMX; every page also works as a plain page without JavaScript."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods

from apps.accounts.models import User
from apps.cards import services
from apps.cards.documents import document_kind
from apps.cards.forms import BlankForm, PrintForm
from apps.cards.limits import ExportTooLarge
from apps.cards.links import share_url, with_share
from apps.cards.models import CardExport
from apps.cards.selectors import card_export_for_viewer, roster_for_viewer
from apps.catalog.models import GameSystem
from apps.common.http import HtmxHttpRequest
from apps.systems.core.registry import registry

PRINT = "cards/print.html"
EXPORT = "cards/export.html"
BLANK = "cards/blank.html"


def _share(request: HtmxHttpRequest) -> str:
    return request.POST.get("share") or request.GET.get("share") or ""


def _requester(request: HtmxHttpRequest) -> User | None:
    return request.user if isinstance(request.user, User) else None


def _export_context(export: CardExport, share: str) -> dict[str, object]:
    document = document_kind(export.contents)
    return {
        "document_title": document.title(export) if document else "",
        "back_url": document.back_url(export) if document else "",
        "export": export,
        "share": share,
        "status_url": with_share(reverse("cards:export", args=[export.pk]), share),
        "download_url": with_share(reverse("cards:download", args=[export.pk]), share),
    }


def _status(request: HtmxHttpRequest, export: CardExport, share: str) -> HttpResponse:
    template = f"{EXPORT}#status" if request.htmx else EXPORT
    return render(request, template, _export_context(export, share))


@require_http_methods(["GET", "POST"])
def roster_print(request: HtmxHttpRequest, roster_id: int) -> HttpResponse:
    """The print dialog of a roster its owner or a share-link holder sees."""
    share = _share(request)
    roster = roster_for_viewer(request.user, roster_id, share)
    form = PrintForm(request.POST or None)
    context: dict[str, object] = {
        "roster": roster,
        "form": form,
        "share": share,
        "action": with_share(reverse("cards:roster_print", args=[roster.pk]), share),
    }
    template = f"{PRINT}#dialog" if request.htmx else PRINT
    if request.method == "POST" and form.is_valid():
        try:
            export = services.card_export_request(
                roster=roster,
                requested_by=_requester(request),
                options=form.options(),
                language=get_language(),
                share_url=share_url(roster, request.build_absolute_uri),
            )
        except services.ExportsUnavailable as error:
            context["unavailable"] = str(error)
            return render(request, template, context, status=503)
        except ExportTooLarge as error:
            # The choices stay open: the roster sheet alone is always within the ceiling.
            context["refused"] = str(error)
            return render(request, template, context, status=422)
        if request.htmx:
            return _status(request, export, share)
        return redirect(with_share(reverse("cards:export", args=[export.pk]), share))
    if request.method == "GET" and not services.exports_available():
        context["unavailable"] = str(services.ExportsUnavailable())
    # 422: refused choices, shown with the form (htmx swaps it in, see base.html).
    return render(request, template, context, status=422 if form.errors else 200)


@require_GET
def export_status(request: HtmxHttpRequest, export_id: int) -> HttpResponse:
    """Where an export stands; the page polls this until there is a file or a failure."""
    share = _share(request)
    export = services.card_export_check_stale(
        card_export_for_viewer(request.user, export_id, share)
    )
    return _status(request, export, share)


@require_GET
def export_download(request: HtmxHttpRequest, export_id: int) -> FileResponse:
    return export_file_response(card_export_for_viewer(request.user, export_id, _share(request)))


def export_file_response(export: CardExport) -> FileResponse:
    """The export's PDF as a download (also for the API); 404 until it is done, and once the
    cleanup deleted its file."""
    name = export.file.name or ""
    if export.status != CardExport.Status.DONE or not default_storage.exists(name):
        raise Http404
    return FileResponse(
        default_storage.open(name, "rb"),
        as_attachment=True,
        filename=services.export_filename(export),
        content_type="application/pdf",
    )


def _card_systems() -> list[GameSystem]:
    slugs = [info.slug for info in registry().all() if info.cards is not None]
    return list(GameSystem.objects.filter(slug__in=slugs))


@login_required
@require_http_methods(["GET", "POST"])
def blank_print(request: HtmxHttpRequest, system_slug: str) -> HttpResponse:
    """Blank cards of a rule system, for organisers to fill in by hand."""
    system = next((s for s in _card_systems() if s.slug == system_slug), None)
    if system is None:
        raise Http404
    form = BlankForm(request.POST or None)
    context: dict[str, object] = {"system": system, "form": form}
    if request.method == "POST" and form.is_valid():
        user = _requester(request)
        assert user is not None
        try:
            export = services.card_export_request_blank(
                system=system, requested_by=user, options=form.options(), language=get_language()
            )
        except services.ExportsUnavailable as error:
            context["unavailable"] = str(error)
            return render(request, BLANK, context, status=503)
        return redirect("cards:export", export.pk)
    return render(request, BLANK, context, status=422 if form.errors else 200)
