"""Rule systems, framework-free."""
