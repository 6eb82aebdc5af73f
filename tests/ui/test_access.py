"""What the bot asks for and what a refusal means (issue 28, defect 1): the README's invite
asks for every permission a table uses, a 403 on a channel is a refusal that may pass (not a
lost channel), and a message is cut down to what the channel allows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.ui.delivery import access
from bot.ui.delivery.failures import Gone, Lost, Refused, attempt
from bot.ui.delivery.pictures import PICTURE

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_invite_asks_for_every_permission_a_table_uses() -> None:
    text = README.read_text(encoding="utf-8")
    asked = {int(n) for n in re.findall(r"permissions=(\d+)", text)}
    assert asked == {access.INVITE_PERMISSIONS}
    perms = discord.Permissions(access.INVITE_PERMISSIONS)
    assert perms.attach_files and perms.use_external_emojis
    assert f"`{access.INVITE_PERMISSIONS}` = the sum of these" in text
    for attr, name in access.NEEDED.items():
        flag = getattr(discord.Permissions, attr).flag
        assert re.search(rf"{name}s? \({flag}[,)]", text), name  # "View Channels (1024)"


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "refused"


def _error(kind: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    return kind(_Response(status), {"code": code, "message": "no"})  # pyright: ignore[reportArgumentType]


async def _raise(error: Exception) -> Any:
    raise error


@pytest.mark.parametrize(
    ("error", "failure"),
    [
        (_error(discord.Forbidden, 403, 50013), Refused),  # Missing Permissions
        (_error(discord.Forbidden, 403, 50001), Refused),  # Missing Access
        (_error(discord.NotFound, 404, 10003), Lost),  # Unknown Channel
        (_error(discord.NotFound, 404, 10008), Gone),  # Unknown Message
    ],
)
async def test_what_a_failed_request_means(error: Exception, failure: type[Exception]) -> None:
    with pytest.raises(failure) as caught:
        await attempt(_raise(error), "a table message")
    assert type(caught.value) is failure


async def test_a_dm_closed_to_the_bot_is_lost_not_refused() -> None:
    with pytest.raises(Lost) as caught:
        await attempt(_raise(_error(discord.Forbidden, 403, 50007)), "a hand")
    assert not isinstance(caught.value, Refused)


def _table_fields() -> dict[str, Any]:
    embed = discord.Embed(title="La Morte · table #4", description="Dealer **ana**")
    embed.add_field(name="Players", value="ana — 2 tricks\nbo — 1 trick")
    embed.set_footer(text="target 10")
    return {"content": "<@1>, your turn", "embed": embed, PICTURE: ("table.png", b"png")}


def test_without_attach_files_the_picture_stays_home() -> None:
    out = access.within(_table_fields(), frozenset({"attach_files"}))
    assert PICTURE not in out and isinstance(out["embed"], discord.Embed)


def test_a_host_hears_the_cause_not_its_consequences() -> None:
    everything = frozenset(access.NEEDED) - {"read_message_history"}
    assert access.to_tell(everything) == {"view_channel"}
    assert access.to_tell(everything - {"view_channel"}) == {"send_messages", "use_external_emojis"}
    assert access.to_tell(frozenset({"attach_files"})) == {"attach_files"}
