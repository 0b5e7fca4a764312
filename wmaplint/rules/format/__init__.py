"""The definition format's structure: kind and apiVersion, field types, required, unknown and repeated
fields (WM104-WM119)."""
