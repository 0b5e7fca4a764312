"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { serverCommand, workspaceVenvPython, describe } = require("../src/command.js");

test("defaults to wmaplint on PATH", () => {
  assert.deepEqual(serverCommand({}), { command: "wmaplint", args: ["lsp"], source: "PATH" });
});

test("an interpreter runs the module", () => {
  assert.deepEqual(serverCommand({ interpreter: " /venv/bin/python ", args: ["--tcp"] }), {
    command: "/venv/bin/python",
    args: ["-m", "wmaplint", "lsp", "--tcp"],
    source: "wmaplint.interpreter",
  });
});

test("path wins over everything and keeps its own leading arguments", () => {
  const found = { workspacePython: "/w/.venv/bin/python", selectedPython: "/usr/bin/python3" };
  assert.deepEqual(serverCommand({ path: ["uvx", "wmaplint"], interpreter: "/usr/bin/python3", args: [""] }, found), {
    command: "uvx",
    args: ["wmaplint", "lsp"],
    source: "wmaplint.path",
  });
});

test("then the workspace .venv, then the Python extension's interpreter, then PATH", () => {
  const both = { workspacePython: "/w/.venv/bin/python", selectedPython: "/opt/py/bin/python" };
  assert.equal(serverCommand({}, both).command, "/w/.venv/bin/python");
  assert.equal(serverCommand({}, both).source, "the workspace's .venv");
  assert.deepEqual(serverCommand({}, { selectedPython: "/opt/py/bin/python" }).args, ["-m", "wmaplint", "lsp"]);
  assert.equal(serverCommand({ interpreter: "/i/python" }, both).command, "/i/python");
  assert.equal(serverCommand({}, { workspacePython: "" }).command, "wmaplint");
});

test("blank path entries are ignored", () => {
  assert.deepEqual(serverCommand({ path: ["  "] }), { command: "wmaplint", args: ["lsp"], source: "PATH" });
});

test("a workspace .venv counts only with wmaplint installed in it", () => {
  const files = new Set(["/a/.venv/bin/python", "/b/.venv/bin/python", "/b/.venv/bin/wmaplint"]);
  const exists = (file) => files.has(file);
  assert.equal(workspaceVenvPython(["/a", "/b"], exists, "linux"), "/b/.venv/bin/python");
  assert.equal(workspaceVenvPython(["/a"], exists, "linux"), undefined);
  const windows = new Set(["C:\\w\\.venv\\Scripts\\python.exe", "C:\\w\\.venv\\Scripts\\wmaplint.exe"]);
  assert.equal(workspaceVenvPython(["C:\\w"], (f) => windows.has(f), "win32"), "C:\\w\\.venv\\Scripts\\python.exe");
});

test("describe quotes arguments with spaces", () => {
  assert.equal(describe({ command: "/opt/my tools/python", args: ["-m", "wmaplint", "lsp"] }),
    '"/opt/my tools/python" -m wmaplint lsp');
});

const { launchSettings } = require("../src/command.js");

test("an untrusted workspace's values of path, interpreter and args are ignored", () => {
  const inspected = {
    path: { defaultValue: [], workspaceValue: ["/repo/evil.sh"] },
    interpreter: { defaultValue: "", globalValue: "/usr/bin/python3", workspaceFolderValue: "/repo/py" },
    args: { defaultValue: [], globalValue: ["--lint-timeout", "5"], workspaceValue: ["--tcp", "--host", "0.0.0.0"] },
  };
  const untrusted = launchSettings(inspected, false);
  assert.deepEqual(untrusted.settings, { path: [], interpreter: "/usr/bin/python3", args: ["--lint-timeout", "5"] });
  assert.deepEqual(untrusted.ignored, ["wmaplint.path", "wmaplint.interpreter", "wmaplint.args"]);
  assert.deepEqual(serverCommand(untrusted.settings), {
    command: "/usr/bin/python3",
    args: ["-m", "wmaplint", "lsp", "--lint-timeout", "5"],
    source: "wmaplint.interpreter",
  });
});

test("a trusted workspace's values win, the folder's over the workspace's", () => {
  const inspected = {
    path: { defaultValue: [], workspaceValue: ["/w/bin/wmaplint"] },
    args: { globalValue: ["--lint-timeout", "5"], workspaceValue: ["--a"], workspaceFolderValue: ["--b"] },
  };
  const trusted = launchSettings(inspected, true);
  assert.deepEqual(trusted.settings, { path: ["/w/bin/wmaplint"], args: ["--b"] });
  assert.deepEqual(trusted.ignored, []);
});

test("no values at all: the defaults", () => {
  assert.deepEqual(launchSettings({}, false), { settings: {}, ignored: [] });
});
