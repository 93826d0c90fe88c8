"""``realms serve``: the web app (HTTP + WebSocket API, storage, the browser client)."""

from .app import create_app

__all__ = ["create_app"]
