"""Notices to the people of a game played over days: "your turn", "one hour left", "a bot
took your seat", "the game is over", by webhook and by e-mail.

Each seat sets its own addresses (a webhook URL, an e-mail address).  A notice is a row
of the ``outbox`` table (``tabledb``), queued through the store's writer with a key that
says which notice it is (a seat's turn that began at answer n…), so it is queued once
however often the server looks; queuing never waits for anything (an answer's 200 never
waits for a notice).  The sender (:class:`Outbox`) claims the due rows in a committed
transaction before it sends them, so a notice is sent at most once even across a crash
(one claimed and not sent when the process died is not sent again); a send that failed
without reaching the receiver (refused connection, HTTP 429 or 5xx, SMTP temporary
error) is tried again after ``BACKOFF`` seconds doubled per attempt, at most ``ATTEMPTS``
times.  The claims and outcomes go through the store's writer, in the answers' commits
(no lock of their own to wait for); ``CLAIM`` notices are claimed and sent at once, so a
crash loses at most that many, those in flight.

A webhook gets a JSON POST ``{"content", "text", "username"}``: Discord's incoming webhooks
read ``content``, Slack's ``text``.  Its URL must be http(s) and, unless the server was
started with ``--allow-local-webhooks``, its host must not be a private, loopback,
link-local or reserved address (checked when it is set and again before each send, as a
name's address may change).  E-mail goes over SMTP to the host, port and sender of the
server's settings (``realms serve --smtp-host/--smtp-port/--smtp-from``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import re
import smtplib
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Callable
from urllib.parse import urlsplit

from fastapi import HTTPException

from . import tabledb
from .store import Store

log = logging.getLogger("realms.server")

BACKOFF = 5.0
ATTEMPTS = 8
#: seconds a webhook or an SMTP server may take
SEND_TIMEOUT = 10.0
#: notices claimed, and sent, at once: at most this many are in flight when the process
#: dies, and are then never sent (at most once)
CLAIM = 4
MAX_URL = 2000
EMAIL = re.compile(r"^[^@\s]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$")


@dataclass
class Settings:
    """The server's side of the notices."""

    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_from: str = "realms@localhost"
    allow_local_webhooks: bool = False
    #: the server's address as people open it (for links in the notices), or None
    public_url: str | None = None


def _private(host: str) -> bool:
    """Whether ``host`` (a name or an address) is, or resolves to, an address that is not
    public; a name that does not resolve counts as one."""
    try:
        addrs = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, None)
        except OSError:
            return True
        addrs = [ipaddress.ip_address(str(i[4][0]).split("%")[0]) for i in infos]
    return not addrs or any(not a.is_global or a.is_multicast for a in addrs)


def check_webhook(url: object, allow_local: bool) -> str:
    """A webhook URL as given, or a 422 naming what is wrong (the URL is not repeated)."""
    if not isinstance(url, str) or len(url) > MAX_URL:
        raise HTTPException(422, f"webhook: a URL of at most {MAX_URL} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HTTPException(422, "webhook: must be an http:// or https:// URL")
    if not allow_local and _private(parts.hostname):
        raise HTTPException(422, "webhook: its host is a private, loopback or unknown address (this server "
                                 "takes those only when started with --allow-local-webhooks)")
    return url


def check_email(address: object, settings: Settings) -> str:
    if not isinstance(address, str) or not EMAIL.match(address):
        raise HTTPException(422, "email: not an e-mail address")
    if not settings.smtp_host:
        raise HTTPException(422, "email: this server sends no e-mail (started without --smtp-host)")
    return address


class Failed(Exception):
    """A send that failed; ``again``: it certainly did not arrive and may be tried again."""

    def __init__(self, why: str, again: bool) -> None:
        super().__init__(why)
        self.again = again


def post_webhook(url: str, subject: str, body: str, allow_local: bool, key: str = "") -> None:
    """POST the notice to ``url``; its outbox key goes in ``X-Realms-Notice`` (a receiver
    of its own may drop a repeat; Discord and Slack ignore it)."""
    host = urlsplit(url).hostname or ""
    if not allow_local and _private(host):
        raise Failed("the webhook's host is no longer a public address", again=False)
    data = json.dumps({"content": f"{subject}\n{body}", "text": f"{subject}\n{body}", "username": "realms"}).encode()
    req = urllib.request.Request(url, data=data, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "realms-notices", "X-Realms-Notice": key})
    try:
        with urllib.request.urlopen(req, timeout=SEND_TIMEOUT) as r:
            r.read(1024)
    except urllib.error.HTTPError as exc:
        raise Failed(f"HTTP {exc.code}", again=exc.code == 429 or exc.code >= 500) from None
    except urllib.error.URLError as exc:
        refused = isinstance(exc.reason, (ConnectionRefusedError, socket.gaierror))
        raise Failed(f"{type(exc.reason).__name__}", again=refused) from None
    except (TimeoutError, OSError) as exc:  # it may have arrived: never twice
        raise Failed(type(exc).__name__, again=False) from None


def send_email(settings: Settings, to: str, subject: str, body: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = settings.smtp_from, to, subject
    msg.set_content(body)
    try:
        with smtplib.SMTP(settings.smtp_host or "", settings.smtp_port, timeout=SEND_TIMEOUT) as smtp:
            smtp.send_message(msg)
    except ConnectionRefusedError:
        raise Failed("connection refused", again=True) from None
    except smtplib.SMTPResponseException as exc:
        raise Failed(f"SMTP {exc.smtp_code}", again=400 <= exc.smtp_code < 500) from None
    except smtplib.SMTPRecipientsRefused:
        raise Failed("recipient refused", again=False) from None
    except (smtplib.SMTPException, OSError) as exc:
        raise Failed(type(exc).__name__, again=False) from None


def call_on(loop, fn) -> None:
    """``fn`` on ``loop`` from any thread; nothing if that loop is closed."""
    try:
        loop.call_soon_threadsafe(fn)
    except RuntimeError:
        pass


async def _committed(done) -> None:
    """Wait for a write of the store's writer; a cancelled waiter leaves the write alone
    (the writer sets its result whatever happens here, and a cancelled future would
    refuse it)."""
    await asyncio.shield(asyncio.wrap_future(done))


class Outbox:
    """Sends the queued notices of one store, in the background."""

    def __init__(self, store: Store, settings: Settings, clock: Callable[[], float] = time.time,
                 every: float = 1.0) -> None:
        self.store, self.settings, self.clock, self.every = store, settings, clock, every
        self.task: asyncio.Task | None = None
        self.wake = asyncio.Event()
        self.stopping = False

    def queue(self, key: str, game_id: str, channel: str, target: str, subject: str, body: str) -> None:
        """Queue a notice (once per ``key``); the sender is woken once it is committed."""
        fut = tabledb.queue_notice(self.store, key, game_id, channel, target, subject, body, self.clock())
        task = self.task
        if task is not None and not task.done():  # woken on the sender's own loop
            fut.add_done_callback(lambda f: call_on(task.get_loop(), self.wake.set))

    async def send_due(self) -> int:
        """Send the notices due now, ``CLAIM`` at once; how many were sent."""
        rows: list[dict] = []
        await _committed(tabledb.claim_due(self.store, self.clock(), CLAIM, rows))
        sent = await asyncio.gather(*(self._deliver(row) for row in rows))
        return sum(sent)

    async def _deliver(self, row: dict) -> bool:
        """Send one claimed notice and queue its outcome; whether it was sent."""
        try:
            await asyncio.to_thread(self._send, row)
        except Failed as exc:
            again = exc.again and row["attempts"] + 1 < ATTEMPTS
            log.warning("notice %s (%s) not sent: %s%s", row["id"], row["channel"], exc,
                        "; tried again later" if again else "; given up")
            next_at = self.clock() + BACKOFF * 2 ** row["attempts"] if again else None
            await _committed(tabledb.settle_notice(self.store, row["id"], "queued" if again else "failed",
                                                   self.clock(), next_at))
            return False
        await _committed(tabledb.settle_notice(self.store, row["id"], "sent", self.clock()))
        return True

    def _send(self, row: dict) -> None:
        if row["channel"] == "webhook":
            post_webhook(row["target"], row["subject"], row["body"], self.settings.allow_local_webhooks, row["key"])
        else:
            send_email(self.settings, row["target"], row["subject"], row["body"])

    async def run(self) -> None:
        """Send what is due, then wait for a notice queued or ``every`` seconds; until
        :meth:`stop` (the pass under way is finished: a notice claimed is sent)."""
        while not self.stopping:
            try:
                while await self.send_due():
                    pass
            except Exception:  # the sender must outlive a bad row or a database hiccup
                log.exception("the notice sender failed a pass")
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), self.every)
            except asyncio.TimeoutError:
                pass

    def start(self) -> None:
        """Start the sender on this loop (once: an app served by a second loop, in tests,
        keeps the first's)."""
        if self.task is not None and not self.task.done():
            return
        self.wake = asyncio.Event()
        self.stopping = False
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        """Stop after the pass under way (its claimed notices sent, at most
        ``SEND_TIMEOUT`` seconds and a few more); cancelled if it takes longer."""
        self.stopping = True
        if self.task is not None and self.task.get_loop() is not asyncio.get_running_loop():
            call_on(self.task.get_loop(), self.task.cancel)  # an app served by two loops (tests)
        elif self.task is not None:
            self.wake.set()
            try:
                await asyncio.wait_for(asyncio.shield(self.task), SEND_TIMEOUT + 5)
            except asyncio.TimeoutError:
                self.task.cancel()
            except asyncio.CancelledError:
                pass
