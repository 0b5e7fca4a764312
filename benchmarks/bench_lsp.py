"""Language server latency: didChange -> publishDiagnostics for a 300-line definition, minus the debounce.

Runs `python -m wmaplint lsp` as an editor would (stdio), against the real schemas in ../shared.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
ROUNDS = 10


def definition_of_300_lines() -> str:
    """The JobSet catalog definition with extra child components (each a real-shaped replicated job)."""
    text = (ROOT / "catalog" / "jobset-x-k8s-io-jobset-v1alpha2.yaml").read_text(encoding="utf-8")
    head, tail = text.split("  optimizationInstructions:\n", 1)
    child = head[head.index("      - name: replicatedjob\n") :]
    extra, n = [], 0
    while len((head + "".join(extra) + tail).splitlines()) < 300:
        n += 1
        extra.append(child.replace("name: replicatedjob", f"name: replicatedjob{n}"))
    return head + "".join(extra) + "  optimizationInstructions:\n" + tail


async def measure() -> tuple[list[float], int, float]:
    from wmaplint.lsp.server import DEBOUNCE_SECONDS

    text = definition_of_300_lines()
    published: dict[int | None, float] = {}
    client = LanguageClient("bench", "0")

    @client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
        published[params.version] = time.perf_counter()

    env = dict(os.environ)
    env.setdefault("WMAPLINT_SCHEMA_PATH", f"{SHARED / 'crds'}:{SHARED / 'k8s-openapi'}")
    await client.start_io(sys.executable, "-m", "wmaplint", "lsp", env=env)
    await client.initialize_async(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.initialized(lsp.InitializedParams())
    uri = (Path(tempfile.gettempdir()) / "bench-jobset.yaml").as_uri()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )
    while 1 not in published:
        await asyncio.sleep(0.005)
    samples = []
    for version in range(2, ROUNDS + 2):
        edited = text.replace("jobset-x-k8s-io-jobset-v1alpha2", f"jobset-x-k8s-io-jobset-v1alpha2-{version}")
        sent = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=edited)],
            )
        )
        while version not in published:
            await asyncio.sleep(0.001)
        samples.append(published[version] - sent - DEBOUNCE_SECONDS)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return samples, len(text.splitlines()), DEBOUNCE_SECONDS


def engine_time() -> float:
    """The same lint in this process (no server), to separate engine time from server overhead."""
    os.environ.setdefault("WMAPLINT_SCHEMA_PATH", f"{SHARED / 'crds'}:{SHARED / 'k8s-openapi'}")
    from wmaplint.lsp.server import WmaplintServer

    server = WmaplintServer()
    text = definition_of_300_lines()
    uri = (Path(tempfile.gettempdir()) / "bench-jobset.yaml").as_uri()
    server.compute_diagnostics(uri, text, "yaml")
    times = []
    for n in range(5):
        start = time.perf_counter()
        server.compute_diagnostics(uri, text.replace("v1alpha2", f"v1alpha2-{n}", 1), "yaml")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    samples, lines, debounce = asyncio.run(measure())
    in_process = engine_time()
    samples.sort()
    print(f"lsp_definition_lines: {lines} lines")
    print(f"lsp_debounce: {debounce * 1000:.0f} ms")
    print(f"lsp_change_to_diagnostics_median: {statistics.median(samples) * 1000:.1f} ms")
    print(f"lsp_change_to_diagnostics_p90: {samples[int(len(samples) * 0.9) - 1] * 1000:.1f} ms")
    print(f"lsp_lint_in_process_median: {in_process * 1000:.1f} ms")


if __name__ == "__main__":
    main()
