"""The permission matrix: for every protected action, what each role gets. One place, as data:
``test_matrix.py`` checks every cell against the running app, and
``python -m tests.permissions.matrix`` (``make permission-matrix``, which runs the tests first)
prints it as a Markdown table with the story below it.

The people (one story for the whole matrix):

- **owner**, Alice: owns the roster, opened the match (and holds seat 0), plays side A of the
  league game and reported its result (from the tracked match);
- **seat user**, Bob: took seat 1 of Alice's match with his own team (from his share link);
  plays in the league, in another game;
- **opponent**, Carol: Alice's opponent in the league game (side B); Alice opened a second match
  with Carol's shared team, and Carol has not taken that seat yet;
- **organiser**, Olga: organises the league; no part in the matches;
- **outsider**, Otto: logged in, nothing to do with any of it;
- **anonymous**: not logged in.

Answers: ``allowed`` (2xx, or a redirect that is not the login page), ``403``, ``404`` (the
object's existence is not revealed), ``login`` (a page redirects to the login), ``401`` (the
API asks for credentials).
"""

from __future__ import annotations

from dataclasses import dataclass

ROLES = ("owner", "seat user", "opponent", "organiser", "outsider", "anonymous")

OK, F, N, LOGIN, AUTH = "allowed", "403", "404", "login", "401"


@dataclass(frozen=True)
class Action:
    key: str
    area: str
    label: str
    via: str  # the request, for the reader: "GET /matches/<id>/" or "API POST …"
    expected: tuple[str, str, str, str, str, str]  # in the order of ROLES

    def answer(self, role: str) -> str:
        return self.expected[ROLES.index(role)]


MATRIX: tuple[Action, ...] = (
    # --- Matches: Alice's match M (seat 0 Alice, seat 1 Bob, taken) and M2 (seat 1 Carol's team,
    # not taken yet).
    Action("match.view", "match", "view the match", "GET /matches/M/", (OK, OK, N, N, N, LOGIN)),
    Action("match.read", "match", "read the match", "API GET matches/M/", (OK, OK, N, N, N, N)),
    Action("match.log", "match", "read the match log", "GET /matches/M/log/", (OK, OK, N, N, N, N)),
    Action(
        "match.command",
        "match",
        "send a command",
        "API POST matches/M/commands/",
        (OK, OK, N, N, N, AUTH),
    ),
    Action(
        "match.concede_own",
        "match",
        "concede for seat 0 (the owner's)",
        "API POST matches/M/commands/ concede",
        (OK, F, N, N, N, AUTH),
    ),
    Action(
        "match.concede_other",
        "match",
        "concede for seat 1 (the seat user's)",
        "API POST matches/M/commands/ concede",
        (F, OK, N, N, N, AUTH),
    ),
    Action(
        "match.concede_open",
        "match",
        "concede for a seat nobody has taken (M2)",
        "API POST matches/M2/commands/ concede",
        (F, N, N, N, N, AUTH),
    ),
    Action(
        "match.undo",
        "match",
        "undo the last command",
        "API POST matches/M/commands/ undo",
        (OK, OK, N, N, N, AUTH),
    ),
    Action(
        "match.archive",
        "match",
        "archive the match",
        "POST /matches/M/archive/",
        (OK, OK, N, N, N, LOGIN),
    ),
    Action(
        "match.archive_api",
        "match",
        "archive the match",
        "API POST matches/M/archive/",
        (OK, OK, N, N, N, AUTH),
    ),
    Action(
        "match.delete",
        "match",
        "delete the match",
        "POST /matches/M/delete/",
        (OK, F, N, N, N, LOGIN),
    ),
    Action(
        "match.delete_api",
        "match",
        "delete the match",
        "API DELETE matches/M/",
        (OK, F, N, N, N, AUTH),
    ),
    Action(
        "match.spectate",
        "match",
        "spectate with the spectator link",
        "GET /matches/watch/T/",
        (OK, OK, OK, OK, OK, OK),
    ),
    Action(
        "match.view_open",
        "match",
        "open the match with a seat not taken (M2)",
        "GET /matches/M2/",
        (OK, N, OK, N, N, LOGIN),
    ),
    Action(
        "match.take_seat",
        "match",
        "take the seat of one's team (M2)",
        "POST /matches/M2/seats/1/take/",
        (F, N, OK, N, N, LOGIN),
    ),
    Action(
        "match.take_seat_api",
        "match",
        "take the seat of one's team (M2)",
        "API POST matches/M2/seats/1/take/",
        (F, N, OK, N, N, AUTH),
    ),
    # --- Rosters: Alice's roster, shared by link.
    Action("roster.view", "roster", "view the roster", "GET /rosters/R/", (OK, N, N, N, N, LOGIN)),
    Action("roster.read", "roster", "read the roster", "API GET rosters/R/", (OK, N, N, N, N, N)),
    Action(
        "roster.view_shared",
        "roster",
        "view the roster by its share link",
        "GET /rosters/shared/T/",
        (OK, OK, OK, OK, OK, OK),
    ),
    Action(
        "roster.edit",
        "roster",
        "edit the roster",
        "API PATCH rosters/R/",
        (OK, N, N, N, N, AUTH),
    ),
    Action(
        "roster.share",
        "roster",
        "share the roster (new link)",
        "POST /rosters/R/share/",
        (OK, N, N, N, N, LOGIN),
    ),
    Action(
        "roster.print",
        "roster",
        "print the roster's cards",
        "GET /cards/rosters/R/",
        (OK, N, N, N, N, N),
    ),
    Action(
        "roster.print_shared",
        "roster",
        "print the cards by the share link",
        "GET /cards/rosters/R/?share=T",
        (OK, OK, OK, OK, OK, OK),
    ),
    Action(
        "roster.delete",
        "roster",
        "delete the roster",
        "POST /rosters/R/delete/",
        (OK, N, N, N, N, LOGIN),
    ),
    # --- Leagues: Olga's public league L (round 1: Alice v Carol, Bob v Dave) and her
    # members-only league L2 (Alice and Carol play in it).
    Action("league.view", "league", "view a public league", "GET /leagues/L/", (OK,) * 6),
    Action(
        "league.view_members",
        "league",
        "view a members-only league",
        "GET /leagues/L2/",
        (OK, N, OK, OK, N, N),
    ),
    Action(
        "league.create",
        "league",
        "create a league",
        "API POST leagues/",
        (OK, OK, OK, OK, OK, AUTH),
    ),
    Action(
        "league.edit",
        "league",
        "edit the league",
        "API PATCH leagues/L/",
        (F, F, F, OK, F, AUTH),
    ),
    Action(
        "round.pair",
        "league",
        "pair the next round",
        "API POST leagues/L/seasons/S/rounds/",
        (F, F, F, OK, F, AUTH),
    ),
    Action(
        "round.publish",
        "league",
        "publish a draft round",
        "API POST leagues/L/seasons/S/rounds/1/publish/",
        (F, F, F, OK, F, AUTH),
    ),
    Action(
        "result.report",
        "league",
        "report the result of Alice v Carol",
        "API POST leagues/L/pairings/P/result/",
        (OK, F, OK, F, F, AUTH),
    ),
    Action(
        "result.confirm",
        "league",
        "confirm the tracked result (reported by Alice)",
        "API POST leagues/L/pairings/P/result/confirm/",
        (F, F, OK, F, F, AUTH),
    ),
    Action(
        "result.dispute",
        "league",
        "dispute the tracked result (reported by Alice)",
        "API POST leagues/L/pairings/P/result/dispute/",
        (F, F, OK, F, F, AUTH),
    ),
    Action(
        "result.override",
        "league",
        "override a result (organisers)",
        "API POST leagues/L/pairings/P/result/override/",
        (F, F, F, OK, F, AUTH),
    ),
)


# Below the table, so that it reads on its own (the story of the module's docstring, shortened).
LEGEND = (
    "Roles: **owner** opened the match (seat 0), owns the roster and reported the league "
    "result from the tracked match; **seat user** took seat 1 of that match with his own "
    "team; **opponent** is the owner's league opponent, whose shared team fills seat 1 of a "
    "second match (M2) that she has not taken yet; **organiser** organises the league; "
    "**outsider** is logged in with no part in any of it; **anonymous** is not logged in.",
    "Answers: `allowed` (2xx, or a redirect elsewhere than the login), `403`, `404` (the "
    "object's existence is not revealed), `login` (redirected to the login page), `401` (the "
    "API asks for credentials). Every cell is checked by "
    "`tests/permissions/test_matrix.py::test_permission`.",
)


def markdown() -> str:
    """The matrix as a Markdown table, one row per action, and its legend."""
    head = ["area", "action", "request", *ROLES]
    lines = [
        "| " + " | ".join(head) + " |",
        "|" + "|".join("---" for _ in head) + "|",
    ]
    for action in MATRIX:
        cells = [action.area, action.label, f"`{action.via}`", *action.expected]
        lines.append("| " + " | ".join(cells) + " |")
    for paragraph in LEGEND:
        lines.extend(["", paragraph])
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown())
