"""Definition test suites, `wmaplint test` (WM72x)."""
