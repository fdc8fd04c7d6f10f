"""The Universalis tracker screen, built by small presenters on the engine's verdicts: ``page``
assembles it from the groups (``units``), what the table does now (``prompt``), the tests and
choices that wait (``due``), the acting models' actions (``member``, with the attack forms in
``attacks`` and the other forms in ``abilities``) and the selected model's reactions and table
tools (``reactions``). Every button, and every form with its default values, is made by
``screen.offers``: whether it is enabled, and why not, is the engine's verdict."""
