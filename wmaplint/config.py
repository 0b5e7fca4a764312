"""Settings from ``[tool.wmaplint]`` in pyproject.toml or ``.wmaplint.yaml``, found from a file upwards within
its repository (`discovery_bound`).

Keys: ``select`` and ``ignore`` (rule ids, id prefixes such as ``WM3``, or rule names), ``severity`` (rule ->
error|warning|info|off), ``exclude`` (.gitignore-style patterns, relative to the config file), ``crds``
(schema paths, relative to the config file), ``fail-level`` (error|warning|info), ``rule-packs``
(declarative rule files), ``completes`` (GVKs or kinds that run to completion, for status coverage),
``controllers`` (controller model files merged over the shipped model, schemas/controllers/; ``pod-labels``
is its older name, for files of the pod labels shape or the model's), ``releases`` (the release of each
framework the project runs, by the repository or framework name of its model file, e.g. ``ai-dynamo/dynamo:
"1.2.1"``: the controller model is seen at that release). Command-line flags override the file, except
``--ignore``, which adds to its ``ignore`` (``Overrides``).
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.dataclass import dataclass, field, replace
from wmaplint.diagnostics import Severity, rule_by_name_or_id

if TYPE_CHECKING:
    import pathspec

CONFIG_FILES = (".wmaplint.yaml", ".wmaplint.yml", "pyproject.toml")
KNOWN_KEYS = {"select", "ignore", "severity", "exclude", "crds", "fail-level", "rule-packs", "completes",
              "pod-labels", "controllers", "releases"}


class ConfigError(Exception):
    """A configuration file that cannot be used: one line, exit 2."""


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: tuple[tuple[str, str], ...] = ()  # (rule id, severity name or "off")
    exclude: tuple[str, ...] = ()
    crds: tuple[str, ...] = ()
    fail_level: Severity = Severity.WARNING
    rule_packs: tuple[str, ...] = ()
    completes: tuple[str, ...] = ()
    pod_labels: tuple[str, ...] = ()
    controllers: tuple[str, ...] = ()
    releases: tuple[tuple[str, str], ...] = ()  # (repository or framework name, release)
    source: str | None = None

    @property
    def controller_files(self) -> tuple[str, ...]:
        """The project's controller model files: those of ``controllers`` and of ``pod-labels``, its alias."""
        return self.controllers + self.pod_labels

    @property
    def base(self) -> Path:
        return Path(self.source).parent if self.source else Path.cwd()

    def enabled(self, rule_id: str) -> bool:
        if self.select and not any(_matches(rule_id, s) for s in self.select):
            return False
        if any(_matches(rule_id, s) for s in self.ignore):
            return False
        return dict(self.severity).get(rule_id) != "off"

    def severity_of(self, rule_id: str, default: Severity) -> Severity:
        name = dict(self.severity).get(rule_id)
        return Severity.parse(name) if name and name != "off" else default

    def excluded(self, path: Path, directory: bool = False) -> bool:
        """Whether ``exclude`` names ``path`` (a directory when ``directory``), read as .gitignore lines
        relative to the configuration file's directory (see ``exclude_spec``)."""
        if not self.exclude:
            return False
        try:
            rel = path.resolve().relative_to(self.base.resolve()).as_posix()
        except ValueError:  # outside the configuration's directory (--config from elsewhere): as given
            rel = path.as_posix()
        return exclude_spec(self.exclude).match_file(rel + "/" if directory else rel)

    def merged(self, **overrides: Any) -> Config:
        return replace(self, **{k: v for k, v in overrides.items() if v is not None})


@memo.lru_cache(maxsize=64)
def exclude_spec(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    """``exclude`` patterns as git reads .gitignore lines (pathspec, as ruff's ``exclude`` does): a pattern
    without a slash matches a name at any depth (``drafts``, ``*.gen.yaml``), one with a slash is anchored
    at the configuration's directory (``charts/*/templates/``), ``**`` spans directories, a trailing ``/``
    matches directories only, ``!`` re-includes."""
    import pathspec  # 10 ms at import, for the projects whose settings exclude files

    return pathspec.GitIgnoreSpec.from_lines(patterns)


# Rule pack ids (ACME001) and their prefixes (ACME): upper-case letters, then letters or digits.
_PACK_ID = re.compile(r"[A-Z][A-Z0-9]*\Z")


def _matches(rule_id: str, selector: str) -> bool:
    return rule_id == selector or (_PACK_ID.match(selector) is not None and rule_id.startswith(selector))


def _quoted(value: object, limit: int = 80) -> str:
    """A value of the user's as an error line quotes it: short, so one line stays one line."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def normalise_selector(text: str, where: str) -> str:
    text = text.strip()
    if text.upper().startswith("WM") and text[2:].isdigit() and len(text) <= 5:
        return text.upper()
    rule = rule_by_name_or_id(text)
    if rule is None and _PACK_ID.match(text):
        return text  # a rule pack id or prefix: packs are loaded after the configuration
    if rule is None:
        raise ConfigError(f"{where}: unknown rule {_quoted(text)} (see `wmaplint rules`)")
    return rule.id


def parse_config(data: object, source: str) -> Config:
    if data is None:
        return Config(source=source)
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the wmaplint settings must be a mapping")
    unknown = set(data) - KNOWN_KEYS
    if unknown:
        raise ConfigError(f"{source}: unknown setting {_quoted(sorted(unknown)[0])} (known: "
        f"{', '.join(sorted(KNOWN_KEYS))})")

    def strings(key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{source}: {key} must be a list of strings")
        return tuple(value)

    severity: list[tuple[str, str]] = []
    raw_sev = data.get("severity", {})
    if not isinstance(raw_sev, dict):
        raise ConfigError(f"{source}: severity must map rule ids to error, warning, info or off")
    for key, value in raw_sev.items():
        if str(value).lower() not in ("error", "warning", "info", "off"):
            raise ConfigError(f"{source}: severity of {key} must be error, warning, info or off, not "
            f"{_quoted(value)}")
        severity.append((normalise_selector(str(key), source), str(value).lower()))
    fail = data.get("fail-level", "warning")
    try:
        fail_level = Severity.parse(str(fail))
    except ValueError as exc:
        raise ConfigError(f"{source}: fail-level: {exc}") from None
    return Config(
        select=tuple(normalise_selector(s, source) for s in strings("select")),
        ignore=tuple(normalise_selector(s, source) for s in strings("ignore")),
        severity=tuple(severity),
        exclude=strings("exclude"),
        crds=_confined_paths(strings("crds"), "crds", source),
        fail_level=fail_level,
        rule_packs=_confined_paths(strings("rule-packs"), "rule-packs", source),
        completes=strings("completes"),
        pod_labels=_confined_paths(strings("pod-labels"), "pod-labels", source),
        controllers=_confined_paths(strings("controllers"), "controllers", source),
        releases=_releases(data.get("releases", {}), source),
        source=source,
    )


def _releases(value: object, source: str) -> tuple[tuple[str, str], ...]:
    """``releases``: framework (its model file's repository or name) -> release, each a string."""
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in value.items()):
        raise ConfigError(f"{source}: releases must map frameworks (a repository such as ai-dynamo/dynamo, "
                          "or a framework's name) to releases, each a quoted string such as \"1.2.1\"")
    return tuple((k, v) for k, v in value.items())


def _confined_paths(paths: tuple[str, ...], key: str, source: str) -> tuple[str, ...]:
    """Paths relative to the configuration file, each inside its repository (see wmaplint.allowed_paths)."""
    from wmaplint.allowed_paths import outside_reason

    base = Path(source).parent
    resolved = []
    for path in paths:
        full = str(base / path)
        reason = outside_reason(full, base)
        if reason is not None:
            raise ConfigError(f"{source}: {key}: {_quoted(path)} {reason}; a configuration names files "
                              "inside its repository only (give others with --crds or WMAPLINT_SCHEMA_PATH)")
        resolved.append(full)
    return tuple(resolved)


def load_config_file(path: str | Path) -> Config:
    """A configuration file, read under the data limits (``wmaplint.source.data``: 1 MiB, 30,000 values, 100
    levels), YAML or TOML; ConfigError with one line otherwise."""
    from wmaplint.source import InputError, read_path
    from wmaplint.source.data import SETTINGS, DataError, check_value, yaml_data

    p = Path(path)
    try:
        text = read_path(p, SETTINGS.max_bytes)
    except InputError as exc:
        raise ConfigError(f"{path}: cannot read configuration: {exc.reason}") from None
    if p.name.endswith(".toml"):
        import tomllib

        if _LONG_DOTTED_KEY.search(text):
            raise ConfigError(f"{path}: a dotted key of more than {MAX_KEY_PARTS} parts; it is not read")
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
        except RecursionError:  # tomllib parses nested arrays and tables recursively
            raise ConfigError(f"{path}: configuration is nested too deeply to read") from None
        tool = doc.get("tool", {})
        settings = tool.get("wmaplint") if isinstance(tool, dict) else None
        try:
            check_value(settings, str(path))
        except DataError as exc:
            raise ConfigError(f"{exc} (configuration)") from None
        return parse_config(settings, str(p))
    try:
        doc = yaml_data(text, str(path))
    except DataError as exc:
        raise ConfigError(f"{exc} (configuration)") from None
    return parse_config(doc, str(p))


def find_config(directory: str, named: str | None = None) -> Config:
    """The nearest configuration at or above a directory, within the discovery bound (`discovery_bound`);
    pyproject.toml counts only with [tool.wmaplint]. ``named``: the directory the user named that holds it."""
    return _find_config(directory, os.getcwd(), named)


@memo.lru_cache(maxsize=256)
def _find_config(directory: str, cwd: str, named: str | None) -> Config:
    d = Path(directory).resolve()
    bound, _ = discovery_bound(d, cwd, named)
    for folder in (d, *d.parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            try:
                if not candidate.exists() or candidate.is_dir():  # a FIFO or device is an error, not "none"
                    continue
            except OSError as exc:
                if exc.errno == errno.ENAMETOOLONG:
                    break  # no path reaches this folder: what it holds cannot be read, nor configure anything
                raise
            if name == "pyproject.toml" and not _mentions_wmaplint(candidate):
                continue
            _refuse_outside_link(candidate)
            return load_config_file(candidate)
        if folder == bound:
            break
    return Config()


def discovery_bound(directory: str | Path, cwd: str | None = None, named: str | None = None
                    ) -> tuple[Path, str]:
    """The last folder configuration discovery from ``directory`` looks in, and what it is.

    The repository root (the nearest folder at or above with ``.git``, a folder or a file): a folder above it
    belongs to someone else (git's ``safe.directory`` lesson). Outside any repository, the working directory
    when the directory is inside it, else the directory named on the command line that holds it, else the
    directory itself: a run never reads settings from a folder above both the files it checks and the place
    it was started or told to look."""
    d = Path(directory).resolve()
    for folder in (d, *d.parents):
        try:
            if os.path.lexists(folder / ".git"):
                return folder, "repository root"
        except (OSError, ValueError):
            break
    here = Path(cwd if cwd is not None else os.getcwd()).resolve()
    if d == here or here in d.parents:
        return here, "working directory"
    top = Path(named).resolve() if named is not None else None
    if top is not None and (d == top or top in d.parents):
        return top, "directory named"
    return d, "folder of the file"


def describe_discovery(directory: str | Path) -> str:
    """What configured files in ``directory`` (a directory named on the command line, or a named file's
    folder), for `check -v`: the file, or where the search looked."""
    config = find_config(str(directory), str(directory))
    if config.source is not None:
        return f"configured by {config.source}"
    d = Path(directory).resolve()
    bound, what = discovery_bound(d, named=str(directory))
    where = f"only, the {what}" if d == bound else f"and up to the {what} {bound}"
    return f"no configuration file; looked in {d} {where}" + ("" if what == "repository root" else
                                                             " (no repository)")


def _refuse_outside_link(found: Path) -> None:
    from wmaplint.allowed_paths import file_outside_reason

    reason = file_outside_reason(found)
    if reason is not None:
        raise ConfigError(f"{found}: {reason}; it is not read")


# tomllib's work on a dotted key (`a.b.c = 1`, `[a.b.c]`) grows with the square of its parts: 50,000 parts in
# 100 kB took 3 GB. A key of more parts than the settings' depth is refused before it is parsed.
MAX_KEY_PARTS = 100
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_LONG_DOTTED_KEY = re.compile(rf"(?:{_KEY_PART}[ \t]*\.[ \t]*){{{MAX_KEY_PARTS},}}")


def _mentions_wmaplint(pyproject: Path) -> bool:
    """Whether a pyproject.toml has a wmaplint table (one that cannot be read: load_config_file says why)."""
    from wmaplint.source import InputError, read_bytes

    try:
        return b"[tool.wmaplint" in read_bytes(pyproject)
    except InputError:
        return True


@dataclass
class Overrides:
    """Command-line settings over those of the file, as ruff layers them (astral-sh/ruff pull request #2312):
    ``--select`` starts the selection afresh, without the file's ``select`` and ``ignore``; ``--ignore`` adds
    to the ``ignore`` in force. Ignoring one more rule never brings back one the file ignores."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] | None = None
    fail_level: Severity | None = None
    extra_crds: tuple[str, ...] = field(default_factory=tuple)

    def apply(self, config: Config) -> Config:
        ignore = config.ignore if self.select is None else ()
        merged = config.merged(select=self.select, ignore=(*ignore, *(self.ignore or ())),
                               fail_level=self.fail_level)
        if self.extra_crds:
            merged = replace(merged, crds=tuple(self.extra_crds) + merged.crds)
        return merged
