"""Scenario files (``tests/scenarios/*.json``) and the runner contract of ``SCENARIOS.md``."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.engine.registry import GAME_IDS, implemented
from bot.engine.scenario import ERROR_CODES, check, main, run

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.json"))


def load(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "tests" / "scenarios" / name).read_text(encoding="utf-8"))


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_file(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data.get("expect"), "every scenario file asserts something"
    result = run(data)
    assert check(result, data["expect"]) == {}
    assert run(copy.deepcopy(data)) == result  # deterministic
    json.dumps(result)  # plain JSON


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine.scenario", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_check_passes_and_prints_result() -> None:
    path = ROOT / "tests" / "scenarios" / "la_morte_example_a.json"
    proc = _cli(str(path), "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    assert out == run(load("la_morte_example_a.json"))
    assert out["deals"] == [{"outcome": "played", "deltas": [2, 7, 3, 2]}]


def test_cli_plain_run_and_stdin() -> None:
    text = (ROOT / "tests" / "scenarios" / "la_morte_example_e.json").read_text()
    proc = _cli("-", stdin=text)
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["totals"] == [6, 2, 0, 0]


def test_cli_error_exit_status() -> None:
    path = ROOT / "tests" / "scenarios" / "la_morte_error_not_your_turn.json"
    proc = _cli(str(path))
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert set(out) == {"error"}
    assert set(out["error"]) == {"deal", "action", "code", "detail"}
    assert out["error"]["code"] == "not_your_turn"
    # an expected error passes --check
    assert _cli(str(path), "--check").returncode == 0


def test_cli_check_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = load("la_morte_example_a.json")
    data["expect"]["totals"] = [0, 0, 0, 0]
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data))
    assert main([str(f), "--check"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["mismatches"] == {"totals": {"expected": [0, 0, 0, 0], "actual": [2, 7, 3, 2]}}


def test_cli_unreadable_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "bad.json"
    f.write_text("{not json")
    assert main([str(f)]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_scenario"
    assert main([str(tmp_path / "missing.json")]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad_scenario"


# ---- runner behaviour ---------------------------------------------------------------------


def base() -> dict[str, Any]:
    return load("la_morte_example_a.json")


def err(result: dict[str, Any]) -> tuple[Any, Any, str]:
    e = result["error"]
    return e["deal"], e["action"], e["code"]


def test_unimplemented_games_are_bad_scenario() -> None:
    for game in GAME_IDS:
        if game in implemented():
            continue
        res = run({"game": game, "players": 4, "deals": []})
        assert err(res) == (None, None, "bad_scenario")
        assert "not implemented" in res["error"]["detail"]


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda s: s.update(players=4.0), (None, None, "bad_scenario")),
        (lambda s: s.update(players=True), (None, None, "bad_scenario")),
        (lambda s: s.pop("players"), (None, None, "bad_scenario")),
        (lambda s: s.update(options=[]), (None, None, "bad_scenario")),
        (lambda s: s.update(options={"round_limit": 0}), (None, None, "bad_scenario")),
        (lambda s: s.update(options={"target": True}), (None, None, "bad_scenario")),
        (lambda s: s.update(deals={}), (None, None, "bad_scenario")),
        (lambda s: s.pop("deals"), (None, None, "bad_scenario")),
        (lambda s: s["deals"][0].update(dealer=True), (None, None, "bad_scenario")),
        (lambda s: s["deals"][0].update(dealer="0"), (None, None, "bad_scenario")),
        (lambda s: s["deals"][0].update(dealer=-1), (None, None, "bad_scenario")),
        (lambda s: s["deals"][0].pop("deck"), (None, None, "bad_scenario")),
        (lambda s: s["deals"][0].update(actions={}), (None, None, "bad_scenario")),
        (lambda s: s["deals"].append(7), (None, None, "bad_scenario")),
        (lambda s: s["deals"][0]["deck"].__setitem__(0, 5), (0, None, "bad_deck")),
        (lambda s: s["deals"][0]["deck"].pop(), (0, None, "bad_deck")),
        (lambda s: s["deals"][0]["actions"].__setitem__(0, []), (0, 0, "bad_action")),
        (lambda s: s["deals"][0]["actions"][0].pop("seat"), (0, 0, "bad_action")),
        (lambda s: s["deals"][0]["actions"][0].update(seat="0"), (0, 0, "bad_action")),
        (lambda s: s["deals"][0]["actions"][0].update(amount=True), (0, 0, "bad_action")),
        (lambda s: s["deals"][0]["actions"][0].update(amount=2.0), (0, 0, "bad_action")),
        (lambda s: s["deals"][0]["actions"][0].update(type="pass"), (0, 0, "bad_action")),
        (lambda s: s["deals"][0]["actions"][0].update(seat=9), (0, 0, "not_your_turn")),
        (lambda s: s["deals"][0]["actions"][0].update(seat=-1), (0, 0, "not_your_turn")),
        (lambda s: s["deals"][0]["actions"][0].update(amount=10), (0, 0, "illegal_action")),
        (lambda s: s["deals"][0]["actions"][0].update(amount=0), (0, 0, "illegal_action")),
        (lambda s: s["deals"][0]["actions"][3].update(card="D8"), (0, 3, "illegal_action")),
        (lambda s: s["deals"][0]["actions"][3].update(card="SA"), (0, 3, "illegal_action")),
        (lambda s: s["deals"][0]["actions"][3].update(card="Z9"), (0, 3, "bad_action")),
        (lambda s: s["deals"][0]["actions"][3].update(card=7), (0, 3, "bad_action")),
    ],
)
def test_error_codes(mutate: Any, expected: tuple[Any, Any, str]) -> None:
    s = base()
    mutate(s)
    assert err(run(s)) == expected


def test_error_order() -> None:
    s = base()
    # a malformed action for the wrong seat is bad_action (checked before not_your_turn)
    s["deals"][0]["actions"][0] = {"seat": 2, "type": "bid", "amount": "x"}
    assert err(run(s)) == (0, 0, "bad_action")
    # a well-formed action for a seat that does not exist is not that seat's turn
    s["deals"][0]["actions"][0] = {"seat": 9, "type": "bid", "amount": 2}
    assert err(run(s)) == (0, 0, "not_your_turn")
    # deal_over before bad_action
    s = base()
    s["deals"][0]["actions"].append("junk")
    assert err(run(s)) == (0, len(s["deals"][0]["actions"]) - 1, "deal_over")
    # bad_deck before wrong_dealer, wrong_dealer before match_over / deal_unfinished
    s = base()
    s["deals"].append({"dealer": 3, "deck": s["deals"][0]["deck"][:-1]})
    assert err(run(s)) == (1, None, "bad_deck")
    s["deals"][1]["deck"] = list(s["deals"][0]["deck"])
    assert err(run(s)) == (1, None, "wrong_dealer")
    s["deals"][1]["dealer"] = 1
    assert "error" not in run(s)
    s = base()
    s["deals"][0]["actions"] = s["deals"][0]["actions"][:5]
    s["deals"].append({"dealer": 2, "deck": s["deals"][0]["deck"]})
    assert err(run(s)) == (1, None, "wrong_dealer")
    s["deals"][1]["dealer"] = 1
    assert err(run(s)) == (1, None, "deal_unfinished")
    h = load("la_morte_error_match_over.json")
    h["deals"][-1]["dealer"] = 0
    assert err(run(h)) == (7, None, "wrong_dealer")


def test_leniency() -> None:
    s = base()
    deal = s["deals"][0]
    deal["deck"] = ["LM" if c == "T13" else c for c in deal["deck"]]
    for a in deal["actions"]:
        a["note"] = "extra keys are ignored"
        if a.get("card") == "T13":
            a["card"] = "LM"
    assert run(s)["totals"] == [2, 7, 3, 2]
    s["deals"][0].pop("actions")
    s["options"] = None
    res = run(s)
    assert res["deals"] == [{"outcome": None, "deltas": None}]
    assert res["next"]["seat"] == 0
    s["deals"][0]["actions"] = None
    assert run(s) == res
    assert run({"game": "la_morte", "players": 3, "deals": []}) == {
        "deals": [],
        "totals": [0, 0, 0],
        "finished": False,
        "winners": [],
        "next": None,
    }


def test_next_is_sorted_and_complete() -> None:
    s = base()
    s["deals"][0]["actions"] = []
    nxt = run(s)["next"]
    assert nxt["seat"] == 0
    keys = [json.dumps(a, sort_keys=True) for a in nxt["legal"]]
    assert keys == sorted(keys)
    assert {"seat": 0, "type": "drop"} in nxt["legal"]
    assert [a["amount"] for a in nxt["legal"] if a["type"] == "bid"] == list(range(1, 10))


def test_check_semantics() -> None:
    res = run(base())
    assert check(res, {"deltas": [[2, 7, 3, 2]]}) == {}
    assert check(res, {"finished": 0}) != {}  # false is not 0
    assert "error" in check({"error": {"deal": 0, "action": 1, "code": "x", "detail": ""}}, {})
    e = {"error": {"deal": 0, "action": 1, "code": "bad_action", "detail": "whatever"}}
    assert check(e, {"error": {"deal": 0, "action": 1, "code": "bad_action"}}) == {}
    assert check(e, {"error": {"deal": 0, "action": 2, "code": "bad_action"}}) != {}
    assert check(res, {"error": {"deal": 0, "action": 1, "code": "bad_action"}}) != {}


# ---- fuzz: the runner never raises and never reports an internal error --------------------

JUNK: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    3,
    9,
    10,
    2**70,
    1.5,
    float("nan"),
    "",
    "x",
    "T13",
    "LM",
    "BAG",
    "S7",
    "play",
    "bid",
    [],
    {},
    [None],
    ["S7"],
    {"seat": 0},
    {"type": "play"},
]


def _mutate(obj: Any, rng: random.Random) -> Any:
    """Replace, delete or insert one random node of a JSON tree."""
    if isinstance(obj, dict) and obj and rng.random() < 0.8:
        key = rng.choice(list(obj))
        r = rng.random()
        if r < 0.15:
            obj.pop(key)
        elif r < 0.25:
            obj[rng.choice(["seat", "type", "card", "amount", "dealer", "deck", "x"])] = rng.choice(
                JUNK
            )
        elif r < 0.5:
            obj[key] = copy.deepcopy(rng.choice(JUNK))
        else:
            obj[key] = _mutate(obj[key], rng)
        return obj
    if isinstance(obj, list) and obj and rng.random() < 0.8:
        i = rng.randrange(len(obj))
        r = rng.random()
        if r < 0.15:
            obj.pop(i)
        elif r < 0.3:
            obj.insert(i, copy.deepcopy(rng.choice(JUNK)))
        elif r < 0.5:
            obj[i] = copy.deepcopy(rng.choice(JUNK))
        elif r < 0.6 and len(obj) > 1:
            j = rng.randrange(len(obj))
            obj[i], obj[j] = obj[j], obj[i]
        else:
            obj[i] = _mutate(obj[i], rng)
        return obj
    return copy.deepcopy(rng.choice(JUNK))


def test_fuzz_never_internal() -> None:
    rng = random.Random(12345)
    sources = [json.loads(p.read_text()) for p in SCENARIOS]
    codes: set[str] = set()
    for _ in range(3000):
        s = copy.deepcopy(rng.choice(sources))
        for _ in range(rng.randint(1, 3)):
            s = _mutate(s, rng)
        res = run(s)
        json.dumps(res)
        if "error" in res:
            assert res["error"]["code"] in ERROR_CODES, res
            codes.add(res["error"]["code"])
        else:
            assert set(res) == {"deals", "totals", "finished", "winners", "next"}
    assert len(codes) >= 7
    for junk in JUNK:
        assert run(junk)["error"]["code"] == "bad_scenario"  # pyright: ignore[reportArgumentType]
