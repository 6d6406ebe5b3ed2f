"""Shared helpers of the Python package's tests.

The data files are the workspace's own (``tests/data``); the ``promo`` command
they are compared with is ``$PROMO_BIN`` (``cargo build --release -p promo-cli``).
Tests that need the command are skipped where ``PROMO_BIN`` is unset.
"""

import json
import os
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


@lru_cache(maxsize=None)
def load_json(rel):
    """``tests/data/<rel>``, parsed (cached: several tests read the same file)."""
    with open(DATA / rel, encoding="utf-8") as f:
        return json.load(f)


def promo_bin():
    """The ``promo`` command's path, or skips the test."""
    path = os.environ.get("PROMO_BIN")
    if not path:
        pytest.skip("PROMO_BIN is not set (the promo command: cargo build --release -p promo-cli)")
    if not os.access(path, os.X_OK):
        pytest.fail(f"PROMO_BIN={path} is not an executable")
    return path


def run_cli(*args, input=None, check=True):
    """Runs ``promo ARGS``; returns the completed process (stdout as bytes when
    ``input`` is bytes, else text)."""
    binary = promo_bin()
    text = not isinstance(input, (bytes, bytearray))
    proc = subprocess.run(
        [binary, *map(str, args)],
        input=input,
        capture_output=True,
        text=text,
        timeout=300,
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"promo {' '.join(map(str, args))} exited {proc.returncode}: {proc.stderr!s}"
        )
    return proc


@pytest.fixture
def cli():
    promo_bin()
    return run_cli


def outcome(fn, *args, **kwargs):
    """What a promotion call gives, comparable across call paths: the result's
    ``str()``, or ``("refused", reason)`` for a ``PromotionError``."""
    import promo

    try:
        return str(fn(*args, **kwargs))
    except promo.PromotionError as e:
        return ("refused", str(e))
