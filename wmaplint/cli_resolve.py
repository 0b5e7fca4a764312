"""`wmaplint tree` and `wmaplint test`: click commands only (the work is in wmaplint.resolve and
wmaplint.suites; the output is made in wmaplint.report)."""

from __future__ import annotations

import sys

import click

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
    help="CRD file or directory to validate manifests against (before WMAPLINT_SCHEMA_PATH); repeatable.",
)


@click.command("tree")
@click.argument("manifests", nargs=-1, required=True)
@click.option(
    "--definition",
    "definitions",
    multiple=True,
    metavar="FILE",
    help="Definition (Karta) file to use; repeatable. Without it the shipped catalog is used.",
)
@click.option("--pods", "pods", metavar="FILE",
              help="What `kubectl get pods -o json` lists (JSON or YAML): compared with the tree.")
@click.option(
    "--with",
    "with_files",
    multiple=True,
    metavar="FILE",
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
    """Resolve workload MANIFESTS (YAML or JSON, multi-document, `-` for stdin) into workload trees:
    components, instances, replicas, pods, GPUs, status and gangs."""
    from wmaplint.report.lines import diagnostic_brief, render_lines
    from wmaplint.report.workloads import render_dot, render_json, render_text
    from wmaplint.resolve.run import resolve_files
    from wmaplint.source import InputError

    try:
        run = resolve_files(list(manifests), list(definitions), pods, with_paths=with_files, crds=list(crds))
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
        if not run.has_errors:
            _fail(f"nothing could be resolved ({reason})")
        # The findings printed above say why, with positions: that is exit 1, not a usage error.
        click.echo(f"wmaplint: nothing could be resolved ({reason})", err=True)
    sys.exit(EXIT_FINDINGS if run.has_errors else EXIT_OK)


@click.command("test")
@click.argument("paths", nargs=-1)
@click.option("--update", is_flag=True, help="Write the current results into the suites as expectations.")
@click.option("--junit", "junit", metavar="FILE", help="Also write a JUnit XML report.")
@_CRDS
def test(paths: tuple[str, ...], update: bool, junit: str | None, crds: tuple[str, ...]) -> None:
    """Run definition test suites (*.test.yaml; default: the catalog's tests/ directory). Each case's
    manifest is also validated against its CRD; schema findings (manifest-schema-violation,
    crd-rule-violation) count as case findings."""
    from wmaplint.report.lines import render_lines
    from wmaplint.report.suites import render_results, write_junit
    from wmaplint.suites.runner import discover_suites, run_suites, skipped_schema_sources, suite_diagnostics

    suites = discover_suites(list(paths))
    if not suites:
        _fail("no test suites found (*.test.yaml)")
    results = run_suites(suites, update=update, crds=crds)
    click.echo(render_results(results), nl=False)
    found = [d for result in results for d in suite_diagnostics(result)]
    if any(r.cases for r in results):
        found.extend(skipped_schema_sources(crds))
    click.echo(render_lines(found), err=True, nl=False)
    if junit:
        try:
            write_junit(results, junit)
        except OSError as exc:
            _fail(f"{junit}: cannot write JUnit report ({exc.strerror or exc})")
    if any(r.error for r in results) and not any(r.cases for r in results):
        sys.exit(EXIT_USAGE)
    sys.exit(EXIT_FINDINGS if any(not r.passed for r in results) else EXIT_OK)
