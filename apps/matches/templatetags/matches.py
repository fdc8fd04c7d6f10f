"""Template helpers for the match pages."""

from __future__ import annotations

import secrets
from fractions import Fraction
from typing import Any

from django import template
from django.template.base import FilterExpression, token_kwargs
from django.template.defaulttags import CsrfTokenNode
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from apps.matches import viewer_slots
from apps.matches.presenters import line_text
from apps.systems.core.distributions import percent_text
from apps.systems.core.match import TimelineLine

register = template.Library()


@register.filter
def text(line: TimelineLine | None) -> str:
    """A line from a rule system (template + params), translated."""
    return line_text(line) if line is not None else ""


@register.filter
def percent(fraction: str) -> str:
    """ "37/100" as "37 %" (an exact probability shown rounded)."""
    return percent_text(fraction)


@register.filter
def percent_value(fraction: str) -> int:
    try:
        return round(float(Fraction(fraction)) * 100)
    except (ValueError, ZeroDivisionError):
        return 0


class CommandFormNode(template.Node):
    """One tracker command as its own form, the only way a page sends a match command.

    It always carries what makes a tap safe: the seq the screen was drawn on (the server
    refuses a command decided on an older screen), an idempotency key of its own (a repeated
    tap or a resend after a lost answer counts once, and two buttons never share a key), a
    unique id (the refusal reason points at it) and the current selection.
    """

    def __init__(self, nodelist: template.NodeList, options: dict[str, FilterExpression]) -> None:
        self.nodelist = nodelist
        self.options = options

    def _option(self, context: template.Context, name: str, default: Any = "") -> Any:
        expression = self.options.get(name)
        return expression.resolve(context) if expression is not None else default

    def render(self, context: template.Context) -> str:
        match = context["match"]
        url = context.get("command_url") or reverse("matches:command", args=[match.pk])
        key = _form_key(context)
        form_id = f"cmd-{key}"
        button = self._option(context, "button", None)
        command = button.command if button is not None else self._option(context, "command")
        fields = button.fields if button is not None else ()
        selected = self._option(context, "selected", context.get("selected"))
        confirm = self._option(context, "confirm")
        classes = " ".join(["command", str(self._option(context, "class"))]).strip()
        with context.push(form_id=form_id):
            body = self.nodelist.render(context)
        return format_html(
            '<form class="{}" id="{}" method="post" action="{}" hx-post="{}"'
            ' hx-disabled-elt="find button"{}>{}{}'
            '<input type="hidden" name="expected_seq" value="{}">'
            '<input type="hidden" name="idempotency_key" value="{}">{}{}{}{}</form>',
            classes,
            form_id,
            url,
            url,
            format_html(' hx-confirm="{}"', confirm) if confirm else "",
            CsrfTokenNode().render(context),
            format_html('<input type="hidden" name="command" value="{}">', command)
            if command
            else "",
            match.seq,
            key,
            format_html('<input type="hidden" name="selected" value="{}">', selected)
            if selected not in (None, "")
            else "",
            _kept_seat(context, button),
            format_html_join(
                "",
                '<input type="hidden" name="{}" value="{}">',
                ((f.name, f.value) for f in fields),
            ),
            body,
        )


def _kept_seat(context: template.Context, button: Any) -> str:
    """The seat whose secret view the answer keeps open (``Button.keeps_secret_view``): only
    on that seat's own secret view (the server checks again that the user holds it)."""
    seat = context.get("viewer")
    if button is None or not getattr(button, "keeps_secret_view", False) or seat is None:
        return ""
    return format_html('<input type="hidden" name="seat" value="{}">', seat)


def _form_key(context: template.Context) -> str:
    """A fresh random key, or in a render kept for reuse (apps.matches.tracker_cache) the stem
    plus a number: each copy served replaces the stem with fresh random digits, so no two
    responses share a key and no two forms of one response do."""
    stem = context.get("command_key_stem")
    numbers = context.get("command_key_numbers")
    if stem and numbers is not None:
        return f"{stem}{next(numbers):04x}"
    return secrets.token_hex(8)


@register.tag("command_form")
def command_form(parser: template.base.Parser, token: template.base.Token) -> CommandFormNode:
    """``{% command_form command="move" class="x" selected=id confirm="…" %}``, closed by
    ``{% endcommand_form %}``; every option is optional. ``button=b`` (a command button of the
    view model) gives the command and its fixed arguments."""
    options = token_kwargs(token.split_contents()[1:], parser)
    unknown = set(options) - {"button", "command", "class", "selected", "confirm"}
    if unknown:
        raise template.TemplateSyntaxError(f"command_form: unknown options {sorted(unknown)}")
    nodelist = parser.parse(("endcommand_form",))
    parser.delete_first_token()
    return CommandFormNode(nodelist, options)


class ViewerOnlyNode(template.Node):
    """A part of the tracker for some viewers only (``apps.matches.viewer_slots``): decided at
    once for one viewer, or kept with both branches in a render every participant shares
    (``viewer_slots`` in the context, with ``viewer_slot_numbers`` numbering the parts)."""

    def __init__(
        self,
        kind: str,
        seat: FilterExpression | None,
        then: template.NodeList,
        otherwise: template.NodeList,
    ) -> None:
        self.kind = kind
        self.seat = seat
        self.then = then
        self.otherwise = otherwise

    def render(self, context: template.Context) -> str:
        seat = self.seat.resolve(context) if self.seat is not None else None
        condition = viewer_slots.condition_text(self.kind, seat)
        numbers = context.get("viewer_slot_numbers")
        if context.get("viewer_slots") and numbers is not None:
            then, otherwise = self.then.render(context), self.otherwise.render(context)
            return viewer_slots.marked(next(numbers), condition, then, otherwise)
        branch = self.then if _viewer_facts(context).allows(condition) else self.otherwise
        return branch.render(context)


def _viewer_facts(context: template.Context) -> viewer_slots.ViewerFacts:
    """The viewer of a render for one viewer: the seats the view passed as ``held_seats``,
    and whether the user of the request created the match."""
    match, user = context.get("match"), context.get("user")
    creator = bool(
        user is not None
        and getattr(user, "is_authenticated", False)
        and getattr(match, "created_by_id", None) == user.pk
    )
    return viewer_slots.ViewerFacts(held=tuple(context.get("held_seats") or ()), creator=creator)


@register.tag("viewer_only")
def viewer_only(parser: template.base.Parser, token: template.base.Token) -> ViewerOnlyNode:
    """``{% viewer_only "seat" player.index %}…{% otherwise %}…{% endviewer_only %}``; the
    condition is "seat" (with the seat's index), "seats" (any seat) or "creator"."""
    bits = token.split_contents()[1:]
    kind = bits[0].strip("\"'") if bits else ""
    if kind not in viewer_slots.CONDITIONS or len(bits) != (2 if kind == viewer_slots.SEAT else 1):
        raise template.TemplateSyntaxError(
            'viewer_only takes "seat" and an index, "seats" or "creator"'
        )
    seat = parser.compile_filter(bits[1]) if kind == viewer_slots.SEAT else None
    then = parser.parse(("otherwise", "endviewer_only"))
    otherwise = template.NodeList()
    if parser.next_token().contents == "otherwise":
        otherwise = parser.parse(("endviewer_only",))
        parser.delete_first_token()
    return ViewerOnlyNode(kind, seat, then, otherwise)
