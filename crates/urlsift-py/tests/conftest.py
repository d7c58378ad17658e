"""Fixtures: the command to compare with, and the project's data."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared"


def _binary():
    given = os.environ.get("URLSIFT_BIN")
    if given:
        if not os.access(given, os.X_OK):
            raise RuntimeError(f"URLSIFT_BIN={given} is not an executable")
        return given
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "urlsift"
        if path.exists():
            return str(path)
    return None


@pytest.fixture(scope="session")
def urlsift_bin():
    """The command's binary (URLSIFT_BIN, or target/release/urlsift)."""
    path = _binary()
    if path is None:
        pytest.skip("the urlsift command is not built (cargo build --release)")
    return path


@pytest.fixture(scope="session")
def cli_json(urlsift_bin):
    """Runs the command with --json and returns its objects."""

    def run(*args, stdin=None):
        out = subprocess.run(
            [urlsift_bin, "--json", "-j1", *map(str, args)],
            input=stdin,
            capture_output=True,
            cwd=ROOT,
        )
        assert out.returncode in (0, 1), out.stderr.decode()
        return [json.loads(line) for line in out.stdout.splitlines()]

    return run


@pytest.fixture(scope="session")
def root():
    """The checkout's root (paths are given relative to it, as to the command)."""
    return ROOT


@pytest.fixture(scope="session")
def real_corpus():
    """Real mail, news and RFC text (../shared/corpus/real)."""
    path = SHARED / "corpus" / "real"
    if not path.is_dir():
        pytest.skip("../shared/corpus/real not found")
    return path


@pytest.fixture(scope="session")
def generated_corpus(tmp_path_factory):
    """A small generated corpus (../shared/bench/gen-corpus)."""
    gen = SHARED / "bench" / "gen-corpus"
    if not gen.exists():
        pytest.skip("../shared/bench/gen-corpus not found")
    out = tmp_path_factory.mktemp("corpus")
    subprocess.run(
        ["python3", str(gen), "--size", "3M", "--seed", "7", "--out", str(out)],
        check=True,
        capture_output=True,
    )
    return out
