"""Components, ownership, pod specs, selectors and gang instructions (WM5xx)."""
