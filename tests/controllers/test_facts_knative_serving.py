"""Facts of the Knative Serving controller model (schemas/controllers/knative-serving.yaml), each shown on a
real catalog definition, example or recorded object: the outcome that changed with the fact. Knative
Serving: the pods right after a rollout, initial-scale but never below min-scale."""

from __future__ import annotations

from .helpers import (
    example,
    pods_by_component,
)


def test_knative_pods_follow_min_scale() -> None:
    manifest = example("serving-knative-dev-service-v1/gpu-inference.yaml")
    assert manifest["spec"]["template"]["metadata"]["annotations"]["autoscaling.knative.dev/min-scale"] == "2"
    assert pods_by_component(manifest)["pod"] == 2


def test_knative_reads_the_older_camel_case_key_too() -> None:
    manifest = example("serving-knative-dev-service-v1/gpu-inference.yaml")
    annotations = manifest["spec"]["template"]["metadata"]["annotations"]
    annotations["autoscaling.knative.dev/minScale"] = annotations.pop("autoscaling.knative.dev/min-scale")
    assert pods_by_component(manifest)["pod"] == 2
