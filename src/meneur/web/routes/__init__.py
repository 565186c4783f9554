"""The routes, one module per resource: pages (HTML forms), api (JSON), ws (live log)."""
