// @ts-check
"use strict";
// How the server is launched, from the settings and what was found on disk (no vscode import, so
// node --test can load it).

const path = require("node:path");

/**
 * @typedef {{ path?: string[], interpreter?: string, args?: string[] }} LaunchSettings
 * @typedef {{ workspacePython?: string, selectedPython?: string }} Found
 * @typedef {{ command: string, args: string[], source: string }} LaunchCommand
 */

/**
 * The command line that starts the language server. Precedence: `wmaplint.path` (a command and its leading
 * arguments), `wmaplint.interpreter`, the workspace's `.venv` when wmaplint is installed there, the Python
 * extension's selected interpreter when wmaplint is installed there, then `wmaplint` on PATH.
 * An interpreter runs `<python> -m wmaplint lsp`.
 * @param {LaunchSettings} settings
 * @param {Found} [found]
 * @returns {LaunchCommand}
 */
function serverCommand(settings, found = {}) {
  const extra = (settings.args || []).filter((a) => typeof a === "string" && a.length > 0);
  const command = (settings.path || []).filter((p) => typeof p === "string" && p.trim().length > 0);
  if (command.length > 0) {
    return { command: command[0], args: [...command.slice(1), "lsp", ...extra], source: "wmaplint.path" };
  }
  const candidates = [
    [(settings.interpreter || "").trim(), "wmaplint.interpreter"],
    [found.workspacePython || "", "the workspace's .venv"],
    [found.selectedPython || "", "the Python extension's interpreter"],
  ];
  for (const [python, source] of candidates) {
    if (python.length > 0) {
      return { command: python, args: ["-m", "wmaplint", "lsp", ...extra], source };
    }
  }
  return { command: "wmaplint", args: ["lsp", ...extra], source: "PATH" };
}

/**
 * The Python of a workspace folder's `.venv` if wmaplint is installed in it (its console script is there).
 * @param {string[]} folders file system paths of the workspace folders, in order
 * @param {(file: string) => boolean} exists
 * @param {string} [platform] `process.platform`
 * @returns {string | undefined}
 */
function workspaceVenvPython(folders, exists, platform = process.platform) {
  const windows = platform === "win32";
  const join = windows ? path.win32.join : path.posix.join;
  const [bin, python, script] = windows ? ["Scripts", "python.exe", "wmaplint.exe"] : ["bin", "python", "wmaplint"];
  for (const folder of folders) {
    const dir = join(folder, ".venv", bin);
    if (exists(join(dir, python)) && exists(join(dir, script))) {
      return join(dir, python);
    }
  }
  return undefined;
}

/**
 * A one-line description of the command for the output channel (arguments with spaces quoted).
 * @param {{ command: string, args: string[] }} launch
 * @returns {string}
 */
function describe(launch) {
  return [launch.command, ...launch.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

/**
 * The settings that are read from the workspace only when it is trusted: each names a program or arguments
 * the extension runs.
 */
const RESTRICTED = ["path", "interpreter", "args"];

/**
 * @template T
 * @typedef {{ defaultValue?: T, globalValue?: T, workspaceValue?: T, workspaceFolderValue?: T }} Inspected
 */

/**
 * The launch settings to use, from each setting's `inspect()` (values per scope): in a trusted workspace the
 * innermost value wins, as VS Code's own lookup does; in an untrusted one, workspace and folder values are
 * ignored (a repository's `.vscode/settings.json` must not choose what runs), so only the user's own or the
 * default applies.
 * @param {{ path?: Inspected<string[]>, interpreter?: Inspected<string>, args?: Inspected<string[]> }} inspected
 * @param {boolean} trusted
 * @returns {{ settings: LaunchSettings, ignored: string[] }} and the names of the workspace values ignored
 */
function launchSettings(inspected, trusted) {
  /** @type {Record<string, unknown>} */
  const settings = {};
  const ignored = [];
  for (const name of RESTRICTED) {
    const scopes = /** @type {Inspected<unknown>} */ (inspected[/** @type {"path"} */ (name)] || {});
    const fromWorkspace = scopes.workspaceFolderValue !== undefined ? scopes.workspaceFolderValue : scopes.workspaceValue;
    const fromUser = scopes.globalValue !== undefined ? scopes.globalValue : scopes.defaultValue;
    if (trusted && fromWorkspace !== undefined) {
      settings[name] = fromWorkspace;
    } else {
      if (fromWorkspace !== undefined) {
        ignored.push(`wmaplint.${name}`);
      }
      if (fromUser !== undefined) {
        settings[name] = fromUser;
      }
    }
  }
  return { settings: /** @type {LaunchSettings} */ (settings), ignored };
}

module.exports = { serverCommand, workspaceVenvPython, describe, launchSettings, RESTRICTED };
