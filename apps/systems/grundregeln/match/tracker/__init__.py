"""The Grundregeln tracker screen, built by small presenters on the engine's verdicts: ``page``
assembles it from the sides and their models (``sides``), what the table does now
(``prompt``), the selected model's actions or reactions (``actions``), the target choice
(``wizard``), the action in progress (``pending``) and the last dice (``dice``)."""
