"""Status mappings: their structure, coverage, what the controller really sets, consistency (WM4xx)."""
