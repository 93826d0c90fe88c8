"""``realms serve``: the web app (HTTP + WebSocket API, storage, the browser client).

``create_app`` loads the web stack (FastAPI, SQLAlchemy) when first asked for, so that
importing ``realms.server.cli`` (every ``realms`` command's help) stays light.
"""

__all__ = ["create_app"]


def __getattr__(name: str):
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
