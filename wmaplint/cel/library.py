"""Python implementations of the Kubernetes CEL library functions cel-expr-python lacks (K8S_CEL.md
§1.3.7-14).

Library object values (Quantity, URL, IP, CIDR, Semver, NamedFormat) travel through CEL as small maps tagged
with ``@type``; their payload is canonical so CEL's map equality matches Kubernetes' semantic equality.
Raising ValueError turns into a CEL error value.
"""

from __future__ import annotations

import base64
import datetime
import ipaddress
import itertools
import re
import urllib.parse
from decimal import Decimal, InvalidOperation
from typing import Any

TAG = "@type"


def _tagged(kind: str, **payload: Any) -> dict[str, Any]:
    return {TAG: kind, **payload}


def _expect(value: object, kind: str) -> dict[str, Any]:
    if not isinstance(value, dict) or value.get(TAG) != kind:
        raise ValueError("no such overload")
    return value


# ---- lists -------------------------------------------------------------------------------------------------


def _comparable(values: list[Any]) -> list[Any]:
    if any(isinstance(v, (dict, list)) or v is None for v in values):
        raise ValueError("no such overload")
    return values


def is_sorted(values: list[Any]) -> bool:
    values = _comparable(list(values))
    return all(a <= b for a, b in itertools.pairwise(values))


def list_sum(values: list[Any]) -> Any:
    values = _comparable(list(values))
    total: Any = 0
    for v in values:
        total = total + v
    return total


def list_min(values: list[Any]) -> Any:
    if not values:
        raise ValueError("min called on empty list")
    return min(_comparable(list(values)))


def list_max(values: list[Any]) -> Any:
    if not values:
        raise ValueError("max called on empty list")
    return max(_comparable(list(values)))


# ---- regex -------------------------------------------------------------------------------------------------


def _compile(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"Illegal regex: {exc}") from None


def find(text: str, pattern: str) -> str:
    match = _compile(pattern).search(text)
    return match.group(0) if match else ""


def find_all(text: str, pattern: str, limit: int = -1) -> list[str]:
    found = [m.group(0) for m in _compile(pattern).finditer(text)]
    return found if limit < 0 else found[:limit]


# ---- quantity ----------------------------------------------------------------------------------------------

_QUANTITY = re.compile(
    r"([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?[0-9]+)?\Z"
)
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}


def parse_quantity(text: str) -> Decimal:
    match = _QUANTITY.match(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        )
    number, suffix = match.group(1), match.group(2) or ""
    try:
        value = Decimal(number)
        if suffix in _BINARY:
            return value * _BINARY[suffix]
        if suffix in _DECIMAL:
            return value.scaleb(_DECIMAL[suffix])
        return value.scaleb(int(suffix[1:]))
    except (InvalidOperation, ValueError, OverflowError):
        raise ValueError("unable to parse quantity") from None


def _canonical(value: Decimal) -> str:
    return format(value.normalize(), "f") if value else "0"


def quantity(text: str) -> dict[str, Any]:
    return _tagged("kubernetes.Quantity", value=_canonical(parse_quantity(text)))


def is_quantity(text: str) -> bool:
    try:
        parse_quantity(text)
    except ValueError:
        return False
    return True


def _qval(q: object) -> Decimal:
    return Decimal(_expect(q, "kubernetes.Quantity")["value"])


def _cmp(a: Decimal, b: Decimal) -> int:
    return (a > b) - (a < b)


def quantity_sign(q: object) -> int:
    return _cmp(_qval(q), Decimal(0))


def quantity_as_integer(q: object) -> int:
    value = _qval(q)
    if value != value.to_integral_value() or not -(2**63) <= value < 2**63:
        raise ValueError("cannot convert value to integer")
    return int(value)


def quantity_is_integer(q: object) -> bool:
    value = _qval(q)
    return value == value.to_integral_value() and -(2**63) <= value < 2**63


def quantity_add(q: object, other: object) -> dict[str, Any]:
    delta = Decimal(other) if isinstance(other, int) else _qval(other)
    return _tagged("kubernetes.Quantity", value=_canonical(_qval(q) + delta))


def quantity_sub(q: object, other: object) -> dict[str, Any]:
    delta = Decimal(other) if isinstance(other, int) else _qval(other)
    return _tagged("kubernetes.Quantity", value=_canonical(_qval(q) - delta))


# ---- semver ------------------------------------------------------------------------------------------------

_SEMVER = re.compile(
    r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)"
    r"(?:-((?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?\Z"
)


def _normalize_semver(text: str) -> str:
    text = text[1:] if text.startswith("v") else text
    head, sep, tail = text.partition("-") if "-" in text else text.partition("+")
    parts = head.split(".")
    if len(parts) < 3:
        if sep:
            raise ValueError("short versions with a pre-release or build are not allowed")
        parts += ["0"] * (3 - len(parts))
    parts = [p.lstrip("0") or "0" if p.isdigit() else p for p in parts]
    return ".".join(parts) + sep + tail


def semver(text: str, normalize: bool = False) -> dict[str, Any]:
    if normalize:
        text = _normalize_semver(text)
    match = _SEMVER.match(text)
    if match is None:
        raise ValueError(f"Invalid semver: {text}")
    return _tagged(
        "kubernetes.Semver",
        major=int(match.group(1)),
        minor=int(match.group(2)),
        patch=int(match.group(3)),
        pre=match.group(4) or "",
    )


def is_semver(text: str, normalize: bool = False) -> bool:
    try:
        semver(text, normalize)
    except ValueError:
        return False
    return True


def _pre_key(pre: str) -> tuple[Any, ...]:
    if not pre:
        return (1,)
    return (0, tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre.split(".")))


def _semver_key(v: object) -> tuple[Any, ...]:
    v = _expect(v, "kubernetes.Semver")
    return (v["major"], v["minor"], v["patch"], _pre_key(v["pre"]))


# ---- comparisons shared by Quantity and Semver -------------------------------------------------------------


def compare_to(a: object, b: object) -> int:
    if isinstance(a, dict) and a.get(TAG) == "kubernetes.Semver":
        ka, kb = _semver_key(a), _semver_key(b)
        return (ka > kb) - (ka < kb)
    return _cmp(_qval(a), _qval(b))


def is_greater_than(a: object, b: object) -> bool:
    return compare_to(a, b) > 0


def is_less_than(a: object, b: object) -> bool:
    return compare_to(a, b) < 0


# ---- URLs --------------------------------------------------------------------------------------------------


def url(text: str) -> dict[str, Any]:
    parts = urllib.parse.urlsplit(text)
    if not (parts.scheme or text.startswith("/")) or " " in text:
        raise ValueError(
            f"URL parse error during conversion from string: parse {text!r}: invalid URI for request"
        )
    return _tagged("kubernetes.URL", url=text)


def is_url(text: str) -> bool:
    try:
        url(text)
    except ValueError:
        return False
    return True


def _split(u: object) -> urllib.parse.SplitResult:
    text: str = _expect(u, "kubernetes.URL")["url"]
    return urllib.parse.urlsplit(text)


def url_scheme(u: object) -> str:
    return _split(u).scheme


def url_host(u: object) -> str:
    return _split(u).netloc.rpartition("@")[2]


def url_hostname(u: object) -> str:
    host = url_host(u)
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if ":" in host else host


def url_port(u: object) -> str:
    host = url_host(u)
    tail = host.rpartition("]")[2] if host.startswith("[") else host
    return tail.rpartition(":")[2] if ":" in tail else ""


def url_path(u: object) -> str:
    return _split(u).path


def url_query(u: object) -> dict[str, list[str]]:
    return urllib.parse.parse_qs(_split(u).query, keep_blank_values=True)


# ---- IP and CIDR -------------------------------------------------------------------------------------------


def _parse_ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    if "%" in text:
        raise ValueError(f'IP address "{text}" with zone value is not allowed')
    try:
        addr = ipaddress.ip_address(text)
    except ValueError as exc:
        raise ValueError(f'IP Address "{text}" parse error during conversion from string: {exc}') from None
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        raise ValueError(f'IPv4-mapped IPv6 address "{text}" is not allowed')
    return addr


def ip(text: Any) -> dict[str, Any]:
    if isinstance(text, dict):  # CIDR.ip()
        return _tagged("net.IP", ip=_expect(text, "net.CIDR")["cidr"].partition("/")[0])
    return _tagged("net.IP", ip=str(_parse_ip(text)))


def is_ip(text: str) -> bool:
    try:
        _parse_ip(text)
    except ValueError:
        return False
    return True


def ip_is_canonical(text: str) -> bool:
    return str(_parse_ip(text)) == text


def _ip(v: object) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    return ipaddress.ip_address(_expect(v, "net.IP")["ip"])


def ip_family(v: object) -> int:
    return _ip(v).version


IP_PREDICATES = (
    "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast",
)


def ip_predicate(name: str) -> Any:
    def check(v: object) -> bool:
        addr = _ip(v)
        if name == "isUnspecified":
            return addr.is_unspecified
        if name == "isLoopback":
            return addr.is_loopback
        if name == "isLinkLocalMulticast":
            return addr.is_multicast and (
                addr in ipaddress.ip_network("224.0.0.0/24")
                if addr.version == 4
                else addr in ipaddress.ip_network("ff02::/16")
            )
        if name == "isLinkLocalUnicast":
            return addr.is_link_local and not addr.is_multicast
        return not (
            addr.is_unspecified
            or addr.is_loopback
            or addr.is_multicast
            or addr.is_link_local
            or addr == ipaddress.ip_address("255.255.255.255")
        )

    return check


def _parse_cidr(text: str) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, int]:
    address, sep, prefix = text.partition("/")
    try:
        if not sep or not prefix.isdigit():
            raise ValueError("no '/'")
        addr = _parse_ip(address)
        length = int(prefix)
        if length > addr.max_prefixlen:
            raise ValueError("bad prefix length")
    except ValueError as exc:
        raise ValueError(
            "network address parse error during conversion from string: network address parse "
            f"error during conversion from string: netip.ParsePrefix({text!r}): {exc}"
        ) from None
    return addr, length


def cidr(text: str) -> dict[str, Any]:
    addr, length = _parse_cidr(text)
    return _tagged("net.CIDR", cidr=f"{addr}/{length}")


def is_cidr(text: str) -> bool:
    try:
        _parse_cidr(text)
    except ValueError:
        return False
    return True


def _network(v: object) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    return ipaddress.ip_network(_expect(v, "net.CIDR")["cidr"], strict=False)


def cidr_contains_ip(v: object, other: object) -> bool:
    addr = _parse_ip(other) if isinstance(other, str) else _ip(other)
    return addr in _network(v)


def cidr_contains_cidr(v: object, other: object) -> bool:
    inner = _network(cidr(other) if isinstance(other, str) else other)
    outer = _network(v)
    return inner.version == outer.version and inner.subnet_of(outer)  # type: ignore[arg-type]  # one version: one class


def cidr_prefix_length(v: object) -> int:
    return _network(v).prefixlen


def cidr_masked(v: object) -> dict[str, Any]:
    return _tagged("net.CIDR", cidr=str(_network(v)))


# ---- named formats -----------------------------------------------------------------------------------------

_DNS1123_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?\Z")
_DNS1035_LABEL = re.compile(r"[a-z]([-a-z0-9]*[a-z0-9])?\Z")
_QUALIFIED_NAME = re.compile(r"([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\Z")
_LABEL_VALUE = re.compile(r"(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\Z")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z")


def _label(text: str, prefix: bool, pattern: re.Pattern[str], what: str, example: str) -> list[str]:
    errors = []
    if prefix and text.endswith("-"):
        text = text[:-1]
    if len(text) > 63:
        errors.append("must be no more than 63 characters")
    if not pattern.match(text):
        errors.append(
            f"a {what} must consist of lower case alphanumeric characters or '-', and must start and "
            f"end with an alphanumeric character (e.g. '{example}')"
        )
    return errors


def _subdomain(text: str, prefix: bool) -> list[str]:
    if prefix and text.endswith("-"):
        text = text[:-1]
    errors = []
    if len(text) > 253:
        errors.append("must be no more than 253 characters")
    if not all(_DNS1123_LABEL.match(part) for part in text.split(".")):
        errors.append(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
            "'.', and must start and end with an alphanumeric character (e.g. 'example.com')"
        )
    return errors


def _qualified(text: str) -> list[str]:
    prefix, slash, name = text.rpartition("/")
    errors = []
    if slash and not prefix:
        errors.append("prefix part must be non-empty")
    elif slash:
        errors.extend(f"prefix part {e}" for e in _subdomain(prefix, False))
    if not name:
        errors.append("name part must be non-empty")
    elif len(name) > 63:
        errors.append("name part must be no more than 63 characters")
    if name and not _QUALIFIED_NAME.match(name):
        errors.append(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and "
            "end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc')"
        )
    return errors


def _validate_named(name: str, text: str) -> list[str]:
    if name in ("dns1123Label", "dns1123LabelPrefix"):
        return _label(text, name.endswith("Prefix"), _DNS1123_LABEL, "lowercase RFC 1123 label", "my-name")
    if name in ("dns1035Label", "dns1035LabelPrefix"):
        return _label(text, name.endswith("Prefix"), _DNS1035_LABEL, "DNS-1035 label", "my-name")
    if name in ("dns1123Subdomain", "dns1123SubdomainPrefix"):
        return _subdomain(text, name.endswith("Prefix"))
    if name == "qualifiedName":
        return _qualified(text)
    if name == "labelValue":
        errors = ["must be no more than 63 characters"] if len(text) > 63 else []
        if not _LABEL_VALUE.match(text):
            errors.append(
                "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' "
                "or '.', and must start and end with an alphanumeric character"
            )
        return errors
    if name == "uri":
        return [] if is_url(text) else [f"parse {text!r}: invalid URI for request"]
    if name == "uuid":
        return [] if _UUID.match(text) else ["does not match the UUID format"]
    if name == "byte":
        try:
            base64.b64decode(text, validate=True)
        except ValueError:
            return ["invalid base64"]
        return []
    if name == "date":
        try:
            datetime.date.fromisoformat(text)
        except ValueError:
            return ["invalid date"]
        return [] if len(text) == 10 else ["invalid date"]
    if name == "datetime":
        try:
            datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return ["invalid datetime"]
        return []
    return []


FORMAT_NAMES = (
    "dns1123Label",
    "dns1123Subdomain",
    "dns1035Label",
    "qualifiedName",
    "dns1123LabelPrefix",
    "dns1123SubdomainPrefix",
    "dns1035LabelPrefix",
    "labelValue",
    "uri",
    "uuid",
    "byte",
    "date",
    "datetime",
)


def named_format(name: str) -> dict[str, Any]:
    return _tagged("kubernetes.NamedFormat", name=name)


def format_validate(fmt: Any, text: str) -> list[str] | None:
    """The messages for an invalid value; None (mapped to optional.none() by the caller) when valid."""
    errors = _validate_named(_expect(fmt, "kubernetes.NamedFormat")["name"], text)
    return errors or None
