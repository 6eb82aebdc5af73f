"""The container build is reproducible: the Dockerfile installs requirements.lock (checked in
``tests/test_locks.py``) with hashes, before the code, on a pinned base image, runs as a
non-root user and has a health check.

Static checks on the files only; no docker needed.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"
CODE_DIRS = ("bot", "cogs")


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
