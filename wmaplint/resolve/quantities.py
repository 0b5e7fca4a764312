"""Pod resource accounting: Kubernetes quantities and per-pod requests, counted the way the workload CLI does.

Per resource name, a container asks for its request, else its limit. A pod asks for
max(largest init container, sum of containers + restartable (sidecar) init containers); pod-level
``spec.resources`` replaces that when it names the resource; ``spec.overhead`` is added on top.

Quantities follow Kubernetes' own bounds: no quantity represents more than 2^63-1 (the API server caps
larger ones), none is negative in a resource request, and precision ends at the nano unit (finer values
round up). Anything else is reported as a problem and not counted, so sums stay finite and printable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import ROUND_CEILING, Decimal, InvalidOperation, localcontext
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.plural import plural

if TYPE_CHECKING:
    from wmaplint.resolve.model import Workload
    from wmaplint.source.plain import Json

GPU = "nvidia.com/gpu"

# Extended resources that are accelerators: totals name them ("32 google.com/tpu") next to the GPU count.
_ACCELERATOR_NAMES = {
    "amd.com/gpu",
    "google.com/tpu",
    "habana.ai/gaudi",
    "aws.amazon.com/neuron",
    "aws.amazon.com/neuroncore",
    "aws.amazon.com/neurondevice",
}
_ACCELERATOR_PREFIXES = ("nvidia.com/mig-", "gpu.intel.com/")

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
MAX_QUANTITY = Decimal(2**63 - 1)  # Kubernetes caps every quantity here
_NANO = Decimal("1e-9")
_EXACT_DIGITS = 24  # amounts of 10^24 or more (products of absurd replica counts) are shown approximately


def is_accelerator(name: str) -> bool:
    return name == GPU or name in _ACCELERATOR_NAMES or name.startswith(_ACCELERATOR_PREFIXES)


class QuantityError(ValueError):
    """A value that is not a Kubernetes quantity."""


def parse_quantity(value: Json) -> Decimal:
    """A Kubernetes resource quantity ("500m", "4Gi", "1e3", 2) as an exact Decimal, rounded up to the nano
    unit; QuantityError for anything else, for negative amounts and for amounts above 2^63-1."""
    if isinstance(value, bool) or value is None:
        raise QuantityError(f"{value!r} is not a quantity")
    if isinstance(value, int):
        if value.bit_length() > 64:
            raise QuantityError(f"{_short(value)} is larger than 2^63-1, the largest Kubernetes quantity")
        amount = Decimal(value)
    elif isinstance(value, float):
        amount = Decimal(str(value))
    else:
        text = str(value)
        return _text_quantity(text) if len(text) <= 64 else _checked(_parse_text(text.strip()), text)
    return _checked(amount, value)


@memo.lru_cache(maxsize=4096, pure=True)
def _text_quantity(text: str) -> Decimal:
    """``parse_quantity`` of a short text, once a process for each: a thousand manifests ask for "1Gi" and
    "500m" thousands of times. A Decimal is immutable; an error is raised again on every call."""
    return _checked(_parse_text(text.strip()), text)


def _checked(amount: Decimal, value: Json) -> Decimal:
    if not amount.is_finite():
        raise QuantityError(f"{_short(value)} is not a quantity")
    if amount < 0:
        raise QuantityError(f"{_short(value)} is negative; Kubernetes rejects negative resource amounts")
    if amount > MAX_QUANTITY:
        raise QuantityError(f"{_short(value)} is larger than 2^63-1, the largest Kubernetes quantity")
    with localcontext() as context:
        context.prec = 60  # exact for every amount up to 2^63 at nano precision
        if amount % _NANO:
            amount = amount.quantize(_NANO, rounding=ROUND_CEILING)
    return amount


def _parse_text(text: str) -> Decimal:
    match = _QUANTITY.match(text)
    if not match:
        raise QuantityError(f"{_short(text)!r} is not a quantity")
    number, exponent, suffix = match.groups()
    try:
        amount = Decimal(number)
    except InvalidOperation as exc:
        raise QuantityError(f"{_short(text)!r} is not a quantity") from exc
    if exponent:
        if len(exponent) > 5:
            raise QuantityError(f"{_short(text)!r}: exponent out of range")
        power = int(exponent[1:])
        if abs(power) > _MAX_EXPONENT:
            raise QuantityError(f"{text!r}: exponent out of range")
        return amount.scaleb(power)
    if suffix in _BINARY:
        return amount * _BINARY[suffix]
    return amount * _DECIMAL[suffix or ""]


def _short(value: Json) -> str:
    if isinstance(value, int) and value.bit_length() > 200:
        return f"a {value.bit_length()}-bit number"
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


Resources = dict[str, Decimal]


def _container_asks(container: object, problems: list[str]) -> Resources:
    if not isinstance(container, Mapping):
        return {}
    resources = container.get("resources")
    return requirements(resources, problems)


def requirements(resources: Json, problems: list[str]) -> Resources:
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


# NVIDIA Dynamo's own resource shape (DynamoGraphDeployment v1alpha1 `resources`): limits/requests where `gpu`
# counts devices of the resource `gpuType` names (default nvidia.com/gpu) and `custom` holds further resources
# by name. Kubernetes rejects these keys in a ResourceRequirements, so a platform reading the shape as one
# sees none of these asks.
FRAMEWORK_GPU_KEYS = ("gpu", "gpuType", "custom")


def _framework_asks(values: Mapping[Any, Any]) -> dict[str, Any]:
    asked: dict[str, Any] = {str(k): v for k, v in values.items() if k not in FRAMEWORK_GPU_KEYS}
    if "gpu" in values:
        device = values.get("gpuType")
        asked[device if isinstance(device, str) and device.strip() else GPU] = values["gpu"]
    custom = values.get("custom")
    if isinstance(custom, Mapping):
        asked.update({str(name): amount for name, amount in custom.items()})
    return asked


def split_framework_words(resources: Json) -> tuple[Any, dict[str, Any]]:
    """The Kubernetes part of a resources value, and {"limits"/"requests": {resource name: amount}} of what it
    asks for in the framework's words."""
    if not isinstance(resources, Mapping):
        return resources, {}
    kubernetes: dict[str, Any] = dict(resources)
    words: dict[str, Any] = {}
    for section in ("limits", "requests"):
        values = resources.get(section)
        if not isinstance(values, Mapping) or not any(k in values for k in FRAMEWORK_GPU_KEYS):
            continue
        kubernetes[section] = {k: v for k, v in values.items() if k not in FRAMEWORK_GPU_KEYS}
        asked = _framework_asks(values)
        words[section] = {k: v for k, v in asked.items() if k not in kubernetes[section]}
    return kubernetes, words


def _add(total: Resources, more: Mapping[str, Decimal]) -> None:
    for name, amount in more.items():
        total[name] = total.get(name, Decimal(0)) + amount


def _max(total: Resources, more: Mapping[str, Decimal]) -> None:
    for name, amount in more.items():
        if amount > total.get(name, Decimal(0)):
            total[name] = amount


def _containers(value: Json) -> Iterable[Any]:
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
    for name, amount in requirements(pod_spec.get("resources"), problems).items():
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


def _huge(amount: Decimal) -> bool:
    return amount.is_finite() and amount != 0 and amount.adjusted() >= _EXACT_DIGITS


def _approximate(amount: Decimal) -> str:
    return f"~{amount:.3g}"


def format_number(amount: Decimal) -> int | float | str:
    """An exact count as int, a fractional one as float (for JSON); an amount beyond any real cluster
    (10^24 or more, only reachable by multiplying absurd replica counts) as its approximate text."""
    if _huge(amount):
        return _approximate(amount)
    if amount == amount.to_integral_value():
        return int(amount)
    return float(amount)


def format_count(count: int) -> str:
    """A pod count for people: exact below 10^24, approximate above."""
    return str(count) if count < 10**_EXACT_DIGITS else _approximate(Decimal(count))


def format_amount(amount: Decimal) -> str:
    """An amount for people: JSON's number (``format_number``) but a fraction in decimals, 0.00001 and not
    the float's 1e-05."""
    number = format_number(amount)
    return format(amount.normalize(), "f") if isinstance(number, float) else str(number)


def counted(count: int | Decimal, word: str) -> str:
    """A count of pods or an amount of a resource and its noun: 1 GPU, 0.5 GPUs, ~1.2e+30 pods."""
    return plural(count, word, format_count(count) if isinstance(count, int) else format_amount(count))


def format_cpu(amount: Decimal) -> str:
    if _huge(amount):
        return _approximate(amount)
    if amount == amount.to_integral_value():
        return str(int(amount))
    millis = amount * 1000
    if millis == millis.to_integral_value():
        return f"{int(millis)}m"
    return str(amount.normalize())


def format_memory(amount: Decimal) -> str:
    if _huge(amount):
        return _approximate(amount)
    with localcontext() as context:
        context.prec = 60  # exact remainders for every amount below 10^24 at nano precision
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
    if exact.startswith("~") or len(exact.rstrip("EPTGMKik")) <= 4:
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


def gpu_count(resources: dict[str, Decimal]) -> int | float | str:
    return format_number(resources.get(GPU, Decimal(0)))


def quantities(resources: dict[str, Decimal]) -> dict[str, str]:
    return {name: format_quantity(name, amount) for name, amount in sorted(resources.items())}


def totals(workload: Workload) -> dict[str, Any]:
    """What a workload asks for in all, as the JSON tree shows it and a suite case's expectations name it."""
    resources = workload.total_resources
    return {
        "pods": workload.total_pods,
        "gpus": gpu_count(resources),
        "cpu": format_quantity("cpu", resources["cpu"]) if "cpu" in resources else None,
        "memory": format_quantity("memory", resources["memory"]) if "memory" in resources else None,
        "accelerators": {
            name: format_number(amount) for name, amount in sorted(resources.items()) if is_accelerator(name)
        },
        "resources": quantities(resources),
        # counted above, but asked for in the framework's own fields: a platform reading the definition
        # does not see these
        "unseenByPlatform": quantities(workload.total_unseen),
    }


def platform_gpus(workload: Workload) -> int | float | str:
    """The GPUs a platform reading the definition counts: the totals without those it does not see."""
    zero = Decimal(0)
    return format_number(workload.total_resources.get(GPU, zero) - workload.total_unseen.get(GPU, zero))
