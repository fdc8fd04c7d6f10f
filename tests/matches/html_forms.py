"""The forms of a rendered page as a browser would submit them, read with the standard
library's HTML parser (no browser needed): enough to check every tracker form's hidden fields
and to send each enabled button's form with its default values."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass
class Submit:
    name: str
    value: str
    disabled: bool
    described_by: str


@dataclass
class Form:
    attrs: dict[str, str]
    fields: list[tuple[str, str]] = field(default_factory=list)
    submits: list[Submit] = field(default_factory=list)

    def data(self, submit: Submit) -> dict[str, list[str]]:
        """What the browser posts when ``submit`` is tapped: the successful controls plus the
        button's own name and value."""
        posted: dict[str, list[str]] = {}
        for name, value in self.fields:
            posted.setdefault(name, []).append(value)
        if submit.name:
            posted.setdefault(submit.name, []).append(submit.value)
        return posted

    def hidden(self, name: str) -> list[str]:
        return [value for key, value in self.fields if key == name]


@dataclass
class Page:
    forms: list[Form] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.form: Form | None = None
        self.select: tuple[str, list[tuple[str, bool]]] | None = None
        self.option: list[str] | None = None

    def handle_starttag(self, tag: str, pairs: list[tuple[str, str | None]]) -> None:
        attrs = {key: value or "" for key, value in pairs}
        if "id" in attrs:
            self.page.ids.append(attrs["id"])
        if tag == "form":
            self.form = Form(attrs)
            self.page.forms.append(self.form)
        elif self.form is not None:
            self._control(tag, attrs)

    def _control(self, tag: str, attrs: dict[str, str]) -> None:
        assert self.form is not None
        kind = attrs.get("type", "text" if tag == "input" else "submit")
        disabled = "disabled" in attrs
        if tag == "button" and kind == "submit":
            self.form.submits.append(
                Submit(
                    attrs.get("name", ""),
                    attrs.get("value", ""),
                    disabled,
                    attrs.get("aria-describedby", ""),
                )
            )
        elif tag == "input" and kind in ("checkbox", "radio"):
            if "checked" in attrs and not disabled and attrs.get("name"):
                self.form.fields.append((attrs["name"], attrs.get("value", "on")))
        elif tag == "input" and kind not in ("submit", "button", "reset") and attrs.get("name"):
            if not disabled:
                self.form.fields.append((attrs["name"], attrs.get("value", "")))
        elif tag == "select" and attrs.get("name"):
            self.select = (attrs["name"], [])
        elif tag == "option" and self.select is not None:
            self.option = [attrs.get("value", ""), "selected" in attrs]  # type: ignore[list-item]

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "option" and self.select is not None and self.option is not None:
            self.select[1].append((self.option[0], bool(self.option[1])))
            self.option = None
        elif tag == "select" and self.select is not None and self.form is not None:
            name, options = self.select
            chosen = [value for value, selected in options if selected] or [
                value for value, _ in options[:1]
            ]
            self.form.fields.extend((name, value) for value in chosen)
            self.select = None


def read_page(html: str) -> Page:
    reader = _Reader()
    reader.feed(html)
    return reader.page
