"""`wmaplint new`: click command only (the work is in wmaplint.draft)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import click

from wmaplint import rules as _rules  # noqa: F401  # installs the wording of the findings this command reports
from wmaplint.path_options import readable

if TYPE_CHECKING:
    from wmaplint.controllers import Model

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _fail(message: str) -> None:
    click.echo(f"wmaplint: {message}", err=True)
    sys.exit(EXIT_USAGE)


@click.command("new")
@click.option("--crd", "crd", metavar="FILE", callback=readable("file"),
              help="The CRD (YAML, or an OpenAPI v3 JSON document) to draft from.")
@click.option("--kind", "kind", metavar="KIND",
              help="The kind to draft: Kind, Kind.group or group/version/Kind. Without --crd, a kind the "
              "schema store serves (`wmaplint schemas list`), such as Job or Deployment.")
@click.option("--version", "version", metavar="VERSION", help="The version, when several are served.")
@click.option("--manifest", "manifest", metavar="FILE", callback=readable("file"),
              help="A manifest of the kind: the draft is resolved against it and its tree printed.")
@click.option("--output", "output", metavar="FILE",
              help="Write the draft to FILE (default: standard output).")
@click.option("--force", is_flag=True, help="With --output, replace a file that exists.")
@click.option("--crds", "crds", multiple=True, metavar="PATH", callback=readable("file or directory"),
              help="Schema sources searched before the others for --kind and --manifest; repeatable.")
@click.option("--config", "config_file", type=click.Path(), callback=readable("file"),
              help="Configuration file to use (controllers, pod-labels).")
def new(crd: str | None, kind: str | None, version: str | None, manifest: str | None, output: str | None,
        force: bool, crds: tuple[str, ...], config_file: str | None) -> None:
    """Draft a definition of a workload kind from its CRD: components, scale, spec, status, selectors,
    suspend and gang instructions. Every guess is marked in a comment; `check --strict` finds no error in
    it."""
    from wmaplint.config import ConfigError, find_config, load_config_file
    from wmaplint.controllers import ModelError
    from wmaplint.controllers.project import project_model
    from wmaplint.draft.compose import draft
    from wmaplint.draft.target import DraftError, from_crd_file, from_store

    if crd is None and kind is None:
        _fail("give the CRD to draft from (--crd FILE) or a kind the schema store serves (--kind KIND)")
    if output is not None and os.path.lexists(output) and not force:
        _fail(f"{output} exists; give --force to replace it")
    try:
        config = load_config_file(config_file) if config_file else find_config(os.getcwd())
        model = project_model(config)
        if crd is not None:
            target = from_crd_file(crd, kind, version)
        else:
            target = from_store(kind or "", version, crds)
        made = draft(target, model)
    except (ConfigError, ModelError, DraftError) as exc:
        _fail(str(exc))
        return
    except RecursionError:
        _fail("the schema is nested too deeply to draft from")
        return
    if output is not None:
        from wmaplint.cli import _write_output

        _write_output(output, made.text)
        click.echo(f"wrote {output}: definition {made.name} ({', '.join(made.components)})", err=True)
    else:
        click.echo(made.text, nl=False)
    if manifest is not None:
        sys.exit(_show_tree(made.text, made.name, output, manifest, crds, model))


def _show_tree(text: str, name: str, output: str | None, manifest: str, crds: tuple[str, ...],
               model: Model) -> int:
    """Resolve ``manifest`` with the draft as `wmaplint tree --definition` does and print the tree: on
    standard output when the draft went to a file, else on standard error beside it."""
    from wmaplint.report.lines import render_lines
    from wmaplint.report.workloads import render_text
    from wmaplint.resolve.run import resolve_files
    from wmaplint.source import InputError

    to_stderr = output is None
    with tempfile.TemporaryDirectory(prefix="wmaplint-new-") as scratch:
        definition = output if output is not None else str(Path(scratch) / "draft.yaml")
        if output is None:
            Path(definition).write_text(text, encoding="utf-8")
        try:
            run = resolve_files([manifest], [definition], crds=list(crds), model=model)
        except InputError as exc:
            _fail(str(exc))
            return EXIT_USAGE
        except RecursionError:
            _fail("input nesting is too deep to read")
            return EXIT_USAGE
        shown = output if output is not None else "<draft>"
        for diagnostic in run.diagnostics:
            if diagnostic.path == definition:
                diagnostic.path = shown
    drafted = [w for w in run.workloads if w.definition_name == name]
    if not drafted:
        reason = "; ".join(run.notes) if run.notes else f"{manifest} holds no object of the drafted kind"
        _fail(f"nothing was resolved with the draft ({reason})")
    click.echo(render_text(drafted), nl=False, err=to_stderr)
    click.echo(render_lines(run.diagnostics), err=True, nl=False)
    return EXIT_FINDINGS if run.has_errors else EXIT_OK
