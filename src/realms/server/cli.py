"""``realms serve``: the web app on a host and port, games kept in a database."""

from __future__ import annotations

import gc
import logging
import re
import sys

import click

from .limits import CREATE_BURST, CREATE_PER_MINUTE

#: seconds a thread runs before one waiting for the interpreter gets it (see serve)
SWITCH_INTERVAL = 0.0005
#: the garbage collector's middle-generation passes between two full ones (default 10)
FULL_GC_AFTER = 1000


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--database", default="realms.db", show_default=True, metavar="URL",
              help="A SQLite file path, or a database URL (postgresql://user:pass@host/db).")
@click.option("--log-level", default="warning", show_default=True,
              type=click.Choice(["critical", "error", "warning", "info", "debug"]), help="Server log level.")
@click.option("--games-at-once", type=click.IntRange(1), default=CREATE_BURST, show_default=True,
              help="Games one address may create in a burst (then 429 until its tokens come back).")
@click.option("--games-per-minute", type=click.FloatRange(min=0, min_open=True), default=CREATE_PER_MINUTE,
              show_default=True,
              help="Games one address may create a minute, after its burst.")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDRESS",
              help="A reverse proxy's address whose X-Forwarded-For names the client (repeatable). "
                   "Without it the header is never trusted: limits count the peer's address.")
@click.option("--allow-local-webhooks", is_flag=True,
              help="Take notice webhooks on private and loopback addresses (a server on a home network).")
@click.option("--smtp-host", default=None, help="Send notices by e-mail through this SMTP server (default: no e-mail).")
@click.option("--smtp-port", type=click.IntRange(1, 65535), default=25, show_default=True, help="The SMTP server's port.")
@click.option("--smtp-from", default="realms@localhost", show_default=True, help="The notices' sender address.")
@click.option("--public-url", default=None, metavar="URL",
              help="The address people open the server at, for links in the notices (e.g. https://realms.example.org).")
@click.option("--workers", type=click.IntRange(1), default=1, show_default=True,
              help="Processes to serve with, on one port (a PostgreSQL database only): any of them answers "
                   "any request; one that dies is started again and its games are taken over.")
@click.option("--check", is_flag=True,
              help="Print the processes serving DATABASE (PostgreSQL) and the games each holds, then exit.")
@click.option("--reuse-port", is_flag=True, hidden=True)
def serve(host: str, port: int, database: str, log_level: str, games_at_once: int, games_per_minute: float,
          trusted_proxies: tuple[str, ...], allow_local_webhooks: bool, smtp_host: str | None, smtp_port: int,
          smtp_from: str, public_url: str | None, workers: int, check: bool, reuse_port: bool) -> None:
    """Play in the browser: the lobby at http://HOST:PORT/, the API's docs at /docs.

    Games and every answer are stored in DATABASE (a SQLite file by default); after a
    restart each game continues exactly where it was.
    """
    import uvicorn

    from realms.core.game import games

    from .app import create_app
    from .botworker import Bots
    from .heavy import Lanes
    from .limits import TokenBucket

    # the bots think in a process of their own (server/botworker.py), and the odds are worked
    # out in another (heavy.py): both started and warmed now, killed by the kernel should this
    # process end without closing them
    from .notices import Settings
    from .store import StoreError, database_url

    several = database_url(database).startswith("postgresql")
    if (check or workers > 1) and not several:
        raise click.ClickException("--workers and --check need a PostgreSQL database (postgresql://…)")
    if check:
        _check(database)
        return
    if workers > 1:
        from . import workers as launcher

        ctx = click.get_current_context()
        local = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host
        sys.exit(launcher.run(workers, launcher.child_args(ctx.command, ctx.params), f"http://{local}:{port}",
                              lambda s: click.echo(s, err=True)))
    bots, work = Bots(tied=True), Lanes(tied=True)
    try:
        app = create_app(database, creations=TokenBucket(games_at_once, games_per_minute), bots=bots, work=work,
                         notice_settings=Settings(smtp_host, smtp_port, smtp_from, allow_local_webhooks, public_url),
                         several=several, address=f"{host}:{port}")
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    for game in games().values():
        if game.warm is not None:
            game.warm()
    bots.start(warm=True)
    work.odds.start(warm=True)
    # what is alive now (modules, tables, the app) lives as long as the process: keep it
    # out of the garbage collector's full passes, which then walk the games only (shorter
    # pauses of every request in flight)
    gc.collect()
    gc.freeze()
    # and run the full passes a hundred times less often: with a hundred games in memory
    # each costs 30-80 ms of every request in flight (a few a minute under load put them
    # in the p99), while the games' states free themselves (they break their own cycles)
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_GC_AFTER)
    # the store's writer thread takes the interpreter back from the event loop after at
    # most this long, several times a commit (default: 5 ms each)
    sys.setswitchinterval(SWITCH_INTERVAL)
    click.echo(f"realms: serving on http://{host}:{port}/ (games in {app.state.server.store.engine.url})", err=True)
    if host in ("0.0.0.0", "::"):
        click.echo(f"realms: players on your network open http://{_network_address()}:{port}/", err=True)
    # no access log: uvicorn formats each request's line (its path quoted, its client's
    # address) before the logger drops it below "info"
    options = dict(log_level=log_level, ws="auto", access_log=log_level in ("info", "debug"),
                   log_config=log_config(), **proxy_options(trusted_proxies))
    if reuse_port:  # one of --workers' processes: the port shared, the kernel spreads the connections
        import socket

        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        uvicorn.Server(uvicorn.Config(app, **options)).run(sockets=[sock])
        return
    uvicorn.run(app, host=host, port=port, **options)


def _check(database: str) -> None:
    """``--check``: each process of the cluster, when last seen, and the games it holds."""
    from .cluster import report

    for proc in report(database):
        games = proc["games"]
        shown = " ".join(games[:20]) + (f" … ({len(games)} in all)" if len(games) > 20 else "")
        if proc["id"] is None:
            click.echo(f"held by nobody now (taken over within seconds): {len(games)} games: {shown}")
        else:
            click.echo(f"{proc['id']} at {proc['address']}, seen {proc['seen']} s ago: {len(games)} games: {shown}")


def proxy_options(trusted: tuple[str, ...]) -> dict:
    """uvicorn's options for ``--trusted-proxy``: ``X-Forwarded-For`` (the client's address
    for the per-address limits) read only from the proxies named, never otherwise (uvicorn
    trusts 127.0.0.1 by default, so every local client could name any address)."""
    if not trusted:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": ",".join(trusted)}


#: what a logged path says of a seat's token (a WebSocket's ``?token=``)
TOKEN = re.compile(r"(token=)[^&\s\"']+")


class HideTokens(logging.Filter):
    """Every log line through uvicorn's handlers with a seat's token replaced by ``…``
    (uvicorn logs a WebSocket's path with its query, ``?token=…``, at ``info``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = TOKEN.sub(r"\1…", record.msg)
        if isinstance(record.args, tuple):  # the formatters read the arguments themselves
            record.args = tuple(TOKEN.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args)
        return True


def log_config() -> dict:
    """uvicorn's logging configuration with :class:`HideTokens` on each of its handlers."""
    import copy

    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["hide_tokens"] = {"()": HideTokens}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("hide_tokens")
    return config


def _network_address() -> str:
    """This machine's address on its network (the one its outgoing traffic would use; a UDP
    socket's connect sends nothing), for the invitation links a friend can open."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, nothing sent
            return s.getsockname()[0]
        except OSError:
            return socket.gethostname()
