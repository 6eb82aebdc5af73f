"""Entry point: ``python -m bot`` (or the ``trionfi`` script) loads settings and runs the bot.

``python -m bot sync`` uploads the slash commands and exits (the bot itself syncs only when
they changed); ``python -m bot health`` checks a running bot (Docker's HEALTHCHECK);
``python -m bot db copy --to postgresql://…`` moves the SQLite database to PostgreSQL
(``bot.dbcli``).
SIGTERM (``docker stop``) and SIGINT stop the bot cleanly: new interactions are turned away,
the ones in flight finish, the database is checkpointed and closed, and the exit status is 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.settings import ConfigError, load_settings

if TYPE_CHECKING:
    from bot.client import TrionfiBot

log = logging.getLogger("bot")


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
    """Run ``bot`` until a signal stops it (``sync_only``: log in, sync, stop)."""
    async with bot:
        if sync_only:
            bot.sync_only = True
            await bot.login(token)  # setup_hook syncs
            return
        stopped = stop_on_signals(bot)
        runner = asyncio.create_task(bot.start(token))
        waiter = asyncio.create_task(stopped.wait())
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            waiter.cancel()
            runner.result()  # a login failure or a crash propagates
            return
        with contextlib.suppress(asyncio.CancelledError):
            await runner


def main(argv: list[str] | None = None) -> int:
    """Run the bot until it is stopped; return the process exit status."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["health"]:
        from bot.health import main as health

        return health(args[1:])
    if args[:1] == ["db"]:
        from bot.dbcli import main as db

        return db(args[1:])
    if args and args[0] != "sync":
        print(f"error: unknown command {args[0]!r} (use: sync, health, db)", file=sys.stderr)
        return 2
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
    import discord

    from bot.client import create_bot

    try:
        bot = create_bot(settings)
        asyncio.run(serve(bot, settings.token, sync_only=args[:1] == ["sync"]))
    except discord.LoginFailure as exc:
        print(
            f"error: Discord rejected DISCORD_TOKEN ({exc}). Reset the token in the Developer "
            "Portal (Bot tab → Reset Token) and update .env or the environment.",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        log.info("interrupted; shutting down")
        return 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
