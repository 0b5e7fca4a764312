"""Command line: parse flags, call the engine, pick a reporter, set the exit code. Nothing else lives here."""

from __future__ import annotations

import gc
import importlib
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from wmaplint import __version__

# Subcommands load their module only when used, so `wmaplint --version` and `check` stay light.
LAZY_COMMANDS = {
    "tree": "wmaplint.cli_resolve:tree",
    "test": "wmaplint.cli_resolve:test",
    "record": "wmaplint.cli_resolve:record",
    "schemas": "wmaplint.schema.commands:schemas",
    "catalog": "wmaplint.cli_catalog:catalog",
    "lsp": "wmaplint.cli_lsp:lsp_command",
    "new": "wmaplint.cli_new:new",
}


_NO_ARGS_IS_HELP: type[Exception] = getattr(click.exceptions, "NoArgsIsHelpError", click.exceptions.Exit)


# Commands that keep running: the cyclic garbage collector stays on for them.
LONG_RUNNING = ("lsp",)


class LazyGroup(click.Group):
    def main(self, args: Any = None, *rest: Any, **kwargs: Any) -> Any:
        """Run the command; a usage error or output that cannot be written: one line on stderr, exit 2."""
        if args is None:
            # The process is this one command: its modules, schemas and node trees live to the end, and each
            # pass of the cyclic collector rescanned all of them, and once more at exit (a fifth of a check of
            # the catalog). Reference counting still frees; long checks collect every few files
            # (engine.COLLECT_EVERY), and long-running commands turn the collector back on.
            gc.disable()
        if sys.stdout is None:  # started with descriptor 1 closed: fail before doing any work
            click.echo("wmaplint: standard output is closed", err=True)
            sys.exit(2)
        try:
            try:
                result = self._main(args, *rest, **kwargs)
            finally:  # output still buffered must reach its destination before the exit code is decided
                sys.stdout.flush()
        except OSError as exc:
            _write_failed(exc)
        return result

    def _main(self, args: Any, *rest: Any, **kwargs: Any) -> Any:
        kwargs["standalone_mode"] = False
        try:
            return super().main(args, *rest, **kwargs)
        except _NO_ARGS_IS_HELP as exc:  # bare `wmaplint`: the help text, as click shows it
            show = getattr(exc, "show", None)  # older click raises a bare Exit after printing the help
            if show is not None:
                show()
            sys.exit(getattr(exc, "exit_code", 0))
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "wmaplint"
            click.echo(f"wmaplint: {exc.format_message()} (see `{where} --help`)", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"wmaplint: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("wmaplint: aborted", err=True)
            sys.exit(1)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LONG_RUNNING:
            gc.enable()
        if name in LAZY_COMMANDS:
            module_name, attr = LAZY_COMMANDS[name].split(":")
            try:
                command: click.Command = getattr(importlib.import_module(module_name), attr)
                return command
            except (ImportError, AttributeError) as exc:
                raise click.ClickException(f"the {name} command is not available: {exc}") from None
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="wmaplint", message="%(prog)s %(version)s")
def main() -> None:
    """Offline static analyzer for Kubernetes workload definitions (kind Karta)."""


def _write_failed(exc: OSError) -> NoReturn:
    """A write that failed (a full disk, a stream closed or broken under us): one line, exit 2.

    A broken pipe (``wmaplint ... | head``) never gets here: click ends those quietly."""
    try:  # later flushes, down to the interpreter's last one, must not fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    where = f"{exc.filename}: " if exc.filename else "cannot write the output: "
    try:
        click.echo(f"wmaplint: {where}{exc.strerror or exc}", err=True)
    except OSError:
        pass
    sys.exit(2)


def _fail(message: str) -> NoReturn:
    click.echo(f"wmaplint: {message}", err=True)
    sys.exit(2)


def common_schema_options(fn: Any) -> Any:
    from wmaplint.path_options import readable

    fn = click.option("--crds", "crds", multiple=True, type=click.Path(),
                      callback=readable("file or directory"),
                      help="CRD YAML or OpenAPI v3 JSON file or directory (repeatable).")(fn)
    fn = click.option("--strict", is_flag=True, help="Treat missing schemas as errors.")(fn)
    fn = click.option("--offline", is_flag=True, default=True, hidden=True,
                      help="Never touch the network (always true for check).")(fn)
    fn = click.option("--config", "config_file", type=click.Path(), callback=readable("file"),
                      help="Configuration file to use.")(fn)
    return fn


@main.command()
@click.argument("paths", nargs=-1)
@common_schema_options
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True)
@click.option("--select", multiple=True, help="Only these rules (ids, prefixes like WM3, or names); starts "
              "afresh, without the configuration's select and ignore (as ruff's --select).")
@click.option("--ignore", multiple=True, help="Skip these rules too: added to the configuration's ignore (as "
              "ruff's --ignore).")
@click.option("--fail-level", type=click.Choice(["error", "warning", "info"]), help="Lowest severity that "
              "fails.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Files checked in parallel; 0 chooses from the CPUs and the number of files.")
@click.option("--stdin-filename", default="<stdin>", help="Name shown for input read from '-'.")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: when a terminal).")
@click.option("--fix", is_flag=True, help="Apply safe fixes in place (atomic writes, comments kept).")
@click.option("--follow-symlinks", is_flag=True,
              help="With --fix and --output, write through symbolic links to their targets (default: leave "
              "links alone).")
@click.option("--verbose", "-v", is_flag=True, help="Say on stderr which files were skipped and why.")
@click.option("--force-exclude", is_flag=True,
              help="Skip named files in vendored directories or matched by `exclude`, as directory walks do "
              "(for hooks that pass every changed file); without it a named file is checked.")
@click.option("--output", "outputs", multiple=True, metavar="FORMAT=FILE",
              help="Also write the findings in FORMAT (text, json, sarif, github) to FILE; repeatable. One "
              "check feeds every output: --format github --output sarif=wmaplint.sarif.")
@click.option("--only-changed-lines", "diff_file", metavar="DIFF",
              help="Print, and fail on, only findings on lines that the unified diff in file DIFF adds or "
              "changes (from `git diff --unified=0 BASE HEAD`); --output files keep every finding.")
def check(paths: tuple[str, ...], crds: tuple[str, ...], strict: bool, offline: bool, config_file: str | None,
          fmt: str, select: tuple[str, ...], ignore: tuple[str, ...], fail_level: str | None, jobs: int,
          stdin_filename: str, color: bool | None, fix: bool, follow_symlinks: bool, verbose: bool,
          force_exclude: bool, outputs: tuple[str, ...], diff_file: str | None) -> None:
    """Check definitions (files or directories; '-' reads stdin).

    Positions in every output are 1-based lines and columns in UTF-16 code units; SARIF and GitHub
    annotation paths are relative to the root of the git work tree.
    """
    from wmaplint.config import ConfigError, Overrides, normalise_selector
    from wmaplint.diagnostics import Severity
    from wmaplint.engine import Options, exit_code, lint_paths

    if not paths:
        _fail("no paths given (try `wmaplint check catalog/` or `wmaplint check -`)")
    files = _output_files(outputs)
    named = [*paths, *crds, *(f for f in (config_file, diff_file) if f)]
    if files:  # the schema files the run reads are inputs too: below a --crds directory, on the schema path
        from wmaplint.schema.sources import schema_files

        named.extend(schema_files(crds))
    targets = _output_targets(files, named, follow_symlinks)
    changes = None
    if diff_file is not None:
        from wmaplint.changes import DiffError, read_diff

        try:
            changes = read_diff(diff_file)
        except DiffError as exc:
            _fail(str(exc))
    from wmaplint.rules import load_definition_rules

    load_definition_rules()  # the rest when a finding, a suppression or an option names a rule
    try:
        overrides = Overrides(
            select=tuple(normalise_selector(s, "--select") for s in _split(select)) or None,
            ignore=tuple(normalise_selector(s, "--ignore") for s in _split(ignore)) or None,
            fail_level=Severity.parse(fail_level) if fail_level else None,
            extra_crds=crds,
        )
        options = Options(overrides=overrides, config_file=config_file, strict=strict, jobs=jobs,
                          force_exclude=force_exclude)
        if config_file:
            options.config_for(config_file)
        stdin_text = None
        if "-" in paths:
            from wmaplint.source import InputError, decode_bytes, read_stdin

            try:
                stdin_text = decode_bytes(read_stdin(stdin_filename), stdin_filename)
            except InputError as exc:
                _fail(str(exc))
        report = lint_paths(paths, options, stdin_text=stdin_text, stdin_name=stdin_filename)
        if fix:
            from wmaplint.fixes import fix_to_fixed_point

            report, outcome = fix_to_fixed_point(
                report, lambda: lint_paths(paths, options, stdin_text=stdin_text, stdin_name=stdin_filename),
                follow_symlinks=follow_symlinks)
            if outcome.fixed:
                click.echo(f"fixed {outcome.fixed} finding(s)", err=True)
            report.errors.extend(outcome.errors)
        level = options.config_for(paths[0] if paths[0] != "-" else stdin_filename).fail_level
    except ConfigError as exc:
        _fail(str(exc))
    from wmaplint.report import render

    if verbose:
        from wmaplint.cachefiles import notes

        _explain_selection(report, paths, config_file)
        for note in notes:
            click.echo(f"wmaplint: {note}", err=True)
    for line in report.errors:
        click.echo(f"wmaplint: {line}", err=True)
    root = None
    if fmt in ("sarif", "github") or changes is not None or any(f in ("sarif", "github") for f, _ in files):
        from wmaplint.report.common import repository_root

        root = repository_root()
    _refuse_inputs(targets, [*report.sources, *(path for path, _ in report.skipped)])
    for file_format, target in targets:
        _write_output(target, render(report, file_format, root=root, tool_version=__version__))
    if changes is not None:
        from wmaplint.changes import on_changed_lines

        report = on_changed_lines(report, changes, root or Path.cwd())
    use_color = sys.stdout.isatty() and not os.environ.get("NO_COLOR") if color is None else color
    output = render(report, fmt, color=use_color, root=root, tool_version=__version__)
    if fmt == "text" and report.files_checked == 0 and not report.diagnostics:
        output = ""  # a repository without definitions is not worth a line (-v says so)
    if output:
        click.echo(output, nl=not output.endswith("\n"))
    sys.exit(exit_code(report, level))


def _explain_selection(report: Any, paths: tuple[str, ...], config_file: str | None) -> None:
    from wmaplint.config import describe_discovery

    if config_file:
        click.echo(f"wmaplint: configured by {config_file} (--config)", err=True)
    else:
        folders = [os.getcwd() if p == "-" else p if os.path.isdir(p) else os.path.dirname(os.path.abspath(p))
                   for p in paths]
        for line in dict.fromkeys(describe_discovery(folder) for folder in folders):
            click.echo(f"wmaplint: {line}", err=True)
    for path, reason in report.skipped:
        click.echo(f"wmaplint: skipped {path}: {reason}", err=True)
    if report.files_checked == 0 and not report.errors:
        line = f"no definitions, CRDs, rule packs or test suites in {', '.join(paths)}"
    else:
        line = f"checked {report.files_checked} file(s), skipped {len(report.skipped)}"
    click.echo(f"wmaplint: {line}", err=True)


def _output_files(outputs: tuple[str, ...]) -> list[tuple[str, str]]:
    """``--output FORMAT=FILE`` values as (format, file) pairs; a malformed one is a usage error."""
    from wmaplint.report import FORMATS

    files: list[tuple[str, str]] = []
    for value in outputs:
        file_format, sep, file = value.partition("=")
        if not sep or file_format not in FORMATS or not file:
            _fail(f"--output {value!r}: expected FORMAT=FILE with FORMAT one of {', '.join(FORMATS)}")
        if file == "-":
            _fail(f"--output {value!r}: standard output takes --format; give a file")
        if any(os.path.abspath(file) == os.path.abspath(known) for _, known in files):
            _fail(f"--output {value!r}: {file} is already an output")
        files.append((file_format, file))
    return files


def _output_targets(files: list[tuple[str, str]], inputs: list[str], follow_symlinks: bool
                    ) -> list[tuple[str, Any]]:
    """Where each ``--output`` goes, decided before anything is checked or written: a link not followed, a
    directory, a pipe no one reads, or a file that is an input of this run is one line and exit 2."""
    if not files:
        return []  # the writer's module (tempfile, shutil and the compressors under them) only for outputs
    from wmaplint.writes import WriteError, output_target

    targets = []
    for file_format, file in files:
        try:
            target = output_target(file, shown=f"--output {file_format}={file}",
                                   follow_symlinks=follow_symlinks)
        except WriteError as exc:
            _fail(str(exc))
        targets.append((file_format, target))
    _refuse_inputs(targets, inputs)
    return targets


def _refuse_inputs(targets: list[tuple[str, Any]], inputs: list[str]) -> None:
    """An input of the run is never an output (``wmaplint.writes.refuse_inputs``)."""
    if not targets:
        return
    from wmaplint.writes import WriteError, refuse_inputs

    for _, target in targets:
        try:
            refuse_inputs(target, inputs)
        except WriteError as exc:
            _fail(str(exc))


def _write_output(target: Any, text: str) -> None:
    """Write one ``--output`` (a target of `_output_targets`, or a file name) in its place
    (``wmaplint.writes``): a file whole or not at all, a device or pipe written into, a link not followed."""
    from wmaplint.writes import WriteError, output_target, write_target

    try:
        if isinstance(target, str):
            target = output_target(target, shown=f"--output {target}", follow_symlinks=False)
        write_target(target, text.encode("utf-8"))
    except WriteError as exc:
        _fail(str(exc))


def _split(values: tuple[str, ...]) -> list[str]:
    return [part for value in values for part in value.split(",") if part.strip()]


def _load_rules() -> None:
    """Import every module that registers rules, so listings and suppressions know them all."""
    from wmaplint import rules

    rules.load()


def _pack_rules() -> list[Any]:
    """The rules of the packs a check of the working directory runs: the shipped packs, then those its
    configuration names (``rule-packs:``)."""
    from wmaplint.config import ConfigError, find_config
    from wmaplint.packs.in_use import packs_for

    try:
        rules, _ = packs_for(find_config(os.getcwd()))
    except ConfigError as exc:
        _fail(str(exc))
    return rules


def _pack_name(rule: Any) -> str:
    from wmaplint.packs.loader import load_pack

    return load_pack(rule.pack_path).name or Path(rule.pack_path).stem


@main.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules(fmt: str) -> None:
    """List every rule: id, name, default severity and summary; the built-in rules and those of the rule packs
    a check of the working directory runs (the shipped pack and the configuration's `rule-packs`)."""
    import json

    from wmaplint.diagnostics import RULES

    _load_rules()
    listed: list[tuple[Any, str | None]] = [(RULES[key], None) for key in RULES]
    listed += [(rule.as_rule(), _pack_name(rule)) for rule in _pack_rules() if rule.id not in RULES]
    listed.sort(key=lambda pair: pair[0].id)
    if fmt == "json":
        entries = []
        for r, pack in listed:
            entry = {"id": r.id, "name": r.name, "severity": r.severity.label, "summary": r.summary,
                     "tags": list(r.tags)}
            if pack is not None:
                entry["pack"] = pack
            entries.append(entry)
        click.echo(json.dumps(entries, indent=2))
        return
    width = max(len(r.name) for r, _ in listed)
    for r, _ in listed:
        click.echo(f"{r.id}  {r.name:<{width}}  {r.severity.label:<7}  {r.summary}")


@main.command()
@click.argument("rule")
def explain(rule: str) -> None:
    """Show a rule's documentation: what, why, a failing and a passing example; for a rule of a rule pack,
    what its pack says of it."""
    from wmaplint.diagnostics import rule_by_name_or_id
    from wmaplint.rule_reference import retired_markdown, rule_markdown

    _load_rules()
    found = rule_by_name_or_id(rule)
    if found is not None:
        click.echo(rule_markdown(found))
        return
    retired = retired_markdown(rule)
    if retired is not None:
        click.echo(retired)
        return
    key = rule.strip()
    pack_rule = next((r for r in _pack_rules() if r.id == key.upper() or r.name == key), None)
    if pack_rule is None:
        _fail(f"unknown rule {rule!r} (see `wmaplint rules`)")
    click.echo(_pack_rule_markdown(pack_rule))


def _pack_rule_markdown(rule: Any) -> str:
    """A pack rule's documentation, from its pack: what it reports, why, and what it checks."""
    from wmaplint.packs.in_use import shipped_pack_paths

    shipped = os.path.abspath(rule.pack_path) in {os.path.abspath(p) for p in shipped_pack_paths()}
    where = f"packs/{Path(rule.pack_path).name}, shipped and on by default" if shipped else rule.pack_path
    givens = "\n".join(f"given: {g.text}" for g in rule.givens)
    parts = [
        f"# {rule.id} {rule.name}",
        "",
        f"Default severity: **{rule.severity.label}**. A rule of the rule pack `{_pack_name(rule)}` "
        f"({where}); `ignore: [{rule.id}]` in the configuration turns it off.",
        "",
        rule.message,
        "",
        "## Why it matters",
        "",
        rule.docs,
        "",
        "## What it checks",
        "",
        "Each value the `given` JSONPath selects must make the CEL `assert` true:",
        "",
        "```yaml",
        givens,
        f"assert: {rule.assert_text}",
        "```",
    ]
    return "\n".join(parts) + "\n"


if __name__ == "__main__":  # pragma: no cover
    main()
