"""Reading a command's args from a tracker form (``apps.matches.forms.command_args``)."""

from __future__ import annotations

import pytest

from apps.matches.forms import command_args
from apps.systems.core.errors import RuleViolation


def test_numbered_rows_inside_an_arg_become_a_list() -> None:
    fields = {"args.targets.1.unit:int": ["3"], "args.targets.0.unit:int": ["2"]}
    assert command_args(fields) == {"targets": [{"unit": 2}, {"unit": 3}]}


def test_fields_numbered_at_the_top_are_refused_not_a_server_error() -> None:
    # ``args.0=…`` would make the args a list: found by the generated tracker forms (a 500).
    with pytest.raises(RuleViolation) as refused:
        command_args({"args.0": ["1"], "args.1": ["2"]})
    assert refused.value.code == "invalid_args"


def test_a_number_field_left_empty_is_an_optional_value_not_given() -> None:
    # A browser sends "" for an empty <input type="number">: the free roll's optional "count
    # dice of" field made the whole roll fail as "details not valid".
    assert command_args({"args.dice:int": ["2"], "args.need:int": [""]}) == {"dice": 2}


def test_a_number_field_with_text_is_still_refused() -> None:
    with pytest.raises(RuleViolation):
        command_args({"args.dice:int": ["two"]})
