"""ruff and mypy are clean on the tree, so the README's single test command enforces what
``.ci/run`` checks. Configured in pyproject.toml; both come with the ``test`` extra."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
INSTALL = "pip install -e '.[test]'"


def _run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec(module) is None:
        message = f"{module} is not installed; run `{INSTALL}` to install it"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and the static check cannot run: {message}", pytrace=False)
        pytest.skip(message)
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)


def test_ruff_is_clean() -> None:
    done = _run("ruff", "check", "--no-fix", "src", "tests", "bench", "examples")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_mypy_is_clean() -> None:
    done = _run("mypy")  # the files and settings are in pyproject.toml's [tool.mypy]
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def test_the_layers_hold() -> None:
    """import-linter, with the layers in pyproject.toml (docs/architecture.md): no module imports
    from a layer above its own, imports inside functions included; no cycle between packages."""
    if importlib.util.find_spec("importlinter") is None:
        message = f"import-linter is not installed; run `{INSTALL}` to install it"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and the static check cannot run: {message}", pytrace=False)
        pytest.skip(message)
    done = subprocess.run([sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                           "sys.exit(lint_imports_command())", "--no-cache"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout
