"""Plumbing every app shares: API error format, error pages, template context."""
