"""jq as the runtime compiles and runs it: syntax, names, the deny-list, output counts, writable paths
(WM2xx)."""
