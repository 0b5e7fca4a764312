"""A real editor as the language client: headless Neovim, configured with the snippet docs/editors.md gives
for its version, opens a broken definition, gets the diagnostic at its token, applies the quick fix and sees
the diagnostic cleared. Collected only where `nvim` is installed (conftest.py); CI installs Debian's."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("nvim_client.lua")
EDITORS = (REPO / "docs" / "editors.md").read_text(encoding="utf-8")
SNIPPET = re.compile(r"<!-- neovim: (\d+)\.(\d+) -->\n```lua\n(.*?)```", re.S)

# The shipped batch/v1 Job definition with a misspelt key in a flow mapping, after an emoji and CJK text:
# Neovim counts bytes, the protocol UTF-16 units, wmaplint code points; all three must agree on the token.
LINE = '      scaleDefinition: {"🚀漢字": 1, replicasPth: ".spec.parallelism // 1"}'
DEFINITION = re.sub(
    r"      scaleDefinition:\n        replicasPath: [^\n]*\n",
    lambda _: LINE + "\n",
    (REPO / "catalog" / "batch-job-v1.yaml").read_text(encoding="utf-8"),
)


def _nvim_version() -> tuple[int, int]:
    done = subprocess.run(["nvim", "--version"], capture_output=True, text=True, timeout=30, check=True)
    match = re.search(r"NVIM v(\d+)\.(\d+)", done.stdout)
    assert match, done.stdout
    return int(match[1]), int(match[2])


def _snippets() -> list[tuple[tuple[int, int], str]]:
    found = [((int(major), int(minor)), body) for major, minor, body in SNIPPET.findall(EDITORS)]
    assert len(found) == 2, "docs/editors.md has one snippet for Neovim 0.7-0.9 and one for 0.10+"
    return sorted(found)


def _snippet_for(version: tuple[int, int]) -> str:
    usable = [body for since, body in _snippets() if since <= version]
    assert usable, f"no documented snippet works on Neovim {version}"
    return usable[-1]


def _nvim(script: Path, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["nvim", "--headless", "--clean", "-i", "NONE", "-c", f"luafile {script}"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )


def test_documented_snippets_are_valid_lua(tmp_path: Path) -> None:
    """The snippet for the other versions cannot run here, but it must at least parse."""
    for index, (_, body) in enumerate(_snippets()):
        script = tmp_path / f"check{index}.lua"
        script.write_text(
            f"local chunk, err = loadstring({json.dumps(body)})\n"
            "io.stdout:write(chunk and 'ok' or ('error: ' .. err))\nvim.cmd('qall!')\n",
            encoding="utf-8",
        )
        done = _nvim(script, dict(os.environ), tmp_path)
        assert done.stdout.strip() == "ok", done.stdout + done.stderr


def test_diagnostic_at_its_token_then_fixed(tmp_path: Path) -> None:
    version = _nvim_version()
    snippet = tmp_path / "init_wmaplint.lua"
    snippet.write_text(_snippet_for(version), encoding="utf-8")
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    definition = workspace / "batch job.yaml"
    definition.write_text(DEFINITION, encoding="utf-8")
    out = tmp_path / "report.json"
    env = {
        **os.environ,
        # the snippet runs `wmaplint lsp` from PATH, as a user's editor would
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "WMAPLINT_SNIPPET": str(snippet),
        "WMAPLINT_FILE": str(definition),
        "WMAPLINT_OUT": str(out),
        "WMAPLINT_CODE": "WM112",
        "WMAPLINT_TOKEN": "replicasPth",
        "WMAPLINT_FIX_TITLE": "replicasPath",
    }
    assert shutil.which("wmaplint", path=env["PATH"])
    done = _nvim(DRIVER, env, workspace)
    assert out.is_file(), f"Neovim wrote no report\n{done.stdout}\n{done.stderr}"
    report = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in report, report

    line_number = DEFINITION.splitlines().index(LINE)
    start = LINE.index("replicasPth")
    assert report["steps"] == ["opened as yaml"]
    assert report["client"]["name"] == "wmaplint"
    assert "replicasPth" in report["diagnostic"]["message"]
    # Neovim's own columns are bytes of the line
    assert report["diagnostic"]["lnum"] == line_number
    assert report["diagnostic"]["col"] == len(LINE[:start].encode("utf-8"))
    assert report["diagnostic"]["end_col"] == len(LINE[: start + len("replicasPth")].encode("utf-8"))
    # the server sent UTF-16 units, the protocol's default
    utf16 = len(LINE[:start].encode("utf-16-le")) // 2
    assert report["lsp_range"]["start"] == {"line": line_number, "character": utf16}
    assert report["lsp_range"]["end"] == {"line": line_number, "character": utf16 + len("replicasPth")}
    # the quick fix renamed the key in place, and the diagnostic went away
    assert report["fixed_line"] == LINE.replace("replicasPth", "replicasPath")
    assert report["cleared"] is True
    # the other finding on the line (the emoji key is no field either) is still there
    assert any(left.startswith("WM112 ") and "🚀漢字" in left for left in report["remaining"])
