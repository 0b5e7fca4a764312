"""The real upstream samples and schemas in ../shared are extra data: without ../shared the tests that need
them are not collected (the catalog's strict check needs the schemas until the bundle ships them)."""

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2].parent / "shared"

collect_ignore = [] if (SHARED / "samples").is_dir() else ["test_shared_samples.py", "test_catalog_strict.py"]
