"""Writes of card exports: asking for a PDF, rendering it (the Celery task's work), retrying
or failing exports whose worker died, and deleting old files.

The page and the API both call ``card_export_request``; the task ``cards.render_export`` calls
``card_export_render`` with the export's primary key. Rendering is idempotent: a message
delivered twice finds the export finished and does nothing, and an attempt that was overtaken
by a newer one (its worker was presumed dead) throws its result away.

A worker that dies mid-render is covered twice: its message is delivered again (at once when
only the pool process died, after the broker's visibility timeout when the whole worker did),
and an export still "running" after ``CARDS_STALE_MINUTES`` is queued again, up to
``CARDS_STALE_RETRIES`` times, before it fails with a message. Each such retry carries its
number, so that the old message, should it still arrive, does nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import F, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import formats, timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.cards.documents import document_kind
from apps.cards.limits import ExportsUnavailable, check_size
from apps.cards.models import CardExport
from apps.cards.rendering import (
    CardRenderError,
    PrintJob,
    qr_data_uri,
    render_html_pdf,
    render_pdf,
)
from apps.catalog.models import GameSystem
from apps.pages.health import check_broker
from apps.rosters.models import Roster
from apps.rosters.selectors import catalog_data, roster_for_owner, roster_input
from apps.systems.core.cards import CardLayouts
from apps.systems.core.registry import registry
from apps.systems.core.rosters import localized_catalog
from skirmish.celery import app as celery_app

logger = logging.getLogger(__name__)

# Part of every fingerprint: raise it when the card templates change, so that files made
# with the old templates are not handed out again.
CARDS_FORMAT: Final = 1
# A message redelivered this often means the worker dies on this export (out of memory, a
# crash in a native library): give up instead of taking every worker down in turn.
MAX_ATTEMPTS: Final = 3
# An export nobody picked up for this many times the stale timeout lost its message.
PENDING_STALE_FACTOR: Final = 6

Status = CardExport.Status
Contents = CardExport.Contents


@dataclass(frozen=True)
class ExportOptions:
    layout: str = CardExport.Layout.SHEET
    paper: str = CardExport.Paper.A4
    contents: str = Contents.ALL

    def as_dict(self) -> dict[str, str]:
        return {"layout": self.layout, "paper": self.paper, "contents": self.contents}


def exports_available() -> bool:
    """Whether a new export can be started: always in-process, else when the broker answers."""
    return bool(celery_app.conf.task_always_eager) or check_broker(timeout=1.0) == "ok"


def _fingerprint(parts: list[Any]) -> str:
    return hashlib.sha256(
        json.dumps([CARDS_FORMAT, *parts], sort_keys=True, default=str).encode()
    ).hexdigest()


def roster_fingerprint(
    roster: Roster, *, options: ExportOptions, language: str, share_url: str
) -> str:
    """What the PDF of ``roster`` depends on: the roster's version (its last change and the
    card versions of its entries), the options, the language and the printed share link."""
    entries = [
        [
            entry.profile_id,
            entry.profile_version,
            entry.name,
            entry.count,
            [[row.item_id, row.item_version] for row in entry.items.all()],
        ]
        for entry in roster.entries.all()
    ]
    return _fingerprint(
        [
            "roster",
            roster.pk,
            roster.updated_at.isoformat(),
            roster.name,
            roster.faction_id,
            roster.settings,
            roster.owner.shown_name,
            entries,
            options.as_dict(),
            language,
            share_url,
        ]
    )


def _blank_fingerprint(
    system: GameSystem, requested_by: User, options: ExportOptions, language: str
) -> str:
    return _fingerprint(["blank", system.slug, requested_by.pk, options.as_dict(), language])


def _reusable(fingerprint: str) -> CardExport | None:
    """The export already made or on its way for ``fingerprint``. A finished file that has
    gone from the storage is not reused: that export is marked failed and made again."""
    export = (
        CardExport.objects.filter(fingerprint=fingerprint).exclude(status=Status.FAILED).first()
    )
    if export is None:
        return None
    if export.status != Status.DONE or default_storage.exists(export.file.name or ""):
        return export
    CardExport.objects.filter(pk=export.pk).update(
        status=Status.FAILED, message=_("The file was deleted."), finished_at=timezone.now()
    )
    return None


def _create(fields: dict[str, Any]) -> CardExport:
    """A new pending export, queued once the transaction commits; an identical request that
    won the race to create it is returned instead."""
    if not exports_available():
        raise ExportsUnavailable
    try:
        with transaction.atomic():
            export = CardExport.objects.create(**fields, queued_at=timezone.now())
            transaction.on_commit(lambda: _enqueue(export.pk))
    except IntegrityError:
        existing = _reusable(fields["fingerprint"])
        if existing is None:
            raise
        return existing
    # In-process (no broker) the export was rendered on commit: report how it ended.
    export.refresh_from_db()
    return export


def _enqueue(export_id: int, *, retry: int = 0) -> None:
    """Send the export's message. Bounded in time (CELERY_TASK_PUBLISH_RETRY_POLICY and the
    broker's socket timeouts): a broker that is down or hung fails the export with a message
    instead of holding the request."""
    from apps.cards.tasks import render_card_export

    try:
        render_card_export.apply_async(args=(export_id,), kwargs={"retry": retry})
    except Exception:  # kombu's connection errors differ per transport; eager mode re-raises
        logger.exception("card export %s could not be started", export_id)
        export = CardExport.objects.filter(pk=export_id).first()
        if export is not None and not export.finished:
            with translation.override(export.language):
                message = (
                    _("Something went wrong while making the PDF. Please try again.")
                    if celery_app.conf.task_always_eager
                    else str(ExportsUnavailable())
                )
            _fail(export_id, message)


def roster_card_count(roster: Roster, *, options: ExportOptions, language: str) -> int:
    """How many cards the export of ``roster`` prints, before any is split (0 for the sheet
    alone, and for a system without cards: its render fails with its own message)."""
    if options.contents == Contents.SHEET:
        return 0
    try:
        layouts = _layouts(roster.system)
    except CardRenderError:
        return 0
    with translation.override(language):
        catalog = localized_catalog(catalog_data(roster.system, roster), language)
        return len(layouts.roster_print(roster_input(roster), catalog).cards)


def card_export_request(
    *,
    roster: Roster,
    requested_by: User | None,
    options: ExportOptions,
    language: str,
    share_url: str,
) -> CardExport:
    """The export of ``roster``'s cards for these options: the existing one when the same
    version was asked for before (done or still on its way), else a new one, queued after
    commit. The caller has checked that the requester may see the roster.

    Raises ``ExportsUnavailable`` when a new export is needed and the broker is unreachable
    (or, without a broker, the export is too large to make in-process), ``ExportTooLarge``
    over ``MAX_CARDS_PER_EXPORT`` cards.
    """
    if options.contents == Contents.BLANK:
        raise ValueError("blank cards belong to card_export_request_blank")
    fingerprint = roster_fingerprint(
        roster, options=options, language=language, share_url=share_url
    )
    existing = _reusable(fingerprint)
    if existing is not None:
        return existing
    check_size(
        roster_card_count(roster, options=options, language=language),
        in_process=bool(celery_app.conf.task_always_eager),
    )
    return _create(
        {
            "system": roster.system,
            "roster": roster,
            "requested_by": requested_by,
            "fingerprint": fingerprint,
            "language": language,
            "share_url": share_url,
            **options.as_dict(),
        }
    )


def card_export_request_blank(
    *, system: GameSystem, requested_by: User, options: ExportOptions, language: str
) -> CardExport:
    """Blank cards of ``system`` for organisers (one export per person and options)."""
    options = ExportOptions(layout=options.layout, paper=options.paper, contents=Contents.BLANK)
    return _reused_or_created(
        _blank_fingerprint(system, requested_by, options, language),
        {
            "system": system,
            "requested_by": requested_by,
            "language": language,
            **options.as_dict(),
        },
    )


def card_export_request_document(
    *,
    kind: str,
    system: GameSystem,
    requested_by: User | None,
    document: dict[str, Any],
    version: list[Any],
    language: str,
) -> CardExport:
    """The export of a registered document (apps.cards.documents): the existing one while
    ``version`` (what the document shows depends on) is the same, else a new one. The caller
    has checked that the requester may see what the document is of."""
    if document_kind(kind) is None:
        raise ValueError(f"no document kind {kind!r} is registered")
    return _reused_or_created(
        _fingerprint(["document", kind, document, version, language]),
        {
            "system": system,
            "requested_by": requested_by,
            "language": language,
            "document": document,
            "contents": kind,
            "layout": CardExport.Layout.SINGLE,
            "paper": CardExport.Paper.A4,
        },
    )


def _reused_or_created(fingerprint: str, fields: dict[str, Any]) -> CardExport:
    """The export with this fingerprint while it can still be used, else a new one."""
    existing = _reusable(fingerprint)
    if existing is not None:
        return existing
    return _create({**fields, "fingerprint": fingerprint})


# --- Rendering (the task) -----------------------------------------------------------------


def _fail(export_id: int, message: str, *, attempt: int | None = None) -> None:
    """Mark the export failed, unless it already finished or (with ``attempt``) another
    attempt has taken it over."""
    rows = CardExport.objects.filter(pk=export_id).exclude(status__in=[Status.DONE, Status.FAILED])
    if attempt is not None:
        rows = rows.filter(attempts=attempt)
    rows.update(status=Status.FAILED, message=message, finished_at=timezone.now())


def _progress(export_id: int, attempt: int, percent: int) -> None:
    CardExport.objects.filter(pk=export_id, status=Status.RUNNING, attempts=attempt).update(
        progress=percent
    )


def _start(export_id: int, retry: int | None) -> tuple[CardExport, int] | None:
    """Claim the export for this attempt; None when there is nothing (left) to do, or when
    the message was sent before the export was queued again (``retry`` is older)."""
    with transaction.atomic():
        export = CardExport.objects.select_for_update().filter(pk=export_id).first()
        if export is None or export.finished:
            return None
        if retry is not None and retry != export.retries:
            logger.info("card export %s: message of retry %s ignored", export_id, retry)
            return None
        if export.attempts >= MAX_ATTEMPTS:
            with translation.override(export.language):
                message = _(
                    "The PDF could not be made: the worker stopped %(count)d times while "
                    "making it. Please try again later."
                ) % {"count": export.attempts}
            _fail(export.pk, message)
            return None
        # A "running" export seen here again lost its worker mid-task: this is the retry.
        export.status = Status.RUNNING
        export.attempts += 1
        export.progress = 5
        export.started_at = timezone.now()
        export.save(update_fields=["status", "attempts", "progress", "started_at"])
        return export, export.attempts


def _layouts(system: GameSystem) -> CardLayouts:
    layouts = registry().get(system.slug).cards
    if layouts is None:
        raise CardRenderError(
            _("%(system)s has no printed cards yet.") % {"system": registry().get(system.slug).name}
        )
    return layouts


def _local_date(moment: datetime) -> str:
    return formats.date_format(timezone.localtime(moment), "DATE_FORMAT")


def print_job(export: CardExport) -> PrintJob:
    """What the export prints, read now; fails when the roster is gone or has changed since
    the export was asked for (its fingerprint would no longer match the file)."""
    layouts = _layouts(export.system)
    options = ExportOptions(layout=export.layout, paper=export.paper, contents=export.contents)
    if export.contents == Contents.BLANK:
        return PrintJob(
            system_slug=export.system.slug,
            layouts=layouts,
            layout=export.layout,
            paper=export.paper,
            cards=layouts.blank_cards(),
            sheet=None,
            title=_("Blank cards"),
        )
    roster_row = (
        Roster.objects.select_related("owner").filter(pk=export.roster_id).first()
        if export.roster_id is not None
        else None
    )
    if roster_row is None:
        raise CardRenderError(_("The roster was deleted while its cards were being made."))
    roster = roster_for_owner(roster_row.owner, roster_row.pk)
    current = roster_fingerprint(
        roster, options=options, language=export.language, share_url=export.share_url
    )
    if current != export.fingerprint:
        raise CardRenderError(
            _("The roster changed after its cards were asked for. Please print it again.")
        )
    catalog = localized_catalog(catalog_data(roster.system, roster), export.language)
    printed = layouts.roster_print(roster_input(roster), catalog)
    cards = printed.cards if options.contents != Contents.SHEET else ()
    sheet = printed.sheet if options.contents != Contents.CARDS else None
    if not cards and sheet is None:
        raise CardRenderError(_("This roster has no fighters yet, so there are no cards to print."))
    return PrintJob(
        system_slug=export.system.slug,
        layouts=layouts,
        layout=export.layout,
        paper=export.paper,
        cards=cards,
        sheet=sheet,
        title=roster.name,
        context={
            "team_name": roster.name,
            "owner_name": roster.owner.shown_name,
            "system_name": registry().get(roster.system.slug).name,
            "roster_date": _local_date(roster.updated_at),
            "printed_on": _local_date(export.created_at),
            "share_url": export.share_url,
            "qr": qr_data_uri(export.share_url) if export.share_url else "",
        },
    )


def export_filename(export: CardExport) -> str:
    """The name a downloaded PDF gets, e.g. ``team-vortex-cards.pdf``."""
    if (document := document_kind(export.contents)) is not None:
        return document.filename(export)
    if export.contents == Contents.BLANK:
        return f"{export.system.slug}-blank-cards.pdf"
    name = slugify(export.roster.name) if export.roster else ""
    return f"{name or 'roster'}-{'sheet' if export.contents == Contents.SHEET else 'cards'}.pdf"


def _finish(export_id: int, attempt: int, pdf: bytes) -> CardExport | None:
    with transaction.atomic():
        export = (
            CardExport.objects.select_for_update()
            .filter(pk=export_id, status=Status.RUNNING, attempts=attempt)
            .first()
        )
        if export is None:
            return None  # overtaken by a newer attempt, or failed as stale meanwhile
        roster_gone = export.roster_id is None and document_kind(export.contents) is None
        if export.contents != Contents.BLANK and roster_gone:
            _fail(export_id, _("The roster was deleted while its cards were being made."))
            return None
        name = default_storage.save(
            f"cards/{export.pk}-{export.fingerprint[:16]}.pdf", ContentFile(pdf)
        )
        try:
            export.file.name = name
            export.status = Status.DONE
            export.progress = 100
            export.message = ""
            export.finished_at = timezone.now()
            export.save(update_fields=["file", "status", "progress", "message", "finished_at"])
        except BaseException:
            default_storage.delete(name)
            raise
    return export


def card_export_render(*, export_id: int, retry: int | None = None) -> CardExport | None:
    """Render the export's PDF and store it; a failure becomes ``failed`` with a message.

    ``retry`` is the number of the stale retry the message was sent for (``None``: any).
    Database errors are raised (the task retries them); everything else ends the export.
    """
    claimed = _start(export_id, retry)
    if claimed is None:
        return CardExport.objects.filter(pk=export_id).first()
    export, attempt = claimed
    with translation.override(export.language):
        try:
            document = document_kind(export.contents)
            if document is not None:
                pdf = render_html_pdf(document.html(export))
            else:
                job = print_job(export)
                _progress(export_id, attempt, 10)
                pdf = render_pdf(
                    job, progress=lambda percent: _progress(export_id, attempt, percent)
                )
        except CardRenderError as error:
            _fail(export_id, error.message, attempt=attempt)
        except SoftTimeLimitExceeded:
            _fail(
                export_id,
                _("Making the PDF took too long and was stopped. Please try again."),
                attempt=attempt,
            )
        except DatabaseError:
            raise
        except Exception:  # WeasyPrint, Pango and fontTools raise many undocumented errors
            logger.exception("card export %s failed", export_id)
            _fail(
                export_id,
                _("Something went wrong while making the PDF. Please try again."),
                attempt=attempt,
            )
        else:
            _finish(export_id, attempt, pdf)
    return CardExport.objects.filter(pk=export_id).first()


# --- Housekeeping ---------------------------------------------------------------------------


def _stale_message(export: CardExport) -> str:
    with translation.override(export.language):
        if export.status == Status.PENDING:
            return _("No worker took the export up. Please try again.")
        return _(
            "The worker making this PDF stopped without finishing (it may have been restarted). "
            "Please try again."
        )


def _stale(now: datetime) -> QuerySet[CardExport]:
    stale_after = timedelta(minutes=settings.CARDS_STALE_MINUTES)
    running = Q(status=Status.RUNNING, started_at__lt=now - stale_after)
    pending = Q(status=Status.PENDING, since__lt=now - stale_after * PENDING_STALE_FACTOR)
    return CardExport.objects.annotate(since=Coalesce("queued_at", "created_at")).filter(
        running | pending
    )


def _may_retry(export: CardExport) -> bool:
    """A stale running export is queued again while retries are left. Not in-process (no
    broker): there the retry would render inside the request that noticed it."""
    return (
        export.status == Status.RUNNING
        and export.retries < settings.CARDS_STALE_RETRIES
        and export.attempts < MAX_ATTEMPTS
        and not celery_app.conf.task_always_eager
    )


def _retry(export: CardExport, now: datetime) -> bool:
    """Queue the stale ``export`` again, unless it moved on meanwhile; True when queued."""
    retry = export.retries + 1
    with transaction.atomic():
        queued = CardExport.objects.filter(
            pk=export.pk, status=Status.RUNNING, attempts=export.attempts, retries=export.retries
        ).update(
            status=Status.PENDING,
            progress=0,
            started_at=None,
            queued_at=now,
            retries=F("retries") + 1,
        )
        if queued:
            logger.warning(
                "card export %s: its worker stopped mid-render (attempt %s); queued again "
                "(retry %s of %s)",
                export.pk,
                export.attempts,
                retry,
                settings.CARDS_STALE_RETRIES,
            )
            transaction.on_commit(lambda: _enqueue(export.pk, retry=retry))
    return bool(queued)


@dataclass(frozen=True)
class Stale:
    retried: int
    failed: int


def card_export_retry_stale(*, now: datetime | None = None) -> Stale:
    """Queue again every export whose worker died ("running" too long) while it has retries
    left; mark failed the others, and those whose message was lost ("pending" far too long)."""
    now = now or timezone.now()
    retried = failed = 0
    for export in _stale(now):
        if _may_retry(export):
            retried += _retry(export, now)
            continue
        _fail(export.pk, _stale_message(export), attempt=export.attempts)
        failed += 1
    return Stale(retried=retried, failed=failed)


def card_export_fail_stale(*, now: datetime | None = None) -> int:
    """``card_export_retry_stale``; returns how many exports were marked failed."""
    return card_export_retry_stale(now=now).failed


def card_export_check_stale(export: CardExport) -> CardExport:
    """The export as a poll should report it: a stale one is retried or failed first (without
    a broker no periodic task runs, so the page that waits for it does this)."""
    if not export.finished:
        stale = _stale(timezone.now()).filter(pk=export.pk).first()
        if stale is not None:
            if _may_retry(stale):
                _retry(stale, timezone.now())
            else:
                _fail(stale.pk, _stale_message(stale), attempt=stale.attempts)
            export.refresh_from_db()
    return export


@dataclass(frozen=True)
class Cleanup:
    stale: int  # marked failed
    deleted: int
    retried: int = 0


def card_export_cleanup(*, now: datetime | None = None) -> Cleanup:
    """Retry or fail stale exports, then delete finished exports older than
    ``CARDS_KEEP_DAYS`` with their files."""
    now = now or timezone.now()
    stale = card_export_retry_stale(now=now)
    old = CardExport.objects.filter(
        created_at__lt=now - timedelta(days=settings.CARDS_KEEP_DAYS),
        status__in=[Status.DONE, Status.FAILED],
    )
    deleted = 0
    for export in old:
        if export.file.name:
            default_storage.delete(export.file.name)
        export.delete()
        deleted += 1
    return Cleanup(stale=stale.failed, deleted=deleted, retried=stale.retried)
