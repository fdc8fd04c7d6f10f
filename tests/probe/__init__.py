"""A throwaway rule system for tests, defined the way a new system is added (README: "Adding a
rule system"): its package (``system``), its templates (``templates/``) and its fixtures
(``fixtures/probe/``), and nothing in the generic apps. ``plain`` is a system with no rules
modelled yet, for the league tests that need a system without rosters."""
