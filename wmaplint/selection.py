"""Which files `check` reads: walks that leave out what is not the user's own YAML, and a cheap textual test
for the kinds the tool reads, so a repository full of other YAML and JSON costs little and says nothing.

A file is linted when one of its documents is a definition (Karta, ResourceInterface), a CRD or a rule pack,
or when it is a definition test suite (``*.test.yaml`` with ``cases:``; `check` reads its YAML, `wmaplint
test` runs its cases). Anything else is skipped without a word, also when it does not parse (Helm templates,
JSON with comments): a file that fails to parse is reported only when its text declares one of those kinds.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable

from wmaplint.dataclass import dataclass
from wmaplint.source.reading import encoding_of

YAML_SUFFIXES = (".yaml", ".yml", ".json")
SUITE_SUFFIX = ".test.yaml"

# Directories a walk never enters: installed or vendored third-party code and caches. Hidden directories
# (.git, .github, .venv, ...) are left out of walks as well. A file named on the command line is checked,
# unless --force-exclude (the pre-commit hooks, which name every changed file) and it lies in one of these
# below the working directory.
SKIPPED_DIRECTORIES = frozenset({
    "node_modules", "bower_components", "jspm_packages",  # JavaScript packages
    "vendor", "third_party", "third-party", "thirdparty",  # vendored sources (Go, C/C++, Bazel, ...)
    "site-packages", "__pycache__",  # Python environments and caches
})

# How much of a file that cannot be read as text (binary, not UTF-8, too large) is searched for a kind.
HEAD_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class Skip:
    """A path left out of a run, and why (shown by ``check -v``)."""

    path: str
    reason: str


def kind_test(kinds: Iterable[str]) -> re.Pattern[str]:
    """A pattern that finds ``kind: K`` for any of ``kinds`` as a key of a block or flow mapping or a JSON
    object: quoted or not, at the start of a line (after indentation or a ``- ``) or after ``{`` or ``,``.
    A comment or a value that merely mentions the kind does not count."""
    names = "|".join(re.escape(k) for k in sorted(kinds))
    return re.compile(
        r"""(?:^[ \t]*(?:-[ \t]+)*|[{,][ \t]*)(["']?)kind\1[ \t]*:[ \t]*(?:!!str[ \t]+)?["']?"""
        rf"(?:{names})(?![\w.-])",
        re.MULTILINE,
    )


_SUITE_CASES = re.compile(r"""^(["']?)cases\1[ \t]*:""", re.MULTILINE)


def is_suite(path: str, text: str) -> bool:
    """A definition test suite: the name `wmaplint test` looks for and a top-level ``cases:`` key."""
    return path.endswith(SUITE_SUFFIX) and _SUITE_CASES.search(text) is not None


# What makes a file a recording of workload states (`wmaplint test`) before it is parsed: a top-level
# `events:` key and a STATE event, or (the recorder before it) a top-level `steps:` key and a step's `cr:`.
_EVENTS = re.compile(r"""^(["']?)events\1[ \t]*:""", re.MULTILINE)
_STEPS = re.compile(r"""^(["']?)steps\1[ \t]*:""", re.MULTILINE)
_STEP_CR = re.compile(r"""^(?:-[ \t]+|[ \t]+)(["']?)cr\1[ \t]*:""", re.MULTILINE)


def is_recording(text: str) -> bool:
    """A recording by its text: a top-level ``events:`` key and at least one ``kind: STATE`` event, or a
    top-level ``steps:`` key and a step's ``cr:``."""
    if _EVENTS.search(text) is not None and _STATE_EVENT.search(text) is not None:
        return True
    return _STEPS.search(text) is not None and _STEP_CR.search(text) is not None


_STATE_EVENT = kind_test(["STATE"])


def manifest_files(paths: list[str], excluded: Callable[[str, bool], bool] | None = None) -> list[str]:
    """The files `tree` reads for ``paths``: a directory is walked as `check` walks it (hidden and vendored
    directories and what ``excluded`` names left out, YAML and JSON files only, definition test suites and
    recordings passed by), as `kubectl apply -f DIR` reads every manifest file of a directory; a named file is
    read as named."""
    files: list[str] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            files.append(path)
            continue
        walked, _ = walk(path, excluded or (lambda _path, _is_dir: False))
        for found in walked:
            head = head_text(found) or ""
            if not is_suite(found, head) and not is_recording(head):
                files.append(found)
    return files


def head_text(path: str) -> str | None:
    """The first bytes of a regular file as text (undecodable bytes replaced), or None when it cannot be
    opened or is not a regular file."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            head = handle.read(HEAD_BYTES)
    except (OSError, ValueError):
        return None
    codec, _, mark = encoding_of(head)
    return head[mark:].decode(codec, "replace")


def vendored(path: str) -> bool:
    """Whether a named path lies in a vendored directory below the working directory (a walk would not
    enter it; the directories above the working directory are not the repository's to judge)."""
    try:
        relative = os.path.relpath(os.path.abspath(path))
    except ValueError:  # another drive
        return False
    parts = relative.split(os.sep)[:-1]
    return parts[:1] != [os.pardir] and any(part in SKIPPED_DIRECTORIES for part in parts)


LINK_OUT = "a symbolic link out of the repository"


def link_out_of(path: str, bound: str | os.PathLike[str]) -> str | None:
    """Where the link ``path`` leads when that is outside ``bound`` (the repository root), else None."""
    try:
        if not os.path.islink(path):
            return None
        target = os.path.realpath(path)
    except (OSError, ValueError):
        return None
    top = os.path.realpath(bound)
    return None if target == top or target.startswith(top.rstrip(os.sep) + os.sep) else target


def walk(root: str, excluded: Callable[[str, bool], bool], bound: str | os.PathLike[str] | None = None
         ) -> tuple[list[str], list[Skip]]:
    """YAML and JSON files under ``root`` (sorted), and what was left out.

    Hidden and vendored directories, and what ``excluded`` names, are not entered; symbolic links to
    directories are not followed; a link to a file is read when its target lies inside ``bound`` (the
    repository root: a link out of it would publish the lines of a file the repository does not hold);
    unreadable directories are skipped."""
    files: list[str] = []
    skipped: list[Skip] = []
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError as exc:
            skipped.append(Skip(directory, f"cannot read the directory ({exc.strerror or exc})"))
            continue
        subdirectories = []
        for entry in entries:
            reason = _entry_skip(entry, excluded)
            if reason is not None:
                if reason:
                    skipped.append(Skip(entry.path, reason))
            elif _is_directory(entry):
                subdirectories.append(entry.path)
            elif bound is not None and link_out_of(entry.path, bound) is not None:
                skipped.append(Skip(entry.path, LINK_OUT))
            else:
                files.append(entry.path)
        stack.extend(reversed(subdirectories))
    return sorted(files), skipped


def _is_directory(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _entry_skip(entry: os.DirEntry[str], excluded: Callable[[str, bool], bool]) -> str | None:
    """Why a directory entry is left out ("" for files that are not YAML or JSON: not worth a line), or
    None to take it."""
    name = entry.name
    if _is_directory(entry):
        if name.startswith("."):
            return "hidden directory"
        if name in SKIPPED_DIRECTORIES:
            return "vendored or installed third-party directory"
        return "excluded by the configuration" if excluded(entry.path, True) else None
    if not name.endswith(YAML_SUFFIXES):
        return ""
    if name.startswith("."):
        return "hidden file"
    try:
        regular = entry.is_file()
    except OSError:
        regular = False
    if not regular:
        return "not a regular file"
    return "excluded by the configuration" if excluded(entry.path, False) else None
