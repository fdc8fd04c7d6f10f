"""Notifications: what players and organisers are told about their leagues, in the site (a
badge and a list) and by email.

Decisions, for whoever changes this:

- Kinds: ``round_published`` (every player of the round, a bye too), ``result_to_confirm``
  (the player who must answer a report: a player's or a tracked match's), ``result_disputed``
  (the league's organisers and both players, except whoever disputed), ``result_decided``
  (both players, except an organiser who played), ``deadline_soon`` (the periodic task).
- Rows are written in the league change's own transaction (both commit or neither); emails
  are queued after the commit (``transaction.on_commit``) and sent by a Celery task.
- Text is written at read time from ``params`` (names and numbers), in the reader's language.
- ``deadline_soon``: a player's report counts on its own ``Season.confirm_hours`` after it was
  made; its answerer is reminded once in the last 12 hours. A tracked match's result never
  counts on its own, so its answerer is reminded once from the same moment (``confirm_hours``
  − 12 hours after the report) on. The beat runs the task every 15 minutes.
- Email goes only to a verified address (any address when the site verifies none), never to a
  user who turned it off on the profile, in ``settings.LANGUAGE_CODE`` (users have no language
  of their own), with links built from ``settings.SITE_URL`` (a task has no request).
"""
