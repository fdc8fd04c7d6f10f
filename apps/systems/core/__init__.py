"""What the rule systems share: dice, the RNG deck, flips, exact odds, errors and the registry.

Nothing here imports Django; system packages build on this package, never the other way round
(the registry loads them dynamically).
"""
