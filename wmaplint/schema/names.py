"""Group, version and kind checked before they become part of a file name.

Files are named from what a CRD declares (``schemas add`` names the copy it keeps, ``new`` the draft), so a
CRD's ``spec.group`` of ``/etc`` or ``../..`` must never reach a path. The API server accepts only DNS-shaped
names (kubernetes/apiextensions-apiserver, ``pkg/apis/apiextensions/validation/validation.go``: the group is a
DNS-1123 subdomain, each version a DNS-1035 label, the kind a DNS-1035 label once lower-cased); anything else
is refused here, before any path is built. The core group is the empty string (OpenAPI documents).
"""

from __future__ import annotations

import re

_LABEL_1123 = r"[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?"
_GROUP = re.compile(rf"{_LABEL_1123}(?:\.{_LABEL_1123})*\Z")
_VERSION = re.compile(r"[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?\Z")
_KIND = re.compile(r"[A-Za-z](?:[-A-Za-z0-9]{0,61}[A-Za-z0-9])?\Z")
MAX_GROUP_LENGTH = 253


def _quoted(value: str) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:76] + "...'"


def gvk_name_problem(group: str, version: str, kind: str) -> str | None:
    """Why (group, version, kind) cannot name a file, or None when each is a name the API server accepts."""
    if not isinstance(group, str) or (group and (len(group) > MAX_GROUP_LENGTH or not _GROUP.match(group))):
        return f"group {_quoted(str(group))} is not a DNS subdomain (lower-case letters, digits, '-' and '.')"
    if not isinstance(version, str) or not _VERSION.match(version):
        return f"version {_quoted(str(version))} is not a DNS label such as v1 or v1beta1"
    if not isinstance(kind, str) or not _KIND.match(kind):
        return f"kind {_quoted(str(kind))} is not a kind name (a letter, then letters, digits or '-')"
    return None
