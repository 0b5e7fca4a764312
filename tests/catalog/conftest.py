"""The real upstream samples and recordings in ../shared are extra data: without them their tests are not
collected."""

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2].parent / "shared"

collect_ignore = [] if (SHARED / "samples").is_dir() else ["test_shared_samples.py"]
if not (SHARED / "recordings").is_dir():
    collect_ignore.append("test_recordings.py")
