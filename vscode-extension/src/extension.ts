// The client half: start `wmaplint lsp` over stdio once a workload definition, CRD or test suite is open, and
// attach it to those documents only; restart on command or when a launch setting changes.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import {
  DidOpenTextDocumentNotification,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { describe, launchSettings, serverCommand, workspaceVenvPython } from "./command";
import { isWorkloadDocument } from "./documents";

const LAUNCH_SETTINGS = ["wmaplint.path", "wmaplint.interpreter", "wmaplint.args"];

let client: LanguageClient | undefined;
let starting: Promise<void> | undefined;
let output: vscode.LogOutputChannel | undefined;
// Documents the server has been told about; the rest of the YAML files never reach it.
const attached = new Set<string>();

/** The launch settings; workspace values only in a trusted workspace (`launchSettings`). */
function settings() {
  const config = vscode.workspace.getConfiguration("wmaplint");
  const { settings: chosen, ignored } = launchSettings(
    {
      path: config.inspect<string[]>("path"),
      interpreter: config.inspect<string>("interpreter"),
      args: config.inspect<string[]>("args"),
    },
    vscode.workspace.isTrusted,
  );
  if (ignored.length > 0) {
    output?.warn(`the workspace is not trusted: its values of ${ignored.join(", ")} are ignored`);
  }
  return {
    path: Array.isArray(chosen.path) ? chosen.path : [],
    interpreter: typeof chosen.interpreter === "string" ? chosen.interpreter : "",
    args: Array.isArray(chosen.args) ? chosen.args : [],
  };
}

function isYaml(document: vscode.TextDocument): boolean {
  return document.languageId === "yaml" && (document.uri.scheme === "file" || document.uri.scheme === "untitled");
}

function wanted(document: vscode.TextDocument): boolean {
  return isYaml(document) && isWorkloadDocument(document.fileName, document.getText());
}

/** Whether `python` can import wmaplint (an interpreter without it would only fail to start the server). */
function hasWmaplint(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, ["-c", "import wmaplint"], { timeout: 15000 }, (error) => resolve(!error));
  });
}

/** The interpreter the Python extension has selected for the workspace, if that extension is installed. */
async function selectedPython(): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension("ms-python.python");
  if (!extension) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    const environments = api?.environments;
    const active = environments?.getActiveEnvironmentPath(vscode.workspace.workspaceFolders?.[0]?.uri);
    const resolved = active ? await environments.resolveEnvironment(active) : undefined;
    const executable: string | undefined = resolved?.executable?.uri?.fsPath;
    return executable && (await hasWmaplint(executable)) ? executable : undefined;
  } catch (err) {
    output?.warn(`could not ask the Python extension for its interpreter: ${err}`);
    return undefined;
  }
}

async function launchCommand() {
  const chosen = settings();
  if (chosen.path.length > 0 || chosen.interpreter.trim().length > 0) {
    return serverCommand(chosen);
  }
  // A workspace's own interpreter runs the workspace's code: only in a trusted workspace.
  if (!vscode.workspace.isTrusted) {
    return serverCommand(chosen);
  }
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file");
  const workspacePython = workspaceVenvPython(
    folders.map((f) => f.uri.fsPath),
    existsSync,
  );
  if (workspacePython) {
    return serverCommand(chosen, { workspacePython });
  }
  return serverCommand(chosen, { selectedPython: await selectedPython() });
}

async function start(): Promise<void> {
  const launch = await launchCommand();
  output?.info(`starting (${launch.source}): ${describe(launch)}`);
  const serverOptions: ServerOptions = {
    command: launch.command,
    args: launch.args,
    transport: TransportKind.stdio,
  };
  attached.clear();
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml" },
      { scheme: "untitled", language: "yaml" },
    ],
    outputChannel: output,
    traceOutputChannel: output,
    middleware: {
      didOpen: async (document, next) => {
        if (wanted(document)) {
          attached.add(document.uri.toString());
          await next(document);
        }
      },
      didChange: async (event, next) => {
        const key = event.document.uri.toString();
        if (attached.has(key)) {
          await next(event);
        } else if (wanted(event.document) && client) {
          // it became a definition while being edited (a new file, say): open it with its whole text now
          attached.add(key);
          await client.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: {
              uri: client.code2ProtocolConverter.asUri(event.document.uri),
              languageId: event.document.languageId,
              version: event.document.version,
              text: event.document.getText(),
            },
          });
        }
      },
      willSave: async (event, next) => (attached.has(event.document.uri.toString()) ? next(event) : undefined),
      willSaveWaitUntil: (event, next) =>
        attached.has(event.document.uri.toString()) ? next(event) : Promise.resolve([]),
      didSave: async (document, next) => (attached.has(document.uri.toString()) ? next(document) : undefined),
      didClose: async (document, next) => (attached.delete(document.uri.toString()) ? next(document) : undefined),
    },
  };
  client = new LanguageClient("wmaplint", "wmaplint", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    output?.error(`the server did not start: ${err}`);
    client = undefined;
    void vscode.window.showErrorMessage(
      `wmaplint: could not start "${describe(launch)}". Install wmaplint in the workspace's .venv or set ` +
        "wmaplint.path or wmaplint.interpreter.",
    );
  }
}

/** Start the server the first time a document it serves is open (never for a workspace without one). */
function startWhenWanted(document: vscode.TextDocument): void {
  if (!client && !starting && wanted(document)) {
    starting = start().finally(() => {
      starting = undefined;
    });
  }
}

async function stop(): Promise<void> {
  if (starting) {
    await starting;
  }
  if (client) {
    const running = client;
    client = undefined;
    attached.clear();
    await running.stop();
  }
}

async function restart(): Promise<void> {
  await stop();
  vscode.workspace.textDocuments.forEach(startWhenWanted);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("wmaplint", { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("wmaplint.restart", restart),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (LAUNCH_SETTINGS.some((s) => event.affectsConfiguration(s))) {
        await restart();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(restart),
    vscode.workspace.onDidOpenTextDocument(startWhenWanted),
    vscode.workspace.onDidChangeTextDocument((event) => startWhenWanted(event.document)),
  );
  vscode.workspace.textDocuments.forEach(startWhenWanted);
}

export async function deactivate(): Promise<void> {
  await stop();
}
