from decimal import Decimal

import pytest

from wmaplint.resolve.quantities import QuantityError, format_quantity, parse_quantity, pod_resources


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("500m", Decimal("0.5")),
        ("4Gi", Decimal(4 * 2**30)),
        ("1e3", Decimal(1000)),
        (2, Decimal(2)),
        ("1.5", Decimal("1.5")),
        ("128M", Decimal(128_000_000)),
        ("0.5Ki", Decimal(512)),
        ("+3", Decimal(3)),
    ],
)
def test_kubernetes_quantities(text, value):
    assert parse_quantity(text) == value


@pytest.mark.parametrize("text", ["four", "4GB", "", "1e999", True, None, "1.2.3"])
def test_bad_quantities(text):
    with pytest.raises(QuantityError):
        parse_quantity(text)


def gpu(n):
    return {"resources": {"limits": {"nvidia.com/gpu": n}}}


def test_requests_win_over_limits_and_containers_add_up():
    spec = {
        "containers": [
            {"resources": {"requests": {"nvidia.com/gpu": 2}, "limits": {"nvidia.com/gpu": 4}}},
            gpu(1),
        ]
    }
    assert pod_resources(spec)[0]["nvidia.com/gpu"] == 3


def test_largest_init_container_or_running_sum_with_sidecars():
    spec = {"initContainers": [gpu(8), {**gpu(1), "restartPolicy": "Always"}], "containers": [gpu(2)]}
    # running: 2 + 1 sidecar = 3; init peak 8 -> 8
    assert pod_resources(spec)[0]["nvidia.com/gpu"] == 8
    spec["initContainers"][0] = gpu(1)
    assert pod_resources(spec)[0]["nvidia.com/gpu"] == 3


def test_pod_level_resources_replace_and_overhead_adds():
    spec = {
        "containers": [{"resources": {"requests": {"cpu": "2"}}}],
        "resources": {"requests": {"cpu": "4"}},
        "overhead": {"cpu": "250m"},
    }
    assert pod_resources(spec)[0]["cpu"] == Decimal("4.25")


def test_other_extended_resources_are_kept():
    spec = {"containers": [{"resources": {"limits": {"google.com/tpu": 4, "amd.com/gpu": "1"}}}]}
    assert pod_resources(spec)[0] == {"google.com/tpu": 4, "amd.com/gpu": 1}


def test_bad_quantity_is_reported_not_raised():
    resources, problems = pod_resources({"containers": [gpu("four")]})
    assert resources == {} and "four" in problems[0]


def test_formatting():
    assert format_quantity("cpu", Decimal("1.2")) == "1200m"
    assert format_quantity("memory", Decimal(192 * 2**30)) == "192Gi"


def test_long_memory_amounts_read_approximately_in_text_but_stay_exact_for_machines():
    from decimal import Decimal

    from wmaplint.resolve.quantities import format_quantity

    amount = Decimal(140625000 * 1024)
    assert format_quantity("memory", amount) == "140625000Ki"
    assert format_quantity("memory", amount, readable=True) == "~134.1Gi"
    assert format_quantity("memory", Decimal(384 * 2**30), readable=True) == "384Gi"


# -- numbers of any size (hostile inputs: no traceback, a finding or a value) -------------------------------
@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("99999999999999999999Ei", "larger than 2^63-1"),
        pytest.param("9" * 4301, "larger than 2^63-1", id="text-4301-digits"),
        # what a YAML loader makes of a 4,302-digit integer (str() of it raises, so the id is given)
        pytest.param(10**4301, "larger than 2^63-1", id="int-4302-digits"),
        ("1e30", "larger than 2^63-1"),
        ("1e" + "9" * 50, "exponent out of range"),
        ("-3", "negative"),
        (-1, "negative"),
        (float("nan"), "not a quantity"),
        (float("inf"), "not a quantity"),
    ],
)
def test_quantities_outside_kubernetes_bounds_are_problems(value, message):
    resources, problems = pod_resources({"containers": [{"resources": {"limits": {"cpu": value}}}]})
    assert resources == {}
    assert len(problems) == 1 and message in problems[0]


def test_the_largest_quantity_and_nano_precision():
    assert parse_quantity(str(2**63 - 1)) == Decimal(2**63 - 1)
    assert parse_quantity(2**63 - 1) == Decimal(2**63 - 1)
    assert parse_quantity("1e-30") == Decimal("1e-9")  # finer than nano rounds up
    assert parse_quantity("1.0000000001") == Decimal("1.000000001")


def test_huge_amounts_format_approximately_and_never_raise():
    from wmaplint.resolve.quantities import format_count, format_number

    huge = Decimal(2**63 - 1) * (2**31 - 1) ** 40
    for name in ("cpu", "memory", "nvidia.com/gpu", "hugepages-2Mi"):
        assert format_quantity(name, huge).startswith("~")
        assert format_quantity(name, huge, readable=True).startswith("~")
    assert format_number(huge).startswith("~")
    assert format_count(2 ** (31 * 300)).startswith("~")
    assert format_count(12) == "12"


def test_accelerators_are_known_by_resource_name():
    from wmaplint.resolve.quantities import is_accelerator

    for name in ("nvidia.com/gpu", "google.com/tpu", "amd.com/gpu", "gpu.intel.com/xe", "nvidia.com/mig-1g"):
        assert is_accelerator(name)
    for name in ("cpu", "memory", "rdma/roce_gdr", "ephemeral-storage", "example.com/foo"):
        assert not is_accelerator(name)


def test_dynamo_resource_words_are_split_from_the_kubernetes_shape():
    from wmaplint.resolve.quantities import split_framework_words

    requests = {"gpu": "1", "gpuType": "amd.com/gpu", "custom": {"ephemeral-storage": "2Gi"}}
    kubernetes, words = split_framework_words({"limits": {"gpu": "2", "cpu": "4"}, "requests": requests})
    assert kubernetes == {"limits": {"cpu": "4"}, "requests": {}}
    assert words == {
        "limits": {"nvidia.com/gpu": "2"},
        "requests": {"amd.com/gpu": "1", "ephemeral-storage": "2Gi"},
    }
    assert split_framework_words({"limits": {"nvidia.com/gpu": 1}}) == ({"limits": {"nvidia.com/gpu": 1}}, {})



def test_a_short_quantity_text_is_parsed_once_and_a_bad_one_fails_every_time():
    from wmaplint.resolve.quantities import _text_quantity

    _text_quantity.cache_clear()
    assert parse_quantity("1Gi") == parse_quantity(" 1Gi") - 0 == Decimal(1 << 30)
    assert parse_quantity("1Gi") is parse_quantity("1Gi")  # the second is the first's, read back
    for _ in range(2):
        with pytest.raises(QuantityError, match="'12x' is not a quantity"):
            parse_quantity("12x")
    long = " " * 70 + "500m"  # beyond the short texts remembered: parsed every time, same answer
    assert parse_quantity(long) == Decimal("0.5") and _text_quantity.cache_info().currsize == 2
