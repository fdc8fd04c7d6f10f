"""Skirmish's Django apps and, under ``systems``, the framework-free rule systems."""
