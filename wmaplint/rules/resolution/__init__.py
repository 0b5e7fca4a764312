"""What resolving manifests into workload trees finds (WM70x-WM71x)."""
