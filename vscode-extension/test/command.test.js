"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { serverCommand, describe } = require("../src/command.js");

test("defaults to wmaplint on PATH", () => {
  assert.deepEqual(serverCommand({}), { command: "wmaplint", args: ["lsp"] });
});

test("an interpreter runs the module", () => {
  assert.deepEqual(serverCommand({ interpreter: " /venv/bin/python ", args: ["--tcp"] }), {
    command: "/venv/bin/python",
    args: ["-m", "wmaplint", "lsp", "--tcp"],
  });
});

test("path wins over interpreter and keeps its own leading arguments", () => {
  assert.deepEqual(serverCommand({ path: ["uvx", "wmaplint"], interpreter: "/usr/bin/python3", args: [""] }), {
    command: "uvx",
    args: ["wmaplint", "lsp"],
  });
});

test("blank path entries are ignored", () => {
  assert.deepEqual(serverCommand({ path: ["  "] }), { command: "wmaplint", args: ["lsp"] });
});

test("describe quotes arguments with spaces", () => {
  assert.equal(describe({ command: "/opt/my tools/python", args: ["-m", "wmaplint", "lsp"] }),
    '"/opt/my tools/python" -m wmaplint lsp');
});
