"""`wmaplint tree` and `wmaplint test`: click commands only (the work is in wmaplint.resolve and
wmaplint.suites; the output is made in wmaplint.report)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import click
from click.decorators import FC

from wmaplint import rules as _rules  # noqa: F401  # installs the wording of the findings this command reports
from wmaplint.path_options import readable, writable

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _fail(message: str) -> None:
    click.echo(f"wmaplint: {message}", err=True)
    sys.exit(EXIT_USAGE)


def _files(flag: str, name: str, help: str) -> Callable[[FC], FC]:
    """A repeatable option naming files, each refused at parse time where it cannot be read."""
    return click.option(flag, name, multiple=True, metavar="FILE", callback=readable("file"), help=help)


# the option of both commands that validate manifests
_CRDS = click.option(
    "--crds",
    "crds",
    multiple=True,
    metavar="PATH",
    callback=readable("file or directory"),
    help="CRD file or directory to validate manifests against (before WMAPLINT_SCHEMA_PATH); repeatable.",
)


@click.command("tree")
@click.argument("manifests", nargs=-1, required=True)
@_files("--definition", "definitions",
        "Definition (Karta) file to use; repeatable. It must describe the group and kind of one of the "
        "manifests; the shipped catalog serves the kinds no such file describes.")
@click.option("--pods", "pods", metavar="FILE", callback=readable("file"),
              help="What `kubectl get pods -o json` lists (JSON or YAML): compared with the tree.")
@_files("--with", "with_files",
        "Objects the workloads name, such as a TrainJob's (Cluster)TrainingRuntime; repeatable. Such "
        "objects among the manifests are used the same way.")
@_CRDS
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json", "dot"]), default="text", show_default=True
)
@click.option("--fail-level", type=click.Choice(["error", "warning", "info"]), default="error",
              show_default=True, help="Lowest severity that fails, as for `check`; with --pods a pod list "
              "that differs from the tree fails too.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Processes to use: with more than one, the manifests are validated against their schemas "
              "beside the resolution; 0 chooses from the CPUs and the number of documents.")
def tree(
    manifests: tuple[str, ...],
    definitions: tuple[str, ...],
    pods: str | None,
    with_files: tuple[str, ...],
    crds: tuple[str, ...],
    output_format: str,
    fail_level: str,
    jobs: int,
) -> None:
    """Resolve workload MANIFESTS (files or directories, YAML or JSON, multi-document, `-` for stdin; what
    `kubectl get -o yaml|json` prints, a List, a `-w` stream or watch events included) into workload trees:
    components, instances, replicas, pods, GPUs, status and gangs. A Pod no controller owns is a workload
    of the Pod definition; Pods a controller owns are attributed to the workloads. Exit 1 when a finding
    reaches --fail-level or, with --pods, when the listed pods differ from the tree; 2 when nothing could be
    read or resolved."""
    from wmaplint.config import ConfigError
    from wmaplint.diagnostics import Severity
    from wmaplint.report.lines import diagnostic_brief, render_lines
    from wmaplint.report.workloads import render_dot, render_json, render_text
    from wmaplint.resolve.run import resolve_files
    from wmaplint.selection import manifest_files
    from wmaplint.source import InputError

    try:
        files = manifest_files(list(manifests), _excluded_by_configuration(manifests))
        run = resolve_files(files, list(definitions), pods, with_paths=with_files, crds=list(crds),
                            definitions_must_fit=True, jobs=jobs)
    except ConfigError as exc:
        _fail(str(exc))
        return
    except InputError as exc:
        _fail(str(exc))
        return
    except RecursionError:
        _fail("input nesting is too deep to read")
        return
    if output_format == "json":
        diagnostics = sorted(run.diagnostics, key=lambda d: d.sort_key())
        click.echo(render_json(run.workloads, {"diagnostics": [diagnostic_brief(d) for d in diagnostics]}),
                   nl=False)
        click.echo()
    else:
        shown = render_dot(run.workloads) if output_format == "dot" else render_text(run.workloads)
        click.echo(shown, nl=False)
        click.echo(render_lines(run.diagnostics), err=True, nl=False)
    if not run.workloads:
        reason = "; ".join(run.notes) if run.notes else "no workload manifest found"
        if run.has_errors:
            # The findings printed above say why, with positions: that is exit 1, not a usage error.
            click.echo(f"wmaplint: nothing could be resolved ({reason})", err=True)
        elif run.unresolved:
            _fail(f"nothing could be resolved ({reason})")
        else:
            # files with no workload in them (a training runtime, config) are an empty result, as for kubectl
            click.echo(f"wmaplint: no workload to resolve ({reason})", err=True)
    level = Severity.parse(fail_level)
    failing = any(d.severity >= level for d in run.diagnostics)
    differs = pods is not None and any(w.comparison is not None and not w.comparison.agrees
                                       for w in run.workloads)
    sys.exit(EXIT_FINDINGS if failing or differs else EXIT_OK)


def _excluded_by_configuration(paths: tuple[str, ...]) -> Callable[[str, bool], bool]:
    """What `exclude:` of the configuration leaves out of the walk of a directory named, found and read as
    `check` finds it for each file (wmaplint.config); ConfigError when a configuration cannot be used."""
    from pathlib import Path

    from wmaplint.config import find_config

    named = [os.path.abspath(p) for p in paths if p != "-" and os.path.isdir(p)]
    for directory in named:  # read before the walk, so that a configuration that cannot be used says so
        find_config(directory, directory)

    def excluded(path: str, directory: bool) -> bool:
        folder = os.path.dirname(os.path.abspath(path))
        above = [d for d in named if folder == d or folder.startswith(d.rstrip(os.sep) + os.sep)]
        return find_config(folder, min(above, key=len) if above else None).excluded(Path(path), directory)

    return excluded


@click.command("test")
@click.argument("paths", nargs=-1)
@click.option("--update", is_flag=True, help="Write the current results into the suites as expectations.")
@click.option("--junit", "junit", metavar="FILE", callback=writable, help="Also write a JUnit XML report.")
@_files("--definition", "definitions",
        "Definition file to replay recordings with (those without their own `definition:`), found by the "
        "recorded object's group and kind before the shipped catalog; repeatable.")
@_CRDS
def test(
    paths: tuple[str, ...],
    update: bool,
    junit: str | None,
    definitions: tuple[str, ...],
    crds: tuple[str, ...],
) -> None:
    """Run definition test suites (*.test.yaml) and recordings of workload states (YAML with `events:`; each
    STATE event passes when its recorded state is among the statuses the definition matches); default:
    catalog/tests/ of the working directory. Each suite case's manifest is also validated against its CRD;
    schema findings (manifest-schema-violation, crd-rule-violation) count as case findings."""
    from wmaplint.report.lines import render_lines
    from wmaplint.report.suites import junit_target, render_results, write_junit
    from wmaplint.suites.runner import (
        DEFAULT_SUITES,
        discover_suites,
        recording_index,
        run_suites,
        skipped_schema_sources,
    )
    from wmaplint.suites.suite import SuiteError
    from wmaplint.writes import WriteError

    try:
        index = recording_index(definitions)
    except SuiteError as exc:
        _fail(f"--definition {exc}")
        return
    try:
        suites = discover_suites(list(paths))
    except SuiteError as exc:
        _fail(str(exc))
    if not suites and not paths:
        _fail(f"no test suites found: the default is {DEFAULT_SUITES}/ of the working directory, which has "
              "none; name suite files, recordings or directories")
    if not suites:
        _fail("no test suites found (*.test.yaml)")
    try:  # refused before any suite runs or is updated, as --output is
        report = junit_target(junit, list(map(str, suites)), [*definitions, *crds]) if junit else None
    except WriteError as exc:
        _fail(str(exc))
    used: set[str] = set()
    results = run_suites(suites, update=update, crds=crds, index=index, used=used)
    # each failure is in the report once; the schema sources validation could not use are said beside it
    click.echo(render_results(results), nl=False)
    if any(r.cases for r in results):
        click.echo(render_lines(skipped_schema_sources(crds)), err=True, nl=False)
    for result in results:
        if result.not_updated:
            click.echo(f"wmaplint: {result.not_updated}", err=True)
    if report is not None:
        try:
            write_junit(results, report)
        except WriteError as exc:
            _fail(str(exc))
    unused = [path for path in definitions if path not in used]
    if unused:
        # a definition given for the run that no recorded object is of: never a silent fallback to another
        _fail(f"--definition {unused[0]} describes no kind of the recordings run (they used "
              f"{', '.join(sorted(used)) or 'none of the files given'})")
    unusable = any(r.error for r in results) and not any(r.cases for r in results)
    if unusable or any(r.not_updated for r in results):
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_FINDINGS if any(not r.passed for r in results) else EXIT_OK)


@click.command("record")
@click.argument("streams", nargs=-1)
@_files("--definition", "definitions",
        "Definition to judge the states with, found by the object's group and kind before the shipped "
        "catalog; repeatable. The recording names it (`definition:`), so that `test` replays it with the "
        "same.")
@click.option("-o", "--output", "output", metavar="FILE", callback=writable,
              help="Write the recording to FILE (default: standard output).")
@click.option("--force", is_flag=True, help="With --output, replace a file that exists.")
@click.option("--flow", metavar="NAME",
              help="The flow recorded (default: the name of --output without .yaml, else `recorded`).")
@click.option("--operator", metavar="NAME", help="The operator recorded (default: the object's API group).")
def record(streams: tuple[str, ...], definitions: tuple[str, ...], output: str | None, force: bool,
           flow: str | None, operator: str | None) -> None:
    """Make a recording of workload states from what kubectl printed while one workload ran: STREAMS (files,
    `-` for standard input, the default) of `kubectl get KIND NAME -w -o json` (with or without
    --output-watch-events), or of several `kubectl get -o yaml`. One STATE event per distinct resourceVersion,
    with the state the definition judges; review the states, commit the file, and `wmaplint test` replays it.
    Exit 0 when written, 1 when written with findings of an error, 2 when nothing could be recorded."""
    from wmaplint.diagnostics import Severity
    from wmaplint.jq.runtime import default_runtime
    from wmaplint.recorder import RecordError, read_inputs, render
    from wmaplint.recorder import record as make_recording
    from wmaplint.report.lines import render_lines
    from wmaplint.source import InputError
    from wmaplint.suites.runner import recording_index
    from wmaplint.suites.suite import SuiteError
    from wmaplint.writes import WriteError, output_target, refuse_inputs, write_target

    paths = list(streams) or ["-"]
    output = None if output == "-" else output
    if paths.count("-") > 1:
        _fail("standard input (`-`) can be read once")
    target = None
    if output is not None:
        if os.path.lexists(output) and not force:
            _fail(f"{output} exists; give --force to replace it")
        try:
            target = output_target(output, shown=f"--output {output}", follow_symlinks=False, link_hint="")
            refuse_inputs(target, [*paths, *definitions])
        except WriteError as exc:
            _fail(str(exc))
    try:
        index = recording_index(definitions)
        objects, problems, notes = read_inputs(paths)
    except SuiteError as exc:
        _fail(f"--definition {exc}")
        return
    except (InputError, RecordError) as exc:
        _fail(str(exc))
        return
    except RecursionError:
        _fail("input nesting is too deep to read")
        return
    for note in notes:
        click.echo(f"wmaplint: {note}", err=True)
    if problems:  # a recording of part of what was watched would pass for the whole
        click.echo(render_lines(problems), err=True, nl=False)
        _fail("nothing recorded: the input could not be read whole")
    try:
        made = make_recording(objects, index, default_runtime(), flow=flow or _flow_name(output),
                              operator=operator)
    except RecordError as exc:
        _fail(str(exc))
        return
    if made.definition in definitions:
        # the recording names the file given, relative to itself, so that `test` replays it with the same
        where = os.path.dirname(os.path.abspath(output)) if output is not None else os.getcwd()
        made.data["definition"] = os.path.relpath(os.path.abspath(made.definition), where)
    text = render(made)
    if target is not None:
        try:
            write_target(target, text.encode("utf-8"))
        except WriteError as exc:
            _fail(str(exc))
    else:
        click.echo(text, nl=False)
    click.echo(render_lines(made.diagnostics), err=True, nl=False)
    shown = output if output is not None else "standard output"
    click.echo(f"wmaplint: recorded {len(made.states)} states to {shown} ({_runs(made.states)}), judged by "
               f"{made.data['kartaName']}; review them before committing", err=True)
    sys.exit(EXIT_FINDINGS if any(d.severity >= Severity.ERROR for d in made.diagnostics) else EXIT_OK)


def _flow_name(output: str | None) -> str:
    if output is None:
        return "recorded"
    name = os.path.basename(output)
    return name.removesuffix(".yaml").removesuffix(".yml") or "recorded"


def _runs(states: list[str]) -> str:
    """The states in order, a run of one written once with its count: Suspended x3, Running."""
    runs: list[list[Any]] = []
    for state in states:
        if runs and runs[-1][0] == state:
            runs[-1][1] += 1
        else:
            runs.append([state, 1])
    return ", ".join(f"{state} x{count}" if count > 1 else state for state, count in runs)
