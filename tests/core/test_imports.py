"""What a command imports: only what it and its input need (import time is most of a one-file check)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from wmaplint.rules.examples import JOB

# Modules a definition check has no use for: resolution and its libjq binding, the language server, the
# JSON Schema validator (rule packs remember that their text passed it), process pools (one file),
# reporters not asked for, running suites (their findings are loaded with the rules that report them), fixes,
# the parser generator of a benchmark, the JSONPath library and its regex engine (the shipped pack's queries
# run in packs.jsonpath), the .gitignore matcher of `exclude` patterns (no settings name any), the writer of
# `--output` files, the amounts of resources (decimal: 4 ms).
NOT_FOR_ONE_CHECK = (
    "jq", "wmaplint.jq.runtime", "wmaplint.resolve.tree", "wmaplint.resolve.run", "wmaplint.lsp", "pygls",
    "jsonschema", "concurrent", "multiprocessing", "jsonpath_rfc9535", "regex",
    "wmaplint.report.sarif", "wmaplint.report.json", "wmaplint.suites.suite", "wmaplint.suites.runner",
    "wmaplint.report.suites", "wmaplint.fixes", "lark", "pathspec",
    "wmaplint.writes", "tempfile", "decimal", "wmaplint.resolve.quantities",
)


def imported(*args: str, cwd: Path, env: dict[str, str] | None = None) -> set[str]:
    """Modules loaded by the time ``wmaplint ARGS`` exits, in a fresh interpreter."""
    listing = cwd / "modules.txt"
    script = (
        "import atexit, runpy, sys\n"
        f"atexit.register(lambda: open({str(listing)!r}, 'w').write('\\n'.join(sorted(sys.modules))))\n"
        f"sys.argv = ['wmaplint', *{list(args)!r}]\n"
        "runpy.run_module('wmaplint', run_name='__main__')\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd, env=env)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return set(listing.read_text().split())


def _under(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


def test_a_one_file_check_imports_only_what_checking_needs(tmp_path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(JOB)
    # The first run in an empty cache validates the shipped pack once (jsonschema); the user cache keeps that.
    env = {**os.environ, "WMAPLINT_CACHE_DIR": str(tmp_path / "cache")}
    imported("check", str(path), cwd=tmp_path, env=env)
    modules = imported("check", str(path), cwd=tmp_path, env=env)
    assert "wmaplint.rules.placement" in modules and "wmaplint.report.text" in modules
    assert {p: _under(modules, p) for p in NOT_FOR_ONE_CHECK if _under(modules, p)} == {}


def test_a_second_check_needs_no_cel_type_checker_when_no_rule_applies(tmp_path) -> None:
    # The shipped pack's compiled CEL is remembered in the user cache after the first run, and the Karta CRD's
    # own rules apply only to componentTypeSelectors, which this Job definition has none of.
    path = tmp_path / "job.yaml"
    path.write_text(JOB)
    env = {**os.environ, "WMAPLINT_CACHE_DIR": str(tmp_path / "cache")}
    first = imported("check", str(path), cwd=tmp_path, env=env)
    again = imported("check", str(path), cwd=tmp_path, env=env)
    assert "wmaplint.cel.checker" in first and "wmaplint.cel.interpret" in again
    assert _under(again, "wmaplint.cel.checker") == [] and _under(again, "wmaplint.cel.ast") == []


# The CEL runtime and the Kubernetes library built on it: only expressions the Python evaluator leaves to them
# need them, and neither the shipped pack nor the Karta CRD's rules do on the catalog.
CEL_RUNTIME = ("cel_expr_python", "wmaplint.cel.env", "wmaplint.cel.library")


def test_checking_catalog_definitions_needs_no_cel_runtime(tmp_path) -> None:
    catalog = Path(__file__).resolve().parents[2] / "catalog"
    definitions = sorted(str(p) for p in catalog.glob("*.yaml"))
    env = {**os.environ, "WMAPLINT_CACHE_DIR": str(tmp_path / "cache")}
    first = imported("check", definitions[0], cwd=tmp_path, env=env)
    assert "cel_expr_python" in first  # compiling the shipped pack the first time needs it
    one = imported("check", str(catalog / "agents-x-k8s-io-sandbox-v1beta1.yaml"), cwd=tmp_path, env=env)
    every = imported("check", "--jobs", "1", *definitions, cwd=tmp_path, env=env)
    for modules in (one, every):
        assert "wmaplint.cel.interpret" in modules
        assert {p: _under(modules, p) for p in CEL_RUNTIME if _under(modules, p)} == {}


def test_the_karta_crd_rules_are_decided_without_cel(tmp_path) -> None:
    # The CRD's two rules on componentTypeSelectors are what WM510 and WM511 check: a definition with
    # selectors is checked without loading CEL at all (the best-practice pack, which needs it, is left out).
    path = tmp_path / "jobset.yaml"
    path.write_text((Path(__file__).resolve().parents[2] / "catalog" / "jobset-x-k8s-io-jobset-v1alpha2.yaml")
                    .read_text())
    env = {**os.environ, "WMAPLINT_CACHE_DIR": str(tmp_path / "cache")}
    imported("check", str(path), cwd=tmp_path, env=env)  # the first run compiles the shipped pack once
    modules = imported("check", "--ignore", "KBP", str(path), cwd=tmp_path, env=env)
    assert "wmaplint.cel.karta_crd" in modules
    cel = ("cel_expr_python", "wmaplint.cel.env", "wmaplint.cel.library", "wmaplint.cel.checker")
    assert [m for p in cel for m in _under(modules, p)] == []


def test_tree_imports_the_runtime_but_not_the_checks_or_the_server(tmp_path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template: {spec: {}}\n")
    modules = imported("tree", str(path), cwd=tmp_path)
    assert "wmaplint.jq.runtime" in modules
    assert _under(modules, "wmaplint.lsp") == [] and _under(modules, "wmaplint.rules.placement") == []
