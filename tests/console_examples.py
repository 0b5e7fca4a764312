"""The console examples of README.md and docs/*.md, run as written.

A ```console block holds ``$ wmaplint ...`` lines, each followed by what the command prints (standard output
and error, in the order written). A line ``...`` in the expected text stands for any number of lines. A block
runs in the repository root, or, after a comment ``<!-- console: in DIR; NAME from OTHER -->`` on the line
above its fence, in a scratch copy of DIR where each NAME is first replaced by DIR/OTHER (the file as the
text around the block has it edited).

``python -m tests.console_examples --write`` runs every block and writes what the commands print back into
the documents where they differ, keeping each block's elisions (as many lines before the first ``...`` and
after the last as it had); an example that still reads right is left as it is.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from wmaplint.dataclass import dataclass

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = ("README.md", "docs/*.md")
ELISION = "..."
_DIRECTIVE = re.compile(r"<!--\s*console:\s*(.*?)\s*-->")


@dataclass
class Command:
    args: list[str]
    expected: list[str]


@dataclass
class Block:
    document: Path
    line: int  # 1-based line of the opening fence
    end: int  # 1-based line of the closing fence
    commands: list[Command]
    directory: str | None = None
    replaced: tuple[tuple[str, str], ...] = ()
    indent: int = 0  # a block inside a list item is indented as its fence is

    @property
    def name(self) -> str:
        return f"{self.document.relative_to(REPO).as_posix()}:{self.line}"


def documents() -> list[Path]:
    return sorted({path for pattern in DOCUMENTS for path in REPO.glob(pattern)})


def blocks(document: Path) -> Iterator[Block]:
    lines = document.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```console":
            index += 1
            continue
        start = index
        end = next(i for i in range(start + 1, len(lines)) if lines[i].strip() == "```")
        indent = len(lines[start]) - len(lines[start].lstrip(" "))
        commands: list[Command] = []
        for text in (line[indent:] if line[:indent].isspace() else line for line in lines[start + 1:end]):
            if text.startswith("$ "):
                commands.append(Command(shlex.split(text[2:]), []))
            elif commands:
                commands[-1].expected.append(text)
        block = Block(document, start + 1, end + 1, commands, indent=indent)
        directive = _DIRECTIVE.search(lines[start - 1]) if start else None
        if directive:
            _directive(block, directive.group(1))
        if commands and all(c.args[:1] == ["wmaplint"] for c in commands):
            yield block
        index = end + 1


def _directive(block: Block, text: str) -> None:
    replaced = []
    for part in (p.strip() for p in text.split(";") if p.strip()):
        if part.startswith("in "):
            block.directory = part[3:].strip()
        else:
            target, _, source = part.partition(" from ")
            replaced.append((target.strip(), source.strip()))
    block.replaced = tuple(replaced)


def run(block: Block) -> list[list[str]]:
    """What each command of ``block`` prints, as lines."""
    env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    with tempfile.TemporaryDirectory() as scratch:
        cwd = REPO
        if block.directory is not None:
            cwd = Path(scratch) / Path(block.directory).name
            shutil.copytree(REPO / block.directory, cwd)
            for target, source in block.replaced:
                shutil.copyfile(cwd / source, cwd / target)
        outputs = []
        for command in block.commands:
            done = subprocess.run([sys.executable, "-m", "wmaplint", *command.args[1:]], cwd=cwd, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
            outputs.append(done.stdout.splitlines())
        return outputs


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` reads as ``expected``, a ``...`` line standing for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == ELISION:
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


def elided(expected: list[str], actual: list[str]) -> list[str]:
    """``actual`` with the elisions of ``expected`` kept: as many lines before the first ``...`` and after
    the last as ``expected`` has."""
    if ELISION not in expected:
        return actual
    head = expected.index(ELISION)
    tail = len(expected) - 1 - max(i for i, line in enumerate(expected) if line == ELISION)
    if head + tail >= len(actual):
        return actual
    return [*actual[:head], ELISION, *(actual[len(actual) - tail:] if tail else [])]


def write() -> None:
    for document in documents():
        lines = document.read_text(encoding="utf-8").splitlines(keepends=True)
        for block in reversed(list(blocks(document))):
            body = []
            margin = " " * block.indent
            for command, output in zip(block.commands, run(block), strict=True):
                body.append(margin + "$ " + shlex.join(command.args) + "\n")
                same = matches(command.expected, output)
                kept = command.expected if same else elided(command.expected, output)
                body.extend((margin + line if line else line) + "\n" for line in kept)
            lines[block.line:block.end - 1] = body
        document.write_text("".join(lines), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.console_examples --write")
    write()
