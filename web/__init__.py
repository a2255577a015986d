"""leishen.web — the static page the API serves at ``/`` (index.html, app.js, style.css; no build step)."""
