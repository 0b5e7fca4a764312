"""Which files `check` reads: in a repository full of other YAML and JSON only definitions are linted, walked
or named one by one (as pre-commit passes them), and nothing else makes a sound."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wmaplint.engine import declares_kind
from wmaplint.rules.examples import JOB, job_with

BROKEN = job_with("specDefinition:", "specDefiniton:")  # WM112 at defs/job.yaml:9:7

HELM_DEPLOYMENT = """\
{{- if .Values.enabled }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "app.fullname" . }}
  labels:
    {{- include "app.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
  template:
    spec:
      containers:
        - name: {{ .Chart.Name }}
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"
{{- end }}
"""

TSCONFIG = """\
{
  // editor settings
  "compilerOptions": {"target": "es2022", "strict": true,},  /* trailing comma */
  "include": ["src"]
}
"""

WORKFLOW = """\
name: ci
on: [push, pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make test
"""

COMPOSE = """\
services:
  web:
    image: nginx:1.27
    ports: ["8080:80"]
  db:
    image: postgres:16
    environment: {POSTGRES_PASSWORD: example}
"""

KUSTOMIZATION = """\
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [deployment.yaml, service.yaml]
patches:
  - path: replicas.yaml
"""

MANIFESTS = """\
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: team-a}
data: {mode: fast}
---
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: team-a}
spec:
  template:
    spec:
      containers: [{name: main, image: busybox}]
      restartPolicy: Never
"""

# A definition in a Helm chart: templated, so not YAML; inside node_modules and vendor/ it must not be read.
TEMPLATED_DEFINITION = JOB.replace("metadata: {name: batch-job-v1}", "metadata: {name: {{ .Values.name }}}")


def build_repository(root: Path) -> list[Path]:
    """A repository of everything but definitions; returns its files as `git ls-files` would list them."""
    files = {
        "charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
        "charts/app/values.yaml": "enabled: true\nreplicaCount: 2\nimage: {repository: nginx, tag: ''}\n",
        "charts/app/templates/deployment.yaml": HELM_DEPLOYMENT,
        "charts/app/templates/_helpers.tpl": '{{- define "app.fullname" -}}{{ .Release.Name }}{{- end }}\n',
        "web/tsconfig.json": TSCONFIG,
        "web/package.json": '{"name": "web", "version": "1.0.0", "private": true}\n',
        "web/node_modules/left-pad/package.json": '{"name": "left-pad", "kind": "Karta"\n',
        "web/node_modules/left-pad/chart.yaml": TEMPLATED_DEFINITION,
        "vendor/github.com/acme/defs/job.yaml": TEMPLATED_DEFINITION,
        ".github/workflows/ci.yml": WORKFLOW,
        ".github/dependabot.yml": "version: 2\nupdates: [{package-ecosystem: pip, directory: /}]\n",
        "docker-compose.yml": COMPOSE,
        "deploy/kustomization.yaml": KUSTOMIZATION,
        "deploy/manifests.yaml": MANIFESTS,
        "deploy/empty.yaml": "",
        "deploy/comments-only.yaml": "# nothing here yet\n",
        "data/latin1.yaml": "city: Caf\xe9\n",
        "README.md": "# app\n",
    }
    written = []
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("latin-1" if name.endswith("latin1.yaml") else "utf-8"))
        written.append(path)
    binary = root / "assets" / "logo.yaml"
    binary.parent.mkdir()
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    written.append(binary)
    return written


def wmaplint(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wmaplint", "check", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})


def test_a_repository_without_definitions_is_silent_walked_and_file_by_file(tmp_path) -> None:
    files = build_repository(tmp_path)
    walked = wmaplint(".", cwd=tmp_path)
    assert (walked.returncode, walked.stdout, walked.stderr) == (0, "", "")
    # as the pre-commit hooks name every changed file: vendored files are skipped as a walk skips them
    named = wmaplint("--force-exclude", *(f.relative_to(tmp_path) for f in files), cwd=tmp_path)
    assert (named.returncode, named.stdout, named.stderr) == (0, "", "")


def test_a_named_file_in_a_vendored_directory_is_checked(tmp_path) -> None:
    # definitions vendored from upstream under third-party/: a walk leaves them out, a file the user names
    # is checked (it was once skipped without a word), unless --force-exclude
    vendored = tmp_path / "third-party" / "upstream" / "job.yaml"
    vendored.parent.mkdir(parents=True)
    vendored.write_text(BROKEN)
    walked = wmaplint(".", cwd=tmp_path)
    assert (walked.returncode, walked.stdout) == (0, "")
    named = wmaplint("third-party/upstream/job.yaml", cwd=tmp_path)
    assert named.returncode == 1 and "third-party/upstream/job.yaml:9:7: warning:" in named.stdout
    forced = wmaplint("--force-exclude", "-v", "third-party/upstream/job.yaml", cwd=tmp_path)
    assert (forced.returncode, forced.stdout) == (0, "")
    assert ("wmaplint: skipped third-party/upstream/job.yaml: in a vendored or installed third-party "
            "directory (--force-exclude)") in forced.stderr.splitlines()


def test_a_definition_beside_them_is_still_linted(tmp_path) -> None:
    files = build_repository(tmp_path)
    (tmp_path / "defs").mkdir()
    (tmp_path / "defs" / "job.yaml").write_text(BROKEN)
    (tmp_path / "defs" / "clean.yaml").write_text(JOB)
    files += [tmp_path / "defs" / "job.yaml", tmp_path / "defs" / "clean.yaml"]
    for args in (["."], ["--force-exclude", *(f.relative_to(tmp_path) for f in files)]):
        run = wmaplint(*args, "--format", "github", cwd=tmp_path)
        assert run.returncode == 1 and run.stderr == ""
        assert all("file=defs/" in line for line in run.stdout.splitlines())
        assert "file=defs/job.yaml,line=9,col=7," in run.stdout and "WM112" in run.stdout


def test_verbose_says_what_was_skipped_and_why(tmp_path) -> None:
    build_repository(tmp_path)
    run = wmaplint(".", "-v", cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == ""
    lines = run.stderr.splitlines()
    assert "wmaplint: skipped ./.github: hidden directory" in lines
    assert "wmaplint: skipped ./vendor: vendored or installed third-party directory" in lines
    assert "wmaplint: skipped ./web/node_modules: vendored or installed third-party directory" in lines
    assert "wmaplint: skipped ./docker-compose.yml: no definition, CRD, rule pack or test suite" in lines
    assert any(line.startswith("wmaplint: skipped ./assets/logo.yaml: binary file") for line in lines)
    assert any(line.startswith("wmaplint: skipped ./data/latin1.yaml: not valid UTF-8") for line in lines)
    assert not any("_helpers.tpl" in line or "README" in line for line in lines)  # not YAML: not a word
    assert lines[-1] == "wmaplint: no definitions, CRDs, rule packs or test suites in ."


def test_a_broken_file_is_reported_when_it_declares_a_kind_we_read(tmp_path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "karta.yaml").write_text(TEMPLATED_DEFINITION)
    (tmp_path / "templates" / "deployment.yaml").write_text(HELM_DEPLOYMENT)
    run = wmaplint(".", cwd=tmp_path)
    assert run.returncode == 1 and "templates/karta.yaml:3:" in run.stdout and "WM120" in run.stdout
    assert "deployment.yaml" not in run.stdout
    (tmp_path / "bad.yaml").write_bytes(b"apiVersion: run.ai/v1alpha1\nkind: Karta\nspec: caf\xe9\n")
    run = wmaplint("bad.yaml", cwd=tmp_path)
    assert run.returncode == 2 and run.stderr.startswith("wmaplint: bad.yaml: not valid UTF-8")


def test_a_broken_test_suite_is_reported(tmp_path) -> None:
    (tmp_path / "job.test.yaml").write_text("definition: job.yaml\ncases:\n- name: [unclosed\n")
    (tmp_path / "other.test.yaml").write_text("describe: {it: [unclosed\n")  # another tool's test file
    run = wmaplint(".", cwd=tmp_path)
    assert run.returncode == 1 and "job.test.yaml:" in run.stdout and "other.test.yaml" not in run.stdout


def test_config_exclude_prunes_walks_and_named_files_with_force_exclude(tmp_path) -> None:
    (tmp_path / ".wmaplint.yaml").write_text("exclude: [drafts, 'old/*.yaml']\n")
    for name in ("drafts/a/job.yaml", "old/job.yaml"):
        (tmp_path / name).parent.mkdir(parents=True)
        (tmp_path / name).write_text(BROKEN)
    run = wmaplint(".", "-v", cwd=tmp_path)
    assert run.returncode == 0 and run.stdout == ""
    assert "wmaplint: skipped ./drafts: excluded by the configuration" in run.stderr.splitlines()
    run = wmaplint("--force-exclude", "old/job.yaml", cwd=tmp_path)
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
    run = wmaplint("old/job.yaml", cwd=tmp_path)  # named without --force-exclude: checked, as ruff does
    assert run.returncode == 1 and "old/job.yaml:9:7: warning:" in run.stdout


def test_empty_directory_and_missing_path(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    run = wmaplint("empty", cwd=tmp_path)
    assert (run.returncode, run.stdout, run.stderr) == (0, "", "")
    run = wmaplint("nope.yaml", "empty", cwd=tmp_path)
    assert run.returncode == 2 and run.stderr == "wmaplint: nope.yaml: no such file or directory\n"


def test_a_name_too_long_is_one_line(tmp_path) -> None:
    run = wmaplint("d" * 300 + ".yaml", cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"wmaplint: {'d' * 300}.yaml: cannot read (File name too long)\n"


def test_a_walk_past_the_path_limit_skips_what_it_cannot_reach(tmp_path) -> None:
    (tmp_path / "job.yaml").write_text(BROKEN)
    deep = os.open(tmp_path, os.O_RDONLY)
    try:  # build a chain of directories longer than PATH_MAX, relative to open directory handles
        for _ in range(20):
            os.mkdir("n" * 250, dir_fd=deep)
            inner = os.open("n" * 250, os.O_RDONLY, dir_fd=deep)
            os.close(deep)
            deep = inner
    finally:
        os.close(deep)
    run = wmaplint(".", "-v", cwd=tmp_path)
    assert run.returncode == 1 and "Traceback" not in run.stderr and "./job.yaml:9:7" in run.stdout
    assert "File name too long" in run.stderr


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("kind: Karta\n", True),
        ('{"apiVersion": "run.ai/v1alpha1", "kind": "Karta"}', True),
        ("{apiVersion: x,kind: 'ResourceInterface'}", True),
        ("- kind: CustomResourceDefinition\n", True),
        ("  kind:   !!str RulePack  # pack\n", True),
        ("'kind': \"Karta\"\n", True),
        ("kind: KartaList\n", False),
        ("kind: Karta-like\n", False),
        ("# kind: Karta\n", False),
        ("note: the kind: Karta of things\n", False),
        ("subkind: Karta\n", False),
        ("kind: Deployment\n", False),
    ],
)
def test_declares_kind(text: str, expected: bool) -> None:
    assert declares_kind(text) is expected


def test_a_folder_no_path_can_reach_has_no_configuration(tmp_path, monkeypatch) -> None:
    import errno
    from pathlib import Path

    from wmaplint.config import Config, find_config

    real = Path.exists

    def exists(self: Path, *args: object, **kwargs: object) -> bool:
        if self.name == ".wmaplint.yaml" and self.parent == tmp_path:
            raise OSError(errno.ENAMETOOLONG, "File name too long")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "exists", exists)
    assert find_config(str(tmp_path)) == Config()


@pytest.mark.parametrize(
    ("patterns", "left_out"),
    [
        # .gitignore lines (as ruff's exclude): `charts/*/templates/` once matched nothing while `charts/` did
        (["charts/*/templates/"], {"charts/app/templates/job.yaml"}),
        (["charts/"], {"charts/app/templates/job.yaml", "charts/app/defs/job.yaml"}),
        # no slash but a trailing one: a directory at any depth
        (["templates/"], {"charts/app/templates/job.yaml", "templates/job.yaml"}),
        (["/templates/"], {"templates/job.yaml"}),  # a leading slash anchors at the configuration's directory
        (["**/defs/*.yaml"], {"charts/app/defs/job.yaml", "defs/job.yaml"}),
        (["*.yaml", "!defs/job.yaml"],  # `!` re-includes
         {"charts/app/templates/job.yaml", "charts/app/defs/job.yaml", "templates/job.yaml"}),
    ],
)
def test_exclude_patterns_are_gitignore_lines(tmp_path, patterns: list[str], left_out: set[str]) -> None:
    names = {"charts/app/templates/job.yaml", "charts/app/defs/job.yaml", "templates/job.yaml",
             "defs/job.yaml"}
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(BROKEN)
    (tmp_path / ".wmaplint.yaml").write_text("exclude:\n" + "".join(f"  - '{p}'\n" for p in patterns))
    run = wmaplint(".", "--format", "github", cwd=tmp_path)
    checked = {line.split("file=")[1].split(",")[0] for line in run.stdout.splitlines()}
    assert checked == names - left_out
    # a named file matched by the patterns is skipped only with --force-exclude
    for name in left_out:
        assert wmaplint("--force-exclude", name, cwd=tmp_path).stdout == ""
