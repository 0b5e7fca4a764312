"""Faults of the file itself: YAML and JSON that does not read as one definition (WM1xx)."""
