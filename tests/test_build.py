"""The container build is reproducible: requirements.lock pins every runtime dependency of
pyproject.toml, and the Dockerfile installs from it (before the code) on a pinned base image,
runs as a non-root user and has a health check.

Static checks on the files only; no docker needed.
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements.lock"
DOCKERFILE = ROOT / "Dockerfile"
CODE_DIRS = ("bot", "cogs")

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;\\]+)")


def _runtime_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [Requirement(dep) for dep in project["dependencies"]]


def _lock_entries() -> dict[str, tuple[str, list[str]]]:
    """Normalised name -> (pinned version, the entry's continuation lines)."""
    entries: dict[str, tuple[str, list[str]]] = {}
    current: list[str] | None = None
    for line in LOCK.read_text().splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = PIN.match(line)
        if match:
            current = []
            entries[canonicalize_name(match.group(1))] = (match.group(2), current)
        elif line[:1].isspace() and current is not None:
            current.append(stripped)
        elif not stripped.startswith("-"):  # pip options (--index-url …) are allowed
            pytest.fail(f"requirements.lock: not an exact `name==version` pin: {line!r}")
    return entries


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments dropped."""
    logical: list[str] = []
    pending = ""
    for raw in DOCKERFILE.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    if pending:
        logical.append(pending)
    result = []
    for line in logical:
        keyword, _, args = line.partition(" ")
        result.append((keyword.upper(), " ".join(args.split())))
    return result


def _index(instructions: list[tuple[str, str]], predicate: Callable[[str, str], bool]) -> int:
    """The position of the first instruction for which ``predicate(keyword, args)`` holds, or -1."""
    for i, instruction in enumerate(instructions):
        if predicate(*instruction):
            return i
    return -1


# ---- the lock file ---------------------------------------------------------------------------


def test_lock_pins_every_runtime_dependency_within_pyproject_bounds() -> None:
    locked = _lock_entries()
    for req in _runtime_requirements():
        name = canonicalize_name(req.name)
        assert name in locked, f"{req.name} is not pinned with == in requirements.lock"
        version = locked[name][0]
        assert req.specifier.contains(Version(version), prereleases=True), (
            f"requirements.lock pins {req.name}=={version}, outside pyproject's "
            f"{req.specifier}: recompile the lock (see its header)"
        )


def test_every_lock_entry_has_hashes() -> None:
    locked = _lock_entries()
    assert locked
    for name, (version, extra) in locked.items():
        hashes = [line for line in extra if line.startswith("--hash=sha256:")]
        assert hashes, f"{name}=={version} has no --hash in requirements.lock"


def test_lock_has_no_local_paths_or_private_indexes() -> None:
    text = LOCK.read_text()
    for option in ("--find-links", "--index-url", "--extra-index-url", "file://", " @ "):
        assert option not in text, f"requirements.lock contains {option!r}"


def test_rating_library_has_an_upper_bound() -> None:
    # A new openskill major may change every rating: upgrade deliberately.
    (openskill,) = [r for r in _runtime_requirements() if canonicalize_name(r.name) == "openskill"]
    assert any(spec.operator in ("<", "<=", "~=", "==") for spec in openskill.specifier)


# ---- the Dockerfile ----------------------------------------------------------------------------


def test_base_image_is_pinned_to_a_patch_release() -> None:
    froms = [args for keyword, args in _instructions() if keyword == "FROM"]
    assert froms, "no FROM"
    for args in froms:
        image = args.split()[0] if not args.startswith("--") else args.split()[1]
        name_tag = image.split("@", 1)[0]
        assert ":" in name_tag.rsplit("/", 1)[-1], f"base image {image} has no tag"
        tag = name_tag.rsplit(":", 1)[1]
        assert tag != "latest", f"base image {image} uses latest"
        assert re.match(r"\d+\.\d+\.\d+(-|$)", tag), f"base image {image}: no patch version"


def test_dependencies_are_installed_from_the_lock_before_the_code_is_copied() -> None:
    instructions = _instructions()

    def copies_code(keyword: str, args: str) -> bool:
        if keyword not in ("COPY", "ADD"):
            return False
        sources = [a for a in args.split() if not a.startswith("--")][:-1]
        return any(s.rstrip("/") in (".", *CODE_DIRS) for s in sources)

    def installs_lock(keyword: str, args: str) -> bool:
        return keyword == "RUN" and "pip install" in args and "-r requirements.lock" in args

    copy_lock = _index(instructions, lambda k, a: k == "COPY" and "requirements.lock" in a.split())
    install_lock = _index(instructions, installs_lock)
    first_code = _index(instructions, copies_code)
    assert copy_lock >= 0, "the Dockerfile does not COPY requirements.lock"
    assert install_lock > copy_lock, "no `pip install -r requirements.lock` after copying it"
    assert first_code > install_lock, "the code is copied before the locked dependencies"
    assert "--require-hashes" in instructions[install_lock][1]

    # The project itself adds nothing the lock did not pin.
    project_install = _index(
        instructions,
        lambda k, a: k == "RUN" and re.search(r"pip install\b.*\s\.(\s|$)", a) is not None,
    )
    assert project_install > first_code, "the project is not installed after its code is copied"
    assert "--no-deps" in instructions[project_install][1], "the project install may add packages"


def test_lock_file_is_not_excluded_from_the_build_context() -> None:
    ignore = ROOT / ".dockerignore"
    if not ignore.exists():
        return
    patterns = [
        line.strip()
        for line in ignore.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for needed in ("requirements.lock", "pyproject.toml", "README.md", *CODE_DIRS):
        excluded = False
        for pattern in patterns:
            if pattern.startswith("!"):
                if fnmatch.fnmatch(needed, pattern[1:]):
                    excluded = False
            elif fnmatch.fnmatch(needed, pattern):
                excluded = True
        assert not excluded, f".dockerignore excludes {needed}"


def test_healthcheck_runs_the_bot_health_command() -> None:
    checks = [args for keyword, args in _instructions() if keyword == "HEALTHCHECK"]
    assert len(checks) == 1, "exactly one HEALTHCHECK expected"
    command = checks[0].partition("CMD ")[2]
    words = " ".join(re.sub(r'[\[\]",]', " ", command).split())  # exec or shell form
    assert words.startswith("python -m bot health"), checks[0]


def test_stops_with_sigterm() -> None:
    signals = [args for keyword, args in _instructions() if keyword == "STOPSIGNAL"]
    assert signals == ["SIGTERM"]


def test_runs_as_a_non_root_user() -> None:
    instructions = _instructions()
    users = [i for i, (keyword, _) in enumerate(instructions) if keyword == "USER"]
    assert users, "no USER: the container would run as root"
    user = instructions[users[-1]][1].split(":")[0]
    assert user not in ("root", "0"), f"USER {user} is root"
    cmd = _index(instructions, lambda k, a: k in ("CMD", "ENTRYPOINT"))
    assert cmd > users[-1], "CMD/ENTRYPOINT comes before the USER switch"
