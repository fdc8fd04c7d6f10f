"""The Deathmatch tracker screen, built by small presenters on the engine's verdicts: ``page``
assembles it from the units and players (``units``), what the table does now (``prompt``),
the activated model's actions (``actions``), flips waiting for a decision (``flips``), the
attack wizard (``wizard``) and the arena (``board``)."""
