"""The site's own pages: home, health check, error pages."""
