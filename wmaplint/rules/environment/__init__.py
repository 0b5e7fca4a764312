"""Schema sources, suppressions and rule packs (WM9xx)."""
