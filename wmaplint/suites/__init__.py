"""`wmaplint test`: definition test suites, run offline (docs/testing.md)."""
