"""groupByExpressions against the Pod type, rule registrations and lazy imports."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import yaml
from cel_rule_ids import rule_of

from wmaplint.cel import check_crd, check_pod_expression
from wmaplint.rules.cel import (
    cel_cost_exceeded,
    cel_message_expression_error,
    cel_rule_compile_error,
    cel_rule_field_invalid,
)
from wmaplint.schema.raw import definitions


def _pod(core_openapi: dict[str, Any]) -> tuple[Any, Any]:
    named = core_openapi["components"]["schemas"]
    return named["io.k8s.api.core.v1.Pod"], definitions(named)


def test_pod_expressions_type_check(core_openapi: dict[str, Any]) -> None:
    pod, resolve = _pod(core_openapi)
    for good in [
        'self.metadata.labels["jobset.sigs.k8s.io/jobset-name"]',
        "pod.metadata.ownerReferences[0].name",
        'self.spec.containers[0].resources.limits["nvidia.com/gpu"]',
        "string(self.spec.containers.size())",
    ]:
        assert check_pod_expression(good, pod, resolve) == [], good
    [issue] = check_pod_expression("self.metadata.label['app']", pod, resolve, ("groupByExpressions", 0))
    assert rule_of(issue) == "WM605" and "undefined field 'label'" in issue.message
    assert issue.pointer == ("groupByExpressions", 0)
    [issue] = check_pod_expression("self.spec.nodeName.name", pod, resolve)
    assert "type 'string' does not support field selection" in issue.message
    assert check_pod_expression("self.metadata.labels[", pod, resolve)[0].message.startswith(
        "compilation failed: ERROR: <input>:1:22: Syntax error"
    )


def test_crd_rule_examples_behave_as_documented() -> None:
    for module in (cel_rule_compile_error, cel_message_expression_error, cel_cost_exceeded,
                   cel_rule_field_invalid):
        rule = module.RULE
        assert rule.id in {rule_of(i) for i in check_crd(yaml.safe_load(rule.bad))}, rule.id
        assert rule.id not in {rule_of(i) for i in check_crd(yaml.safe_load(rule.good))}, rule.id


def test_package_import_stays_light() -> None:
    code = "import sys, wmaplint.cel; assert 'cel_expr_python' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
