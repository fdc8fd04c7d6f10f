"""The catalogue: the rule systems and, per system, what can be fielded."""
