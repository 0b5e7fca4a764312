"""wmaplint: offline static analyzer for Kubernetes workload definitions (kind Karta)."""

__version__ = "0.1.0"
