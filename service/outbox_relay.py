"""The API's outbox relay: a thread that sends the jobs requests staged (`db.outbox`).

A commit that staged jobs wakes it (a session event), so a job reaches the broker a moment
after its request answered, and the request itself never waits on Redis. It also looks every
few seconds for jobs left by others (an API killed between its commit and the send). When a
send fails — Redis is down — it backs off (1, 2, 4, then every 5 s) without being woken by
each new commit, and sends everything that waited once Redis answers. Stopping makes one last
pass, so a graceful shutdown leaves nothing staged that it could send.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

from db import outbox
from db.jobs import Job
from workers.dispatch import BROKER_ERRORS

log = logging.getLogger(__name__)

IDLE_POLL_S = 2.0
"""How often an idle relay looks for jobs it was not woken for."""
MAX_BACKOFF_S = 5.0
"""The longest wait between two tries while the broker (or the database) does not answer."""
STOP_TIMEOUT_S = 10.0


class OutboxRelay:
    """Sends staged jobs through `send` from its own thread (`start`, `stop`); `watch` makes
    every commit of a session factory that staged jobs wake it."""

    def __init__(self, sessions: sessionmaker[Session], send: Callable[[Job], None]) -> None:
        self.sessions = sessions
        self.send = send
        self.sent = 0
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="outbox-relay", daemon=True)

    def watch(self, sessions: sessionmaker[Session]) -> None:
        event.listen(sessions, "after_commit", self._after_commit)
        event.listen(sessions, "after_rollback", _forget)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        self._thread.join(STOP_TIMEOUT_S)

    def wake(self) -> None:
        self._wake.set()

    def _after_commit(self, session: Session) -> None:
        if session.info.pop(outbox.STAGED, False):
            self._wake.set()

    def _run(self) -> None:
        backoff = 0.0
        while not self._stopping.is_set():
            if backoff:
                self._stopping.wait(backoff)  # a commit's wake does not cut a backoff short
            else:
                self._wake.wait(IDLE_POLL_S)
            self._wake.clear()
            backoff = 0.0 if self._pass() else min(max(1.0, 2 * backoff), MAX_BACKOFF_S)
        self._pass()

    def _pass(self) -> bool:
        """Send until nothing is staged; False if the broker or the database failed."""
        try:
            while (sent := outbox.relay(self.sessions, self.send)) > 0:
                self.sent += sent
                if sent < outbox.DEFAULT_RELAY_BATCH:
                    break
            return True
        except (*BROKER_ERRORS, sa.exc.SQLAlchemyError) as exc:
            log.warning("staged jobs wait: %s", exc.__class__.__name__, exc_info=False)
            return False


def _forget(session: Session) -> None:
    session.info.pop(outbox.STAGED, None)
