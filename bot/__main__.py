"""Entry point: ``python -m bot [COMMAND]`` (or the ``trionfi`` script).

Commands (``python -m bot --help`` prints them, without a token and without importing
discord.py):

- ``run`` (the default, also with no command): load the settings (``bot.settings``: the
  environment, then ``./.env``) and run the bot until SIGTERM (``docker stop``) or SIGINT stops
  it cleanly: new interactions are turned away, the ones in flight finish, the database is
  checkpointed and closed, and the exit status is 0.
- ``sync``: log in, upload the slash commands and exit (the bot itself syncs only when they
  changed).
- ``health``: check a running bot through its status file (Docker's HEALTHCHECK; ``bot.health``).
- ``db copy --to postgresql://…``: move the SQLite database to PostgreSQL (``bot.dbcli``).

A problem the operator has to fix is told in one ``error: …`` line on stderr, without a
traceback, and the exit status is 2: an unknown command, a missing or malformed setting, a token
Discord refuses, a network that cannot reach Discord when the bot starts (``describe_start_failure``
lists the cases). Once the bot has logged in, losing the network is discord.py's business: it
reconnects with backoff, and the bot keeps running.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import re
import signal
import sys
from typing import TYPE_CHECKING

from bot.settings import ConfigError, load_settings

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.client import TrionfiBot

log = logging.getLogger("bot")

USAGE = "usage: python -m bot [run | sync | health | db copy | help] [OPTIONS]"

HELP = f"""\
{USAGE}

Trionfi: a Discord bot for historical and invented tarot trick-taking games.
Installed with pip, the `trionfi` command is the same as `python -m bot`.

commands:
  run       connect to Discord and serve games until stopped (the default)
  sync      log in, upload the slash commands to Discord, and exit
  health    exit 0 if the running bot is healthy, else say why and exit 1
  db copy   copy the SQLite database into PostgreSQL and verify the copy
  help      show this help (also -h, --help)

`python -m bot health --help` and `python -m bot db copy --help` list their
options; health is the Docker image's HEALTHCHECK.

configuration:
  Settings come from environment variables and from a .env file in the current
  directory; a real environment variable wins over the same key in .env.
  DISCORD_TOKEN is required by run and sync; every other key has a default
  (the database is ./data/trionfi.sqlite3). To start, copy config.example.env
  to .env and fill in DISCORD_TOKEN; config.example.env and README.md
  ("Configuration") explain every key.

exit status:
  0  done, or stopped cleanly (Ctrl-C, SIGTERM)
  1  health: the bot is not healthy
  2  a problem to fix, told in one "error: ..." line on stderr: an unknown
     command, a missing or malformed setting, a token Discord refuses, or no
     connection to Discord at start-up
"""

HELP_FLAGS = ("-h", "--help", "help")

# Gateway close codes that no reconnection can fix: the settings are wrong.
# https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes
_GATEWAY_CLOSE_HINTS = {
    4010: "invalid shard; check SHARD_COUNT and SHARD_IDS",
    4011: "this bot is in too many servers for one shard; set SHARD_COUNT, or leave it empty "
    "to let Discord decide",
    4012: "invalid API version; upgrade discord.py",
    4013: "invalid intents",
}


class StartError(Exception):
    """The bot could not start for a reason the operator can fix; ``str(error)`` is the one
    ``error: …`` line to print."""


def stop_on_signals(bot: TrionfiBot) -> asyncio.Event:
    """SIGTERM and SIGINT ask ``bot`` to stop cleanly (``TrionfiBot.shutdown``); the returned
    event is set once it has."""
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    tasks: set[asyncio.Task[None]] = set()  # a reference, so the stop is not collected

    async def stop() -> None:
        try:
            await bot.shutdown()
        finally:
            stopped.set()

    def on_signal(signum: int) -> None:
        log.info("%s received; stopping", signal.Signals(signum).name)
        task = loop.create_task(stop())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, on_signal, sig)
    return stopped


async def serve(bot: TrionfiBot, token: str, *, sync_only: bool = False) -> None:
    """Run ``bot`` until a signal stops it (``sync_only``: log in, sync, stop).

    Raises:
        StartError: Discord refused the token, could not be reached at start-up, or refused the
            bot's settings (`describe_start_failure`); the cause is chained.
    """
    async with bot:
        try:
            await _run(bot, token, sync_only=sync_only)
        except Exception as exc:
            # Judged here, before ``async with`` closes the bot: whether it had logged in tells a
            # failed login call from a failure of the bot's own set-up (a database, say).
            message = describe_start_failure(exc, logged_in=getattr(bot, "user", None) is not None)
            if message is None:
                raise  # a bug or a failure of something else: its traceback is wanted
            raise StartError(message) from exc


async def _run(bot: TrionfiBot, token: str, *, sync_only: bool) -> None:
    if sync_only:
        bot.sync_only = True
        await bot.login(token)  # setup_hook syncs
        return
    stopped = stop_on_signals(bot)
    # ``start`` = ``login`` (one HTTP call: its failures end the start) + ``connect`` (the
    # gateway, which discord.py reconnects with backoff after a network failure).
    runner = asyncio.create_task(bot.start(token))
    waiter = asyncio.create_task(stopped.wait())
    done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
    # ``accepting`` turns False as soon as a signal asks for the stop (``TrionfiBot.shutdown``).
    if runner in done and getattr(bot, "accepting", True):
        waiter.cancel()
        runner.result()  # a login failure or a crash propagates
        return
    await waiter  # the stop finishes (in-flight work, the database) before the bot is closed
    try:
        await runner
    except asyncio.CancelledError:
        pass
    except Exception as exc:
        # A stop asked during the login closes the HTTP session under it ("Connector is
        # closed"): the end of what was asked, not a failure to report.
        log.debug("the connection ended after the stop: %r", exc)


def describe_start_failure(exc: BaseException, *, logged_in: bool) -> str | None:
    """The one-line ``error: …`` message for ``exc`` raised while the bot starts, or None when
    it is not something the operator can fix from a message (a bug: keep its traceback).

    Args:
        exc: What ``Client.login`` or ``Client.start`` raised.
        logged_in: Whether the login call succeeded (``bot.user`` is set). Before it, any
            network error comes from that call to Discord; after it, only aiohttp's are
            Discord's: a plain ``OSError`` may be the database's.

    The cases: Discord refused the token (``LoginFailure``, gateway close 4004); the privileged
    intents are not enabled (``PrivilegedIntentsRequired``); Discord refused the shard or
    intent settings (gateway close 4010-4013); Discord answered with a server error (HTTP 5xx,
    ``GatewayNotFound``) or refused the login otherwise (HTTP 4xx, 429); Discord could not be
    reached (DNS failure, connection refused, timeout, TLS, proxy).
    """
    import aiohttp
    import discord

    if isinstance(exc, discord.LoginFailure):
        return _token_rejected(str(exc))
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return (
            f"error: Discord refused the privileged gateway intents the bot asks for (shard "
            f"{exc.shard_id}). Turn them on in the Developer Portal (your application → Bot tab "
            "→ Privileged Gateway Intents), then start again."
        )
    if isinstance(exc, discord.ConnectionClosed):
        if exc.code == 4004:
            return _token_rejected("the gateway answered 4004: authentication failed")
        hint = _GATEWAY_CLOSE_HINTS.get(exc.code)
        if hint is None:
            return None  # discord.py gave up on an unexpected close: a crash, with its traceback
        return f"error: Discord closed the gateway connection with code {exc.code}: {hint}."
    if isinstance(exc, discord.GatewayNotFound):
        return (
            "error: Discord did not give a gateway to connect to; Discord may be having an outage "
            "(https://discordstatus.com): try again in a few minutes."
        )
    if isinstance(exc, discord.HTTPException):
        answer = f"HTTP {exc.status}{_reason(exc)}"
        if exc.status >= 500:
            during = "to the login" if not logged_in else "while the bot was starting"
            return (
                f"error: Discord answered {answer} {during}; Discord is having trouble "
                "(https://discordstatus.com): try again in a few minutes."
            )
        if logged_in:
            return None  # setup_hook catches the HTTP errors it expects: this one is a bug
        if exc.status == 429:
            return (
                f"error: Discord refused the login with {answer}: too many requests from this "
                "address (often a bot restarting in a loop); wait a while before starting again."
            )
        return f"error: Discord refused the login with {answer}."
    if isinstance(exc, aiohttp.ClientError) or (not logged_in and isinstance(exc, OSError)):
        # ``TimeoutError`` is an ``OSError`` (Python 3.11), aiohttp's connection errors too.
        return f"error: cannot reach Discord ({network_reason(exc)}); check the network or proxy."
    return None


def network_reason(exc: BaseException) -> str:
    """What went wrong on the way to Discord, in a few words: a DNS failure, a connection
    refused, a timeout, a TLS or proxy failure (``exc``: an aiohttp error or an ``OSError``)."""
    import socket
    import ssl

    import aiohttp

    if isinstance(exc, aiohttp.ClientConnectorError):
        where, cause = f"{exc.host}:{exc.port}", exc.os_error
        if isinstance(exc, aiohttp.ClientProxyConnectionError):
            return f"the proxy {where} failed: {_one_line(str(cause))}"
    else:
        where, cause = "", exc
    if isinstance(exc, aiohttp.ClientConnectorDNSError) or isinstance(cause, socket.gaierror):
        host = where.rsplit(":", 1)[0] or "discord.com"
        return f"DNS failure: cannot resolve {host}"
    if isinstance(exc, aiohttp.ClientSSLError) or isinstance(cause, ssl.SSLError):
        return f"TLS failure with {where or 'discord.com'}: {_one_line(str(cause))}"
    if isinstance(cause, TimeoutError) or getattr(cause, "errno", None) == errno.ETIMEDOUT:
        return f"timeout connecting to {where}" if where else "timeout"
    to = f" {where}" if where else ""
    match getattr(cause, "errno", None):
        case errno.ECONNREFUSED:
            return f"connection refused by{to or ' the server'}"
        case errno.ENETUNREACH:
            return "network unreachable"
        case errno.EHOSTUNREACH:
            return f"no route to host{to}"
        case errno.ECONNRESET:
            return f"connection reset by{to or ' the server'}"
        case _:
            return _one_line(str(cause)) or type(cause).__name__


def _token_rejected(detail: str) -> str:
    return (
        f"error: Discord rejected DISCORD_TOKEN ({detail}). Reset the token in the Developer "
        "Portal (Bot tab → Reset Token) and update .env or the environment."
    )


def _reason(exc: BaseException) -> str:
    """`` (Service Unavailable)``: the HTTP reason phrase of a ``discord.HTTPException``, or
    nothing. Its body is not shown: a proxy or Cloudflare answers with a whole HTML page."""
    reason = getattr(getattr(exc, "response", None), "reason", None)
    return f" ({_one_line(str(reason))})" if reason else ""


def _one_line(text: str, limit: int = 160) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def main(argv: list[str] | None = None) -> int:
    """Run a command of ``python -m bot`` (``argv``: its arguments, None for ``sys.argv[1:]``);
    return the process exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    command = args[0] if args else "run"
    if command in HELP_FLAGS:
        if command == "help" and args[1:2] in (["health"], ["db"]):
            return main([args[1], "--help"])  # ``help db``: the command's own options
        print(HELP, end="")
        return 0
    if command == "health":
        from bot.health import main as health

        return health(args[1:])
    if command == "db":
        from bot.dbcli import main as db

        return _argparse_status(db, args[1:])
    if command not in ("run", "sync"):
        _usage_error(f"unknown command {command!r}")
        return 2
    extra = args[1:]
    if any(arg in HELP_FLAGS[:2] for arg in extra):
        print(HELP, end="")
        return 0
    if extra:
        _usage_error(f"{command} takes no arguments, got {' '.join(extra)!r}")
        return 2
    return _start(sync_only=command == "sync")


def _usage_error(message: str) -> None:
    print(USAGE, file=sys.stderr)
    print(f"error: {message}; python -m bot --help lists the commands", file=sys.stderr)


def _argparse_status(command: Callable[[list[str]], int], args: list[str]) -> int:
    """``command(args)``, with argparse's exit (``--help``: 0, a usage error: 2) returned as
    the status instead of raised, so that `main` always returns one."""
    try:
        return command(args)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)


def _start(*, sync_only: bool) -> int:
    """``run`` and ``sync``: settings, logging, the database folder, then the bot."""
    try:
        settings = load_settings()
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    from bot.log import setup_logging

    setup_logging(settings.log_level, settings.log_format)
    try:
        settings.database_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(
            f"error: cannot create the directory for DATABASE_PATH={settings.database_path} "
            f"({exc.strerror or exc})",
            file=sys.stderr,
        )
        return 2

    # Imported here so a configuration error is reported before discord.py (slow) is imported.
    from bot.client import create_bot

    try:
        bot = create_bot(settings)
        asyncio.run(serve(bot, settings.token, sync_only=sync_only))
    except StartError as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        log.info("interrupted; shutting down")
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
