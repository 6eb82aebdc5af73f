"""Every install is the locked one: requirements.lock (the bot) and requirements-test.lock (the
bot and its test tools) pin, with hashes, exactly what pyproject.toml allows, agree with each
other, and are what the README, CI and the Dockerfile install; the environment running these
tests is that lock, to the version.

Regenerate the locks with ``scripts/lock`` (README, "Reproducible builds").
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import NormalizedName, canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
BOT_LOCK = ROOT / "requirements.lock"
TEST_LOCK = ROOT / "requirements-test.lock"
LOCKS = (BOT_LOCK, TEST_LOCK)
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)\s*(?:;([^\\]*))?")
REGENERATE = "run scripts/lock"


@dataclass
class Pin:
    version: str
    marker: str | None
    options: list[str] = field(default_factory=list)

    @property
    def hashes(self) -> list[str]:
        return [o for o in self.options if o.startswith("--hash=sha256:")]


def read_lock(path: Path) -> dict[NormalizedName, Pin]:
    """A lock's pins by normalised name; anything but ``name==version`` pins fails."""
    pins: dict[NormalizedName, Pin] = {}
    current: Pin | None = None
    for line in path.read_text().splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = PIN.match(line)
        if match:
            marker = match.group(3).strip() if match.group(3) else None
            current = Pin(match.group(2), marker)
            name = canonicalize_name(match.group(1))
            assert name not in pins, f"{path.name}: {name} pinned twice"
            pins[name] = current
        elif line[:1].isspace() and current is not None:
            current.options.append(stripped.rstrip("\\").strip())
        else:
            pytest.fail(f"{path.name}: not an exact `name==version` pin: {line!r}")
    return pins


def _pyproject() -> dict[str, object]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _requirements(*, test: bool) -> list[Requirement]:
    """What a lock must hold: the build backend, the bot's dependencies, and the test extra."""
    data = _pyproject()
    build: list[str] = data["build-system"]["requires"]  # type: ignore[index]
    project: dict[str, object] = data["project"]  # type: ignore[assignment]
    wanted = [*build, *project["dependencies"]]  # type: ignore[misc]
    if test:
        wanted += project["optional-dependencies"]["test"]  # type: ignore[index]
    return [Requirement(spec) for spec in wanted]


@pytest.mark.parametrize("lock", LOCKS, ids=lambda p: p.name)
def test_lock_pins_everything_pyproject_asks_for_within_its_ranges(lock: Path) -> None:
    pins = read_lock(lock)
    for req in _requirements(test=lock == TEST_LOCK):
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} is missing from {lock.name}: {REGENERATE}"
        version = pins[name].version
        assert req.specifier.contains(Version(version), prereleases=True), (
            f"{lock.name} pins {req.name}=={version}, outside pyproject's {req.specifier}: "
            f"{REGENERATE}"
        )


def test_the_test_lock_runs_the_bot_on_the_bots_own_versions() -> None:
    bot, test = read_lock(BOT_LOCK), read_lock(TEST_LOCK)
    for name, pin in bot.items():
        assert name in test, f"{name} is in requirements.lock only: {REGENERATE}"
        assert test[name].version == pin.version, (
            f"{name}: {pin.version} in requirements.lock, {test[name].version} in "
            f"requirements-test.lock: {REGENERATE}"
        )
        # The same files allowed: a lock hashed for fewer platforms would fail somewhere.
        assert set(test[name].hashes) == set(pin.hashes), f"{name}: the locks' hashes differ"


@pytest.mark.parametrize("lock", LOCKS, ids=lambda p: p.name)
def test_every_pin_has_hashes_and_no_private_source(lock: Path) -> None:
    pins = read_lock(lock)
    assert pins
    for name, pin in pins.items():
        assert pin.hashes, f"{name}=={pin.version} has no --hash in {lock.name}"
    text = lock.read_text()
    for option in ("--find-links", "--index-url", "--extra-index-url", "file://", " @ "):
        assert option not in text, f"{lock.name} contains {option!r}"


def _closure(roots: list[Requirement]) -> dict[NormalizedName, metadata.Distribution]:
    """The installed distributions ``roots`` need, transitively, on this interpreter."""
    found: dict[NormalizedName, metadata.Distribution] = {}
    todo = [(r, frozenset(r.extras)) for r in roots]
    seen: set[tuple[NormalizedName, frozenset[str]]] = set()
    while todo:
        req, extras = todo.pop()
        name = canonicalize_name(req.name)
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            pytest.fail(f"{req.name} is not installed: install requirements-test.lock (README)")
        found[name] = dist
        for spec in dist.requires or ():
            sub = Requirement(spec)
            if sub.marker is None:
                todo.append((sub, frozenset(sub.extras)))
                continue
            # A dependency applies when its marker holds with no extra, or with one asked for.
            if any(sub.marker.evaluate({"extra": e}) for e in (*extras, "")):
                todo.append((sub, frozenset(sub.extras)))
    return found


def test_the_running_environment_is_the_test_lock() -> None:
    """No drift: every package the bot and its tests need is installed at the locked version,
    and the lock is closed (nothing installed for them is missing from it)."""
    pins = read_lock(TEST_LOCK)
    needed = _closure(_requirements(test=True))
    for name, dist in sorted(needed.items()):
        assert name in pins, (
            f"{name} {dist.version} is needed (installed) but not in requirements-test.lock: "
            f"{REGENERATE}"
        )
        assert dist.version == pins[name].version, (
            f"{name} {dist.version} is installed but requirements-test.lock pins "
            f"{pins[name].version}: reinstall from the lock (README, Run the tests)"
        )


def test_upgrades_that_change_results_are_deliberate() -> None:
    """A new openskill major may change every rating; a test tool's next major (ruff's next
    minor) may add rules, errors or behaviour: each needs an edit of pyproject.toml."""
    bounded = {"openskill", "babel", "pytest", "ruff", "pyright", "simcord"}
    reqs = {canonicalize_name(r.name): r for r in _requirements(test=True)}
    for name in bounded:
        ops = {spec.operator for spec in reqs[canonicalize_name(name)].specifier}
        assert ops & {"<", "<=", "~=", "=="}, f"{name} has no upper bound in pyproject.toml"


# ---- where the locks are used -------------------------------------------------------------


def _readme_command(heading: str) -> str:
    """The shell command in the README's fenced block right after ``**heading**``."""
    text = (ROOT / "README.md").read_text()
    match = re.search(re.escape(f"**{heading}") + r".*?```sh\n(.*?)```", text, re.S)
    assert match, f"README: no ```sh block after **{heading}"
    return " ".join(match.group(1).replace("\\\n", " ").split())


@pytest.mark.parametrize(
    ("heading", "lock"),
    [("Run the bot", "requirements.lock"), ("Run the tests", "requirements-test.lock")],
)
def test_readme_installs_from_a_lock_then_the_project_alone(heading: str, lock: str) -> None:
    steps = [s.strip() for s in _readme_command(heading).split("&&")]
    installs = [s for s in steps if "pip install" in s]
    assert len(installs) == 2, f"README {heading}: expected two pip installs, got {installs}"
    locked, project = installs
    assert f"-r {lock}" in locked and "--require-hashes" in locked, locked
    assert project.endswith(" -e .") and "--no-deps" in project, project
    assert "--no-build-isolation" in project, f"{project}: the build backend would be unpinned"


def test_ci_runs_exactly_the_readmes_test_command() -> None:
    ci = " ".join((ROOT / ".ci" / "run").read_text().replace("\\\n", " ").split())
    for step in _readme_command("Run the tests").split("&&"):
        assert " ".join(step.split()) in ci, f".ci/run does not run the README's {step.strip()!r}"
