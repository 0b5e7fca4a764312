"""``wmaplint schemas {list,add,pull}``: click commands only; the work is in ``wmaplint.schema.lock``."""

from __future__ import annotations

import sys

import click

from wmaplint.path_options import readable
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.lock import DEFAULT_LOCK, add, list_schemas, pull
from wmaplint.schema.sources import user_schema_dir
from wmaplint.schema.store import SchemaStore, shared_store


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


@click.group(name="schemas")
def schemas() -> None:
    """List, add and pull the CRD / OpenAPI schemas definitions are checked against."""


@schemas.command(name="list")
@click.option("--crds", "crds", multiple=True, callback=readable("file or directory"),
              help="Extra schema file or directory (repeatable).")
def list_command(crds: tuple[str, ...]) -> None:
    """Show every GVK the schema sources serve and what serves it: a file, the user cache or the bundle."""
    store = shared_store(crds)
    rows = list_schemas(store)
    for err in store.errors:
        click.echo(f"warning: {err}", err=True)
    if not rows:
        click.echo("no schemas found (use --crds, WMAPLINT_SCHEMA_PATH or `wmaplint schemas add/pull`)")
        return
    width = max(len(r[0]) for r in rows)
    for gvk, versions, source in rows:
        click.echo(f"{gvk.ljust(width)}  [{versions}]  {source}")


@schemas.command(name="add")
@click.argument("source")
def add_command(source: str) -> None:
    """Copy a CRD file (or `-` for stdin) into the user schema cache."""
    from wmaplint.source import InputError, read_stdin

    try:
        store = SchemaStore([])
        if source == "-":
            gvks = add("-", user_schema_dir(), data=read_stdin(), store=store)
        else:
            gvks = add(source, user_schema_dir(), store=store)
    except InputError as exc:
        _fail(str(exc))
        return
    except SchemaError as exc:
        _fail(str(exc))
        return
    except UnicodeDecodeError:
        _fail("input is not UTF-8 text")
        return
    for group, version, kind in gvks:
        click.echo(f"added {group + '/' if group else ''}{version} {kind}")


@schemas.command(name="pull")
@click.option("--from", "from_dir", default=None, callback=readable("directory"),
              help="Take locked files from this directory (no network).")
@click.option("--lock", "lock_file", default=str(DEFAULT_LOCK), show_default=False, callback=readable("file"),
              help=f"Lock file. Default: the lock shipped with wmaplint ({DEFAULT_LOCK}).")
def pull_command(from_dir: str | None, lock_file: str) -> None:
    """Fetch the pinned schemas of the lock file into the user cache, verifying sha256."""
    try:
        written = pull(lock_file, user_schema_dir(), from_dir=from_dir, store=SchemaStore([]))
    except SchemaError as exc:
        _fail(str(exc))
        return
    except OSError as exc:
        _fail(f"cannot write the schema cache: {exc.strerror or exc}")
        return
    click.echo(f"{len(written)} schema files in {user_schema_dir()}")
