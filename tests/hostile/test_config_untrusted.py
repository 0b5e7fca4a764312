"""A repository's settings are untrusted: the files they name stay inside the repository, and a named file
that is no rule pack or CRD is reported by name with a short reason — its content never reaches any output."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB

from .helpers import JOB_MANIFEST, assert_clean, wmaplint

SECRET = "AKIA-not-a-real-key-7f3a9c"
FORMATS = ("text", "json", "sarif", "github")


@pytest.fixture
def runner(tmp_path) -> Path:
    """A CI runner's disk: a checked-out repository beside files that must never be published."""
    (tmp_path / ".env").write_text(f"TOKEN={SECRET}\n")
    (tmp_path / "keys.yaml").write_text(f"token: {SECRET}\nrules: [{{id: {SECRET}}}]\n")
    repo = tmp_path / "work" / "repo"
    repo.mkdir(parents=True)
    (repo / ".git").mkdir()
    (repo / "def.yaml").write_text(JOB)
    return repo


def _check_everywhere(repo: Path, *codes: int, env: dict[str, str] | None = None) -> list[str]:
    outputs = []
    for fmt in FORMATS:
        run = assert_clean(wmaplint("check", "--format", fmt, "def.yaml", cwd=repo, env=env), *codes)
        assert SECRET not in run.stdout + run.stderr, str(run)
        outputs.append(run.stdout + run.stderr)
    return outputs


@pytest.mark.parametrize("key", ["rule-packs", "crds"])
@pytest.mark.parametrize("target", ["../../.env", "../../keys.yaml", "/etc/hostname"])
def test_paths_outside_the_repository_are_refused(runner: Path, key: str, target: str) -> None:
    (runner / ".wmaplint.yaml").write_text(f"{key}: ['{target}']\n")
    for output in _check_everywhere(runner, 2):
        assert f"{key}: '{target}' resolves outside the repository" in output


@pytest.mark.parametrize("key", ["rule-packs", "crds"])
def test_links_leading_out_are_refused(runner: Path, key: str) -> None:
    (runner / "pack.yaml").symlink_to(runner.parent.parent / "keys.yaml")
    (runner / ".wmaplint.yaml").write_text(f"{key}: [pack.yaml]\n")
    for output in _check_everywhere(runner, 2):
        assert "resolves outside the repository" in output


def test_schema_directory_holding_a_link_out(runner: Path) -> None:
    (runner / "crds").mkdir()
    (runner / "crds" / "widget.yaml").symlink_to(runner.parent.parent / "keys.yaml")
    (runner / ".wmaplint.yaml").write_text("crds: [crds]\n")
    for output in _check_everywhere(runner, 2):
        assert "holds widget.yaml, a link leading outside the repository" in output


def test_pyproject_settings_are_confined_too(runner: Path) -> None:
    (runner / "pyproject.toml").write_text("[tool.wmaplint]\nrule-packs = ['../../.env']\n")
    _check_everywhere(runner, 2)


def test_configuration_file_that_links_out_is_not_read(runner: Path) -> None:
    (runner / ".wmaplint.yaml").symlink_to(runner.parent.parent / "keys.yaml")
    for output in _check_everywhere(runner, 2):
        assert "is a link leading outside the repository" in output


def test_files_inside_the_repository_and_the_user_configuration(runner: Path) -> None:
    config_home = runner.parent.parent / "config"
    (config_home / "wmaplint").mkdir(parents=True)
    pack = config_home / "wmaplint" / "team.yaml"
    pack.write_text("apiVersion: wmaplint.dev/v1\nkind: RulePack\nrules: []\n")
    (runner / "packs").mkdir()
    (runner / "packs" / "own.yaml").write_text("apiVersion: wmaplint.dev/v1\nkind: RulePack\nrules: []\n")
    (runner / ".wmaplint.yaml").write_text(f"rule-packs: [packs/own.yaml, '{pack}']\n")
    _check_everywhere(runner, 0, 1, env={"XDG_CONFIG_HOME": str(config_home)})


@pytest.mark.parametrize(
    "content",
    [f"TOKEN={SECRET}\n", f"token: {SECRET}\n", f"- {SECRET}\n", f"rules: [{{id: {SECRET}}}]\n",
     f"kind: RulePack\napiVersion: {SECRET}\nrules: [{{id: {SECRET}, severity: {SECRET}}}]\n",
     f"{{{SECRET}: [\n"],
    ids=["env", "mapping", "list", "rule-id", "fields", "broken-yaml"],
)
def test_a_pack_that_is_no_pack_is_named_not_echoed(runner: Path, content: str) -> None:
    (runner / "notes.yaml").write_text(content)
    (runner / ".wmaplint.yaml").write_text("rule-packs: [notes.yaml]\n")
    for output in _check_everywhere(runner, 1):
        assert "notes.yaml" in output and "WM920" in output


def test_a_crd_that_is_no_crd_is_named_not_echoed(runner: Path) -> None:
    (runner / "notes.yaml").write_text(f"kind: Job\nTOKEN: {SECRET}\n{SECRET}: [\n")  # read: it names Job
    (runner / ".wmaplint.yaml").write_text("crds: [notes.yaml]\n")
    assert "notes.yaml" in _check_everywhere(runner, 0, 1)[0]  # later runs read the parse from the cache


@pytest.mark.parametrize("key", ["definition", "manifest"])
def test_suite_files_stay_inside_the_repository(runner: Path, key: str) -> None:
    (runner / "job.yaml").write_text(JOB_MANIFEST)
    names = {"definition": "def.yaml", "manifest": "job.yaml", key: "../../keys.yaml"}
    (runner / "job.test.yaml").write_text(
        f"definition: {names['definition']}\ncases: [{{name: a, manifest: {names['manifest']}}}]\n"
    )
    run = assert_clean(wmaplint("test", "job.test.yaml", cwd=runner), 1, 2)
    assert SECRET not in run.stdout + run.stderr
    assert "'../../keys.yaml' resolves outside the repository" in run.stdout + run.stderr
