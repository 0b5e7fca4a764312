"""`wmaplint catalog`: the shipped definitions, listed or shown one at a time (click commands only)."""

from __future__ import annotations

import json
import sys

import click

from wmaplint import rules as _rules  # noqa: F401  # installs the wording of the findings this command reports
from wmaplint.catalog import CatalogEntry, find_entries, list_catalog, markdown_table


def _fail(message: str) -> None:
    click.echo(f"wmaplint: {message}", err=True)
    sys.exit(2)


COMPONENTS_WIDTH = 50


def _components(entry: CatalogEntry) -> str:
    """Component names (pod-bearing ones marked *, multi-instance ones []), cut to fit the column."""
    names = [
        f"{c.name}{'[]' if c.multi_instance else ''}{'*' if c.pod_bearing else ''}" for c in entry.components
    ]
    shown = ", ".join(names)
    for keep in range(len(names) - 1, 0, -1):
        if len(shown) <= COMPONENTS_WIDTH:
            break
        shown = ", ".join(names[:keep]) + f", +{len(names) - keep} more"
    return shown


def _table(entries: list[CatalogEntry]) -> str:
    rows = [("KIND", "FILE", "COMPONENTS", "STATUS KEYS")]
    rows += [(e.gvk, e.path.name, _components(e), ", ".join(e.status_keys)) for e in entries]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row[:3], widths, strict=True)) + "  " + row[3]
        for row in rows
    ]
    lines.append(
        f"{len(entries)} definitions; * pod-bearing component, [] one instance per entry of a list or map. "
        "`wmaplint catalog show KIND` prints one."
    )
    return "\n".join(lines)


@click.group("catalog", invoke_without_command=True)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    show_default=True,
    help="markdown: the table README.md shows.",
)
@click.pass_context
def catalog(ctx: click.Context, output_format: str) -> None:
    """List the shipped workload definitions: kind, file, components and status keys."""
    ctx.obj = output_format
    if ctx.invoked_subcommand is not None:
        return
    entries = list_catalog()
    if output_format == "json":
        click.echo(json.dumps({"definitions": [e.as_json() for e in entries]}, indent=2))
    elif output_format == "markdown":
        click.echo(markdown_table(entries), nl=False)
    else:
        click.echo(_table(entries))


@catalog.command("show")
@click.argument("kind")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default=None,
              help="text: the definition file as shipped; json: its entry and the definition as data.")
@click.pass_context
def show(ctx: click.Context, kind: str, output_format: str | None) -> None:
    """Print the shipped definition of KIND: a kind (`MPIJob`), `group/version/Kind`
    (`kubeflow.org/v2beta1/MPIJob`), `Kind.group`, or a definition name."""
    output_format = output_format or ("json" if ctx.obj == "json" else "text")
    entries = list_catalog()
    found = find_entries(kind, entries)
    if not found:
        _fail(f"no shipped definition for {kind!r} (see `wmaplint catalog`)")
    if len(found) > 1:
        choices = ", ".join(f"{e.group}/{e.version}/{e.kind}".lstrip("/") for e in found)
        _fail(f"{len(found)} shipped definitions describe {kind!r}: {choices}; name one of them")
    entry = found[0]
    text = entry.path.read_text(encoding="utf-8")
    if output_format == "json":
        import yaml

        data = entry.as_json()
        data["definition"] = yaml.safe_load(text)
        click.echo(json.dumps(data, indent=2))
    else:
        click.echo(text, nl=not text.endswith("\n"))
