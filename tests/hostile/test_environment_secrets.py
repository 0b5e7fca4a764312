"""No evaluation sees the environment: a definition's jq, in whatever shape, runs as the workload runtime
runs it (gojq embedded: no environment, no file names, no debug stream), so a secret in the environment of
`tree` or `test` never reaches their output, their JUnit report or a suite file `test --update` writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.jq.runtime import JqRuntime, guarded, refusal
from wmaplint.rules.examples import JOB

from .helpers import JOB_MANIFEST, assert_clean, wmaplint

SECRET = "s3cr3t-7f3a9c-token"
ENV = {"SECRET_TOKEN": SECRET}
REFUSED = "is not available in the workload runtime (gojq library mode)"

SHAPES = [
    r'"\(env.SECRET_TOKEN)"',
    r'"\($ENV|tojson)"',
    r'"\($ENV.SECRET_TOKEN)"',
    r'error("\(env.SECRET_TOKEN)")',
    r'"\("\(env.SECRET_TOKEN)")"',
    r'def f: "\(env)"; f',
    r'reduce ("\($ENV|tojson)") as $x (""; . + $x)',
    r'@sh "\(env.SECRET_TOKEN)"',
    r'"\(env|getpath(["SECRET_TOKEN"]))"',
    r'"\(env|debug|length)"',
    r'"\(env|stderr|length)"',
    r'"\(input_filename)"',
    r'"\($__loc__)"',
    r'.["\(env.SECRET_TOKEN)"]',
    r'"\(env | to_entries | map(.value) | join(","))"',
    r'last(range(3)) | "\(env.SECRET_TOKEN)"',
    r'"a" as $x | "\($x)\("\(env["SECRET_TOKEN"])")"',
]


def _suite(tmp_path: Path, expression: str) -> Path:
    quoted = "'" + expression.replace("'", "''") + "'"
    (tmp_path / "def.yaml").write_text(JOB.replace("'.spec.parallelism // 1'", quoted, 1))
    (tmp_path / "job.yaml").write_text(JOB_MANIFEST)
    suite = tmp_path / "job.test.yaml"
    suite.write_text("definition: def.yaml\ncases:\n- name: job\n  manifest: job.yaml\n"
                     "  expect: {totals: {pods: 99}}\n")
    return suite


def _no_secret(*texts: str) -> None:
    for text in texts:
        assert SECRET not in text and "SECRET_TOKEN\":" not in text, text[-3000:]


@pytest.mark.parametrize("expression", SHAPES)
def test_a_secret_in_the_environment_reaches_no_output(tmp_path: Path, expression: str) -> None:
    suite = _suite(tmp_path, expression)
    outputs = []
    for fmt in ("text", "json"):
        run = assert_clean(wmaplint("tree", "--definition", "def.yaml", "--format", fmt, "job.yaml",
                                    cwd=tmp_path, env=ENV), 0, 1)
        outputs.append(run.stdout + run.stderr)
    run = assert_clean(wmaplint("test", "--junit", "out.xml", "job.test.yaml", cwd=tmp_path, env=ENV), 1)
    outputs.append(run.stdout + run.stderr)
    outputs.append((tmp_path / "out.xml").read_text())
    run = assert_clean(wmaplint("test", "--update", "job.test.yaml", cwd=tmp_path, env=ENV), 0, 1)
    outputs.append(run.stdout + run.stderr)
    outputs.append(suite.read_text())
    _no_secret(*outputs)
    if any(name in expression for name in ("env", "$ENV", "input_filename", "$__loc__", "debug", "stderr")):
        assert REFUSED in outputs[0], outputs[0]


@pytest.mark.parametrize("expression", [r'"\(env.X)"', r'"\("\($ENV)")"', r'"\(input_filename)"',
                                        r'"\(1|debug)"', r'"\(stderr)"', r'"\($__loc__)"',
                                        r'"a\("b" | env)"'])
def test_names_inside_interpolations_are_refused_as_outside(expression: str) -> None:
    assert refusal(expression) is not None and REFUSED in (refusal(expression) or "")


@pytest.mark.parametrize("expression", [".[env:]", ".[$ENV:]", ".[:env]", ".[1:env]", '{$ENV: 1}',
                                        '{(env): 1}', '{a: .[env:1]}', '{a: .[$ENV:]}', '{a: 1, "b": env}',
                                        '[.[] | .[$__loc__:]]'])
def test_a_name_before_a_slices_colon_is_read_not_a_key(expression: str) -> None:
    # `.[env:]` is a slice from env: the scan took the name before a colon for an object key, anywhere
    assert REFUSED in (refusal(expression) or ""), expression


@pytest.mark.parametrize("expression", [r'"\\(env)"', r'"env"', r'{env: 1} | .env', r'"\(.env)"',
                                        '{a: 1, env: 2}', '{a: {env: [1]}} | .a.env'])
def test_strings_fields_and_keys_named_env_still_run(expression: str) -> None:
    assert refusal(expression) is None


@pytest.mark.parametrize(("expression", "expected"), [
    ("$ENV", {}), ("env", {}), ('"\\(env)"', "{}"), ("input_filename", None),
    ("[get_search_list, get_prog_origin, get_jq_origin]", [[], None, None]), ("1 | debug", 1),
    ("1 | stderr", 1), ('debug("x")', {}), ("$ENV | length", 0),
])
def test_past_the_scan_the_program_itself_has_no_environment(monkeypatch, expression: str,
                                                            expected: object) -> None:
    """Even a program the scan never saw (``guarded`` is what runs, here and in the worker) binds ``env`` and
    ``$ENV`` to the empty object and the host builtins to nothing."""
    import jq

    monkeypatch.setenv("SECRET_TOKEN", SECRET)
    here = jq.compile(guarded(expression)).input_text("{}").all()
    runtime = JqRuntime()
    try:
        [away] = runtime._worker_results([expression], "{}")
    finally:
        runtime.close()
    assert here == [expected] and list(away.outputs) == [expected]


def test_the_worker_process_starts_with_no_environment(monkeypatch) -> None:
    monkeypatch.setenv("SECRET_TOKEN", SECRET)
    runtime = JqRuntime()
    try:
        runtime._worker_results(["."], "1")
        assert runtime._worker is not None
        environ = Path(f"/proc/{runtime._worker.proc.pid}/environ").read_bytes()
    finally:
        runtime.close()
    assert SECRET.encode() not in environ and b"SECRET_TOKEN" not in environ
