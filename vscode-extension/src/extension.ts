// The client half: start `wmaplint lsp` over stdio for YAML and JSON files; restart on command or setting change.
import * as vscode from "vscode";
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from "vscode-languageclient/node";
import { describe, serverCommand } from "./command";

let client: LanguageClient | undefined;
let output: vscode.LogOutputChannel | undefined;

function settings() {
  const config = vscode.workspace.getConfiguration("wmaplint");
  return {
    path: config.get<string[]>("path", []),
    interpreter: config.get<string>("interpreter", ""),
    args: config.get<string[]>("args", []),
  };
}

async function start(): Promise<void> {
  const launch = serverCommand(settings());
  output?.info(`starting: ${describe(launch)}`);
  const serverOptions: ServerOptions = {
    command: launch.command,
    args: launch.args,
    transport: TransportKind.stdio,
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "yaml" },
      { scheme: "file", language: "json" },
      { scheme: "untitled", language: "yaml" },
    ],
    outputChannel: output,
    traceOutputChannel: output,
  };
  client = new LanguageClient("wmaplint", "wmaplint", serverOptions, clientOptions);
  try {
    await client.start();
  } catch (err) {
    output?.error(`the server did not start: ${err}`);
    void vscode.window.showErrorMessage(
      `wmaplint: could not start "${describe(launch)}". Set wmaplint.path or wmaplint.interpreter.`,
    );
  }
}

async function stop(): Promise<void> {
  if (client) {
    const running = client;
    client = undefined;
    await running.stop();
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("wmaplint", { log: true });
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("wmaplint.restart", async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (["wmaplint.path", "wmaplint.interpreter", "wmaplint.args"].some((s) => event.affectsConfiguration(s))) {
        await stop();
        await start();
      }
    }),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}
