"""Shared fixtures.

The suite runs as on a fresh machine: an empty home and cache, no WMAPLINT_SCHEMA_PATH, so definitions are
checked against the schema bundle shipped in the package. Real upstream data in ../shared beside the
repository adds extra tests; without it, the tests that need it (the ``shared`` fixture) are not collected.
"""

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import settings

# Property tests judge outcomes, never speed: a loaded machine must not fail them on a deadline.
settings.register_profile("wmaplint", deadline=None)
settings.load_profile("wmaplint")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
HAS_SHARED = (SHARED / "crds").is_dir()

_HOME = Path(tempfile.mkdtemp(prefix="wmaplint-tests-home-"))
os.environ["HOME"] = str(_HOME)
os.environ["XDG_CACHE_HOME"] = str(_HOME / ".cache")
for _name in ("WMAPLINT_SCHEMA_PATH", "WMAPLINT_CACHE_DIR"):
    os.environ.pop(_name, None)

# Analyses word their findings through the table the rules fill (wmaplint.findings): the command line imports
# the rules package first, and so must the tests that call an analysis directly.
import wmaplint.rules  # noqa: E402,F401


@pytest.fixture(autouse=True)
def _empty_caches() -> None:
    """Every test starts with the package's process-wide caches that depend on files, the environment or the
    working directory empty (``wmaplint.memo``), as a fresh run has them: none sees what an earlier test
    left there. The pure ones (entries determined by their keys) are kept: refilling them is the cost."""
    from wmaplint import memo

    memo.reset_all(keep_pure=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without ../shared, the tests that read it are deselected (never reported as skipped)."""
    if HAS_SHARED:
        return
    kept = [item for item in items if "shared" not in getattr(item, "fixturenames", ())]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The seed of a random order (pytest-randomly), at the end where a failure is read: ``-q`` (the
    configured default) prints no header, where the plugin says it."""
    if config.pluginmanager.has_plugin("randomly") and config.getoption("randomly_reorganize", False):
        seed = config.getoption("randomly_seed")
        terminalreporter.write_line(f"random order: -p randomly --randomly-seed={seed} replays it")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_HOME, ignore_errors=True)


@pytest.fixture(scope="session")
def shared() -> Path:
    if not HAS_SHARED:
        pytest.fail("../shared is not present; tests using it are deselected, so this is a collection bug")
    return SHARED


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


@pytest.fixture(scope="session")
def shared_crds(shared: Path) -> dict[Path, Any]:
    """Every CRD file of ../shared (32 files, 6 MB of YAML) parsed by ``schema.loader.parse_file``, once per
    test process: seconds each time, and several tests read them all (their ``xdist_group("shared-crds")``
    runs them in one process). The parse results are shared: read them, never change them."""
    from wmaplint.schema.loader import parse_file

    return {path: parse_file(path) for path in sorted((shared / "crds").rglob("*.yaml"))}


@pytest.fixture(scope="session")
def bundle_store() -> Any:
    """A schema store that serves the schemas shipped in the package and nothing else (no disk cache)."""
    from wmaplint.schema.store import SchemaStore

    return SchemaStore([], cache_dir=None)


class _NoAliases(yaml.CSafeDumper):
    """Bundled schemas share subtrees; a CRD written from them repeats them, as the original files do."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


@pytest.fixture(scope="session")
def bundled_crd_doc() -> Any:
    """``bundled_crd_doc(lock path)``: a CRD document made from a bundled source's schemas (every served
    version; the schema dicts are the bundle's own, shared: copy before changing them)."""
    from wmaplint.schema.bundle import shipped_bundle

    bundle = shipped_bundle()
    assert bundle is not None

    def make(file: str) -> dict[str, Any]:
        source = next(s for s in bundle.sources if s.file == file)
        raws = bundle.payload(source)["raws"]
        group, _, kind = source.gvks[0]
        versions = [
            {"name": v, "served": True, "storage": i == 0, "schema": {"openAPIV3Schema": raws[(g, v, k)]}}
            for i, (g, v, k) in enumerate(source.gvks)
        ]
        return {
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": f"{kind.lower()}s.{group}"},
            "spec": {"group": group, "names": {"kind": kind, "plural": f"{kind.lower()}s"},
                     "scope": "Namespaced", "versions": versions},
        }

    return make


@pytest.fixture(scope="session")
def bundled_crd(bundled_crd_doc: Any) -> Any:
    """``bundled_crd(lock path)``: the YAML text of ``bundled_crd_doc``, for tests that need a real CRD as a
    file of the user's without reading ../shared."""
    return lambda file: str(yaml.dump(bundled_crd_doc(file), Dumper=_NoAliases, sort_keys=False))
