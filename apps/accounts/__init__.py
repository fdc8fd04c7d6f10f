"""Accounts: sign-up, login, profile, API tokens."""
