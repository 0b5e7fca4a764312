"""Pod resource accounting: Kubernetes quantities and per-pod requests, counted the way the workload CLI does.

Per resource name, a container asks for its request, else its limit. A pod asks for
max(largest init container, sum of containers + restartable (sidecar) init containers); pod-level
``spec.resources`` replaces that when it names the resource; ``spec.overhead`` is added on top.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

GPU = "nvidia.com/gpu"

_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {
    "n": Decimal("1e-9"),
    "u": Decimal("1e-6"),
    "m": Decimal("1e-3"),
    "": Decimal(1),
    "k": Decimal("1e3"),
    "M": Decimal("1e6"),
    "G": Decimal("1e9"),
    "T": Decimal("1e12"),
    "P": Decimal("1e15"),
    "E": Decimal("1e18"),
}
_QUANTITY = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$")
_MAX_EXPONENT = 30


class QuantityError(ValueError):
    """A value that is not a Kubernetes quantity."""


def parse_quantity(value: Any) -> Decimal:
    """A Kubernetes resource quantity ("500m", "4Gi", "1e3", 2) as an exact Decimal."""
    if isinstance(value, bool) or value is None:
        raise QuantityError(f"{value!r} is not a quantity")
    if isinstance(value, (int, float)):
        return Decimal(str(value))
    text = str(value).strip()
    match = _QUANTITY.match(text)
    if not match:
        raise QuantityError(f"{text!r} is not a quantity")
    number, exponent, suffix = match.groups()
    try:
        amount = Decimal(number)
        if exponent:
            power = int(exponent[1:])
            if abs(power) > _MAX_EXPONENT:
                raise QuantityError(f"{text!r}: exponent out of range")
            return amount.scaleb(power)
    except InvalidOperation as exc:
        raise QuantityError(f"{text!r} is not a quantity") from exc
    if suffix in _BINARY:
        return amount * _BINARY[suffix]
    return amount * _DECIMAL[suffix or ""]


Resources = dict[str, Decimal]


def _container_asks(container: Any, problems: list[str]) -> Resources:
    if not isinstance(container, Mapping):
        return {}
    resources = container.get("resources")
    return _requirements(resources, problems)


def _requirements(resources: Any, problems: list[str]) -> Resources:
    """requests, else limits, per resource name, of a ResourceRequirements."""
    if not isinstance(resources, Mapping):
        return {}
    asks: Resources = {}
    for section in ("limits", "requests"):  # requests override limits
        values = resources.get(section)
        if not isinstance(values, Mapping):
            continue
        for name, raw in values.items():
            try:
                asks[str(name)] = parse_quantity(raw)
            except QuantityError as exc:
                problems.append(f"{section}.{name}: {exc}")
    return asks


def _add(total: Resources, more: Mapping[str, Decimal]) -> None:
    for name, amount in more.items():
        total[name] = total.get(name, Decimal(0)) + amount


def _max(total: Resources, more: Mapping[str, Decimal]) -> None:
    for name, amount in more.items():
        if amount > total.get(name, Decimal(0)):
            total[name] = amount


def _containers(value: Any) -> Iterable[Any]:
    return value if isinstance(value, list) else ()


def pod_resources(pod_spec: Any) -> tuple[Resources, list[str]]:
    """What one pod of this PodSpec asks for, and quantity problems met on the way."""
    problems: list[str] = []
    if not isinstance(pod_spec, Mapping):
        return {}, problems
    running: Resources = {}
    for container in _containers(pod_spec.get("containers")):
        _add(running, _container_asks(container, problems))
    largest_init: Resources = {}
    for container in _containers(pod_spec.get("initContainers")):
        asks = _container_asks(container, problems)
        if isinstance(container, Mapping) and container.get("restartPolicy") == "Always":
            _add(running, asks)  # a sidecar keeps running beside the main containers
        else:
            _max(largest_init, asks)
    total: Resources = dict(running)
    _max(total, largest_init)
    for name, amount in _requirements(pod_spec.get("resources"), problems).items():
        total[name] = amount  # pod-level resources replace the container sum
    overhead = pod_spec.get("overhead")
    if isinstance(overhead, Mapping):
        for name, raw in overhead.items():
            try:
                _add(total, {str(name): parse_quantity(raw)})
            except QuantityError as exc:
                problems.append(f"overhead.{name}: {exc}")
    return total, problems


def scaled(resources: Mapping[str, Decimal], factor: int) -> Resources:
    return {name: amount * factor for name, amount in resources.items()}


def summed(parts: Iterable[Mapping[str, Decimal]]) -> Resources:
    total: Resources = {}
    for part in parts:
        _add(total, part)
    return total


def format_number(amount: Decimal) -> int | float:
    """An exact count as int, a fractional one as float (for JSON)."""
    if amount == amount.to_integral_value():
        return int(amount)
    return float(amount)


def format_cpu(amount: Decimal) -> str:
    if amount == amount.to_integral_value():
        return str(int(amount))
    millis = amount * 1000
    if millis == millis.to_integral_value():
        return f"{int(millis)}m"
    return str(amount.normalize())


def format_memory(amount: Decimal) -> str:
    for suffix in ("Ei", "Pi", "Ti", "Gi", "Mi", "Ki"):
        unit = _BINARY[suffix]
        if amount >= unit and amount % unit == 0:
            return f"{int(amount / unit)}{suffix}"
    for suffix in ("E", "P", "T", "G", "M", "k"):
        decimal_unit = _DECIMAL[suffix]
        if amount >= decimal_unit and amount % decimal_unit == 0:
            return f"{int(amount / decimal_unit)}{suffix}"
    return str(format_number(amount))


def readable_memory(amount: Decimal) -> str:
    """For people: the exact quantity when it is short, else about so much in the largest binary unit."""
    exact = format_memory(amount)
    if len(exact.rstrip("EPTGMKik")) <= 4:
        return exact
    for suffix in ("Ei", "Pi", "Ti", "Gi", "Mi", "Ki"):
        if amount >= _BINARY[suffix]:
            return f"~{amount / _BINARY[suffix]:.1f}{suffix}"
    return exact


def format_quantity(name: str, amount: Decimal, *, readable: bool = False) -> str:
    """A Kubernetes quantity string (exact); ``readable`` shortens long memory amounts for text output."""
    if name == "cpu":
        return format_cpu(amount)
    if name in ("memory", "ephemeral-storage") or name.startswith("hugepages-"):
        return readable_memory(amount) if readable else format_memory(amount)
    return str(format_number(amount))
