"""pre-commit itself runs both hooks of .pre-commit-hooks.yaml from a clone of this repository, as a user's
repository would: YAML and JSON files only, findings fail the commit, `args: [--fix]` fixes in place.

pre-commit builds the `wmaplint` hook's environment with pip; the test makes that work without the network
from the wheels `make wheelhouse` collects (`make test` does so first), and is skipped with the reason where
they are missing (conftest.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .workspace import REPLICAS_LINE, REPO, git, job_definition, new_repository

# One worker builds the hook environment once for all tests here (make test runs on every core).
pytestmark = pytest.mark.xdist_group("pre-commit")

WHEELHOUSE = REPO / ".wheelhouse"
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"

# A clean definition with one misspelt key that --fix repairs, and as JSON with an unknown jq function.
FIXABLE = job_definition(replicas_key="replicasPth")
BROKEN_JQ = yaml.safe_load(job_definition(replicas="nosuchfunc"))


@pytest.fixture(scope="module")
def hooks_clone(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A local clone of this repository and the commit the user's configuration pins."""
    clone = tmp_path_factory.mktemp("clone") / "wmaplint"
    subprocess.run(["git", "clone", "--quiet", "--no-local", str(REPO), str(clone)], check=True)
    return clone, git(clone, "rev-parse", "HEAD").strip()


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the module: the hook environment is built once (the slow part)."""
    return tmp_path_factory.mktemp("pre-commit-home")


def _user_repository(root: Path, clone: Path, rev: str, hook: str, args: list[str]) -> Path:
    new_repository(root)
    config = {"repos": [{"repo": str(clone), "rev": rev, "hooks": [{"id": hook, "args": args}]}]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (root / "defs").mkdir()
    (root / "defs" / "job.yaml").write_text(FIXABLE, encoding="utf-8")
    (root / "defs" / "job.json").write_text(json.dumps(BROKEN_JQ, indent=2), encoding="utf-8")
    # a definition in a file pre-commit does not classify as YAML or JSON must never reach the hook
    (root / "defs" / "job.txt").write_text(FIXABLE, encoding="utf-8")
    # definitions vendored from upstream: the hook passes them, its entry's --force-exclude skips them
    (root / "third_party" / "upstream").mkdir(parents=True)
    (root / "third_party" / "upstream" / "job.yaml").write_text(FIXABLE, encoding="utf-8")
    (root / "deploy.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n", "utf-8")
    git(root, "add", ".")
    return root


def _pre_commit(root: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """`pre-commit run --all-files` on a fresh machine: no network, no schema path, an empty user cache."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("WMAPLINT_", "PIP_", "PRE_COMMIT", "VIRTUAL_ENV", "XDG_"))
    }
    env.update(
        {
            "PRE_COMMIT_HOME": str(home),
            "PIP_NO_INDEX": "1",
            "PIP_FIND_LINKS": str(WHEELHOUSE),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
            "HOME": str(root.parent / "home"),
            "XDG_CACHE_HOME": str(root.parent / "cache"),
            "PATH": f"{PRE_COMMIT.parent}{os.pathsep}{env.get('PATH', '')}",
            "NO_COLOR": "1",
        }
    )
    return subprocess.run(
        [str(PRE_COMMIT), "run", "--all-files", "--color", "never"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


@pytest.mark.parametrize("hook", ["wmaplint", "wmaplint-system"])
def test_hook_reports_findings_in_yaml_and_json_only(
    hook: str, hooks_clone: tuple[Path, str], pre_commit_home: Path, tmp_path: Path
) -> None:
    root = _user_repository(tmp_path / "user", *hooks_clone, hook=hook, args=["--verbose"])
    done = _pre_commit(root, pre_commit_home)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Failed" in output and "exit code: 1" in output
    assert f"defs/job.yaml:{REPLICAS_LINE}:9: warning: unknown field 'replicasPth'" in output
    assert "defs/job.json:" in output and "nosuchfunc" in output
    # on a fresh machine the Job's schema comes from the bundle inside the installed package
    assert "WM901" not in output and "no schema for batch/v1 Job" not in output
    # --verbose names every file wmaplint skipped: the other YAML arrived, the .txt file never did
    assert "skipped deploy.yaml" in output
    assert "skipped third_party/upstream/job.yaml: in a vendored" in output
    assert f"third_party/upstream/job.yaml:{REPLICAS_LINE}:" not in output  # no finding there
    assert "job.txt" not in output
    assert "Traceback" not in output
    assert (root / "defs" / "job.yaml").read_text(encoding="utf-8") == FIXABLE  # nothing changed


def test_fix_passes_through_args(
    hooks_clone: tuple[Path, str], pre_commit_home: Path, tmp_path: Path
) -> None:
    root = _user_repository(tmp_path / "user", *hooks_clone, hook="wmaplint", args=["--fix"])
    done = _pre_commit(root, pre_commit_home)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "files were modified by this hook" in output
    fixed = (root / "defs" / "job.yaml").read_text(encoding="utf-8")
    assert fixed == FIXABLE.replace("replicasPth:", "replicasPath:")
    assert (root / "defs" / "job.txt").read_text(encoding="utf-8") == FIXABLE
    assert (root / "third_party" / "upstream" / "job.yaml").read_text(encoding="utf-8") == FIXABLE
