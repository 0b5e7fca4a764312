"""`wmaplint tree` and `wmaplint test`: click commands only (the work is in wmaplint.resolve and
wmaplint.suites; the output is made in wmaplint.report)."""

from __future__ import annotations

import sys

import click

from wmaplint import rules as _rules  # noqa: F401  # installs the wording of the facts this command reports
from wmaplint.path_options import readable, writable

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _fail(message: str) -> None:
    click.echo(f"wmaplint: {message}", err=True)
    sys.exit(EXIT_USAGE)


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
@click.option(
    "--definition",
    "definitions",
    multiple=True,
    metavar="FILE",
    callback=readable("file"),
    help="Definition (Karta) file to use; repeatable. It must describe the group and kind of one of the "
    "manifests; the shipped catalog serves the kinds no such file describes.",
)
@click.option("--pods", "pods", metavar="FILE", callback=readable("file"),
              help="What `kubectl get pods -o json` lists (JSON or YAML): compared with the tree.")
@click.option(
    "--with",
    "with_files",
    multiple=True,
    metavar="FILE",
    callback=readable("file"),
    help="Objects the workloads name, such as a TrainJob's (Cluster)TrainingRuntime; repeatable. Such "
    "objects among the manifests are used the same way.",
)
@_CRDS
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json", "dot"]), default="text", show_default=True
)
def tree(
    manifests: tuple[str, ...],
    definitions: tuple[str, ...],
    pods: str | None,
    with_files: tuple[str, ...],
    crds: tuple[str, ...],
    output_format: str,
) -> None:
    """Resolve workload MANIFESTS (files or directories, YAML or JSON, multi-document, `-` for stdin) into
    workload trees:
    components, instances, replicas, pods, GPUs, status and gangs. A Pod no controller owns is a workload
    of the Pod definition; Pods a controller owns are attributed to the workloads."""
    from wmaplint.report.lines import diagnostic_brief, render_lines
    from wmaplint.report.workloads import render_dot, render_json, render_text
    from wmaplint.resolve.run import resolve_files
    from wmaplint.selection import manifest_files
    from wmaplint.source import InputError

    try:
        run = resolve_files(manifest_files(list(manifests)), list(definitions), pods, with_paths=with_files,
                            crds=list(crds), definitions_must_fit=True)
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
    sys.exit(EXIT_FINDINGS if run.has_errors else EXIT_OK)


@click.command("test")
@click.argument("paths", nargs=-1)
@click.option("--update", is_flag=True, help="Write the current results into the suites as expectations.")
@click.option("--junit", "junit", metavar="FILE", callback=writable, help="Also write a JUnit XML report.")
@click.option(
    "--definition",
    "definitions",
    multiple=True,
    metavar="FILE",
    callback=readable("file"),
    help="Definition file to replay recordings with (those without their own `definition:`), found by the "
    "recorded object's group and kind before the shipped catalog; repeatable.",
)
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
