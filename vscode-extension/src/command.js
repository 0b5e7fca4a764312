// @ts-check
"use strict";
// How the server is launched, from the settings alone (no vscode import, so node --test can load it).

/**
 * @typedef {{ path?: string[], interpreter?: string, args?: string[] }} LaunchSettings
 * @typedef {{ command: string, args: string[] }} LaunchCommand
 */

/**
 * The command line that starts the language server.
 * Precedence: `wmaplint.path` (a command and its leading arguments), then `wmaplint.interpreter`
 * (`<python> -m wmaplint lsp`), then `wmaplint` on PATH.
 * @param {LaunchSettings} settings
 * @returns {LaunchCommand}
 */
function serverCommand(settings) {
  const extra = (settings.args || []).filter((a) => typeof a === "string" && a.length > 0);
  const path = (settings.path || []).filter((p) => typeof p === "string" && p.trim().length > 0);
  if (path.length > 0) {
    return { command: path[0], args: [...path.slice(1), "lsp", ...extra] };
  }
  const interpreter = (settings.interpreter || "").trim();
  if (interpreter.length > 0) {
    return { command: interpreter, args: ["-m", "wmaplint", "lsp", ...extra] };
  }
  return { command: "wmaplint", args: ["lsp", ...extra] };
}

/**
 * A one-line description of the command for the output channel (arguments with spaces quoted).
 * @param {LaunchCommand} launch
 * @returns {string}
 */
function describe(launch) {
  return [launch.command, ...launch.args].map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ");
}

module.exports = { serverCommand, describe };
