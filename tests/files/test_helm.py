"""Definitions shipped in Helm charts: a template is recognised and gets one finding that says what to do,
and the rendered chart piped to `check -` is checked document by document."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from wmaplint.rules.examples import JOB

REPO = Path(__file__).resolve().parents[2]

# As charts write them: actions in plain scalars and on lines of their own.
TEMPLATE = JOB.replace("metadata: {name: batch-job-v1}", """\
metadata:
  name: {{ include "app.fullname" . }}
  labels:
    {{- include "app.labels" . | nindent 4 }}""")

# Actions only in quoted scalars: valid YAML, but template text where the values should be.
QUOTED = JOB.replace("metadata: {name: batch-job-v1}", 'metadata: {name: "{{ .Release.Name }}-job"}')

# `helm template app charts/app` output: other kinds first, `# Source:` comments, one broken definition.
RENDERED = """\
---
# Source: app/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: release-app
---
# Source: app/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: release-app}
spec:
  selector: {matchLabels: {app: release-app}}
  template:
    metadata: {labels: {app: release-app}}
    spec: {containers: [{name: app, image: "nginx:1.27"}]}
---
# Source: app/templates/karta.yaml
""" + JOB.replace(".spec.parallelism // 1", ".spec.parallelism | nosuchfunc")


def wmaplint(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "wmaplint", "check", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=120, env=env)


def _chart(root: Path, name: str, text: str) -> None:
    (root / "charts" / "app" / "templates").mkdir(parents=True, exist_ok=True)
    (root / "charts" / "app" / "Chart.yaml").write_text("apiVersion: v2\nname: app\nversion: 0.1.0\n")
    (root / "charts" / "app" / "templates" / name).write_text(text)


def test_a_chart_template_is_one_finding_that_says_what_to_do(tmp_path: Path) -> None:
    _chart(tmp_path, "karta.yaml", TEMPLATE)
    run = wmaplint(".", "--format", "github", cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 1 and "WM101" not in run.stdout and "flow node" not in run.stdout
    where = "file=charts/app/templates/karta.yaml,line=4,col=9,endLine=4,endColumn=38,"
    assert lines[0].startswith(f"::warning {where}")
    assert "this file is a template of the Helm chart charts/app" in lines[0]
    assert "`helm template charts/app | wmaplint check -`" in lines[0]
    assert 'exclude: ["charts/app/templates/"]' in lines[0]


def test_quoted_actions_in_a_chart_are_a_template_too(tmp_path: Path) -> None:
    _chart(tmp_path, "karta.yaml", QUOTED)
    run = wmaplint("charts/app/templates/karta.yaml", cwd=tmp_path)
    assert run.returncode == 1 and run.stdout.count("[WM") == 1 and "[WM120 helm-template]" in run.stdout
    assert "charts/app/templates/karta.yaml:3:19: warning:" in run.stdout


def test_a_template_outside_a_chart_and_what_is_not_one(tmp_path: Path) -> None:
    (tmp_path / "karta.yaml").write_text(TEMPLATE)
    run = wmaplint("karta.yaml", cwd=tmp_path)
    assert run.returncode == 1 and run.stdout.count("[WM") == 1
    action = '`{{ include "app.fullname" . }}`'
    assert f"karta.yaml:4:9: warning: this file is a Helm template ({action}" in run.stdout
    assert "`helm template CHART | wmaplint check -`" in run.stdout
    # outside a chart, a quoted action or one in a comment is text: the definition is checked as it is
    commented = QUOTED.replace("kind: Karta", "kind: Karta  # {{ not a template }}")
    (tmp_path / "quoted.yaml").write_text(commented)
    run = wmaplint("quoted.yaml", "--select", "WM120,WM101", cwd=tmp_path)
    assert (run.returncode, run.stdout) == (0, "no findings in 1 file\n")


def test_a_rendered_stream_on_stdin_checks_its_definitions_only(tmp_path: Path) -> None:
    run = wmaplint("-", "--format", "json", cwd=tmp_path, stdin=RENDERED)
    assert run.returncode == 1, run.stderr
    findings = json.loads(run.stdout)["diagnostics"]
    assert findings and {d["path"] for d in findings} == {"<stdin>"}
    # positions are lines of the stream; each finding names the template its document came from
    replicas = RENDERED.splitlines().index(next(x for x in RENDERED.splitlines() if "replicasPath" in x)) + 1
    assert [d["span"]["start"]["line"] for d in findings if d["rule"] == "WM202"] == [replicas]
    assert all(d["message"].endswith(" (rendered from app/templates/karta.yaml)") for d in findings)
    assert all(d["span"]["start"]["line"] > 18 for d in findings)  # nothing in the other documents
