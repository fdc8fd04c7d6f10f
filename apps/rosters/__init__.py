"""Rosters: players' lists for any rule system, the builder, sharing, import and export."""
