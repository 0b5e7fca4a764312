"""A rule's documented examples run as a user runs them: the example written to a file of its own in an empty
folder, on a fresh machine (an empty home and user cache, no schema path from the environment), and the
command that shows the rule run through the command line itself. What it prints is what docs/rules.md shows
under the example (``wmaplint.rule_docs``), and the rules it names are what the tests hold the example to.

A rule's ``example_mode`` names the command: ``check`` a definition or CRD, ``tree`` a file of definitions,
manifests and pods, ``test`` a definition test suite; ``definition-file`` passes the example with
``--definition`` to resolve a JobSet beside it, ``schema-source`` passes it with ``--crds`` to check the Job
definition beside it, and ``crd-object`` resolves the object after the CRD with the CRD as its schema.
"""

from __future__ import annotations

import os
import re
import shlex
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from wmaplint import memo
from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import Rule
from wmaplint.rules.examples import JOB, JOBSET_MANIFEST

# Each mode's command line, the example's file where {file} stands, and the files written beside it.
COMMANDS: dict[str, str] = {
    "check": "wmaplint check {file}",
    "tree": "wmaplint tree {file}",
    "test": "wmaplint test {file}",
    "definition-file": "wmaplint tree --definition {file} jobset.yaml",
    "schema-source": "wmaplint check --crds {file} job.yaml",
    "crd-object": "wmaplint tree {file} --crds {file}",
}
BESIDE: dict[str, dict[str, str]] = {
    "definition-file": {"jobset.yaml": JOBSET_MANIFEST.removeprefix("---\n")},
    "schema-source": {"job.yaml": JOB},
}
# What the files beside the example are, for a reader of the command
BESIDE_SAID: dict[str, str] = {
    "definition-file": "jobset.yaml is a JobSet",
    "schema-source": "job.yaml is the Job definition of the examples",
}

# The rule of a finding as each output prints it: `[WMnnn rule-name]` (check), `error WMnnn ...`
# (the lines of tree and test)
_NAMED = re.compile(r"\[(WM\d{3}) [a-z0-9-]+\]|: (?:error|warning|info) (WM\d{3}) ")


@dataclass(frozen=True)
class Printed:
    """What an example's command prints: ``command`` as typed in the example's folder, ``output`` as a
    terminal shows it (standard output and error as written), ``beside`` what the other files are; ``rules``,
    the rules of its findings."""

    command: str
    output: str
    rules: frozenset[str]
    beside: str = ""


def run_example(rule: Rule, text: str) -> Printed:
    """What the command of ``rule``'s examples prints for ``text`` (its failing or passing example)."""
    from click.testing import CliRunner

    from wmaplint.cli import main

    command = COMMANDS[rule.example_mode].format(file=rule.example_filename)
    with fresh_machine() as env, _folder({rule.example_filename: text, **BESIDE.get(rule.example_mode, {})}):
        memo.reset_all(keep_pure=True)  # a run of its own: nothing an earlier one computed is there
        result = CliRunner(env=env).invoke(main, shlex.split(command)[1:])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        found = {a or b for a, b in _NAMED.findall(result.output)}
        if rule.example_mode == "test":  # `test` prints a failing case, not the rule that words it
            found |= _suite_rules(rule.example_filename)
    return Printed(command, result.output, frozenset(found), BESIDE_SAID.get(rule.example_mode, ""))


def _suite_rules(path: str) -> set[str]:
    """The rules of the findings of the suite at ``path`` (what `test` reports as failing cases)."""
    from wmaplint.suites.runner import discover_suites, run_suites, suite_diagnostics

    memo.reset_all(keep_pure=True)
    return {d.rule for result in run_suites(discover_suites([path])) for d in suite_diagnostics(result)}


def run_examples(rule: Rule) -> tuple[Printed, Printed]:
    """What the failing and the passing example print."""
    return run_example(rule, rule.bad), run_example(rule, rule.good)


@contextmanager
def fresh_machine() -> Iterator[Mapping[str, str | None]]:
    """The environment of a fresh machine, for a command run in this process: an empty home and user
    cache, no schema path or cache directory from the environment; the folders are removed after."""
    with tempfile.TemporaryDirectory(prefix="wmaplint-example-home-") as home:
        yield {"HOME": home, "XDG_CACHE_HOME": os.path.join(home, ".cache"), "WMAPLINT_SCHEMA_PATH": None,
               "WMAPLINT_CACHE_DIR": None, "NO_COLOR": "1"}


@contextmanager
def _folder(files: Mapping[str, str]) -> Iterator[None]:
    """An empty folder holding ``files`` (name -> text), the working directory while it stands."""
    before = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="wmaplint-example-") as folder:
        for name, text in files.items():
            with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
                handle.write(text)
        os.chdir(folder)
        try:
            yield
        finally:
            os.chdir(before)
