"""Type-check every validation rule (``x-kubernetes-validations`` entry) of a CRD document (K8S_CEL.md §1,
§3, §4.1)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from wmaplint.cel import types as t
from wmaplint.cel.issues import (
    CelFinding,
    CelIssue,
    MessageExpressionError,
    Pointer,
    ValidationCostExceeded,
    ValidationRuleCompileError,
    ValidationRuleFieldInvalid,
)
from wmaplint.dataclass import dataclass, replace
from wmaplint.schema.raw import RawSchema, RefResolver

if TYPE_CHECKING:
    from wmaplint.source import Document


MAX_SCHEMA_NODES = 200_000
_REASONS = ("FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate")


@dataclass
class ValidationRuleSite:
    """One validation rule and where it sits."""

    schema: RawSchema
    index: int
    rule: RawSchema
    pointer: Pointer  # to the x-kubernetes-validations entry
    self_type: t.CelType
    cardinality_bounds: list[int | None]
    data_path: tuple[str, ...]  # property names / "[]" / "{}" from the schema root
    uncorrelatable: bool


def walk_validation_rules(
    schema: RawSchema, pointer: Pointer, types: t.SchemaTypes, root: bool = True
) -> Iterator[ValidationRuleSite]:
    """Every validation rule on the structural spine (properties, items, additionalProperties), walked
    iteratively."""
    stack: list[tuple[Any, Pointer, list[int | None], tuple[str, ...], bool, bool]] = [
        (schema, pointer, [], (), root, False)
    ]
    visited = 0
    while stack and visited < MAX_SCHEMA_NODES:
        node, ptr, bounds, data_path, is_root, uncorrelatable = stack.pop()
        visited += 1
        resolved = types.resolve(node)
        if resolved is None:
            continue
        rules = resolved.get("x-kubernetes-validations")
        if isinstance(rules, list) and rules:
            self_type = types.type_of(resolved, "selfType", embedded_root=is_root)
            for index, rule in enumerate(rules):
                if isinstance(rule, Mapping):
                    yield ValidationRuleSite(
                        resolved,
                        index,
                        rule,
                        (*ptr, "x-kubernetes-validations", index),
                        self_type if self_type is not None else t.DYN,
                        bounds,
                        data_path,
                        uncorrelatable,
                    )
        children = []
        props = resolved.get("properties")
        if isinstance(props, Mapping):
            for name, sub in props.items():
                if is_root and name == "metadata":
                    continue
                children.append(
                    (sub, (*ptr, "properties", name), bounds, (*data_path, str(name)), uncorrelatable)
                )
        items = resolved.get("items")
        if isinstance(items, Mapping):
            max_items = resolved.get("maxItems")
            list_type = resolved.get("x-kubernetes-list-type")
            children.append(
                (
                    items,
                    (*ptr, "items"),
                    [*bounds, max_items if isinstance(max_items, int) else None],
                    (*data_path, "[]"),
                    uncorrelatable or list_type != "map",
                )
            )
        extra = resolved.get("additionalProperties")
        if isinstance(extra, Mapping):
            max_props = resolved.get("maxProperties")
            children.append(
                (
                    extra,
                    (*ptr, "additionalProperties"),
                    [*bounds, max_props if isinstance(max_props, int) else None],
                    (*data_path, "{}"),
                    uncorrelatable,
                )
            )
        for sub, sub_ptr, sub_bounds, sub_path, sub_unc in reversed(children):
            embedded = isinstance(sub, Mapping) and sub.get("x-kubernetes-embedded-resource") is True
            stack.append((sub, sub_ptr, sub_bounds, sub_path, embedded, sub_unc))


def crd_schemas(doc: RawSchema) -> Iterator[tuple[RawSchema, Pointer]]:
    """The openAPIV3Schema subtrees of a CRD (per version, and the legacy top-level ``validation``)."""
    spec = doc.get("spec") if isinstance(doc, Mapping) else None
    if not isinstance(spec, Mapping):
        return
    versions = spec.get("versions")
    if isinstance(versions, list):
        for i, version in enumerate(versions):
            schema = version.get("schema") if isinstance(version, Mapping) else None
            open_api = schema.get("openAPIV3Schema") if isinstance(schema, Mapping) else None
            if isinstance(open_api, Mapping):
                yield open_api, ("spec", "versions", i, "schema", "openAPIV3Schema")
    validation = spec.get("validation")
    open_api = validation.get("openAPIV3Schema") if isinstance(validation, Mapping) else None
    if isinstance(open_api, Mapping):
        yield open_api, ("spec", "validation", "openAPIV3Schema")


def check_crd(doc: dict[str, Any]) -> list[CelIssue]:
    """Type-check all validation rules and messageExpressions of one CRD document; never raises on bad
    input."""
    issues: list[CelIssue] = []
    if not isinstance(doc, Mapping):
        return issues
    for schema, pointer in crd_schemas(doc):
        issues.extend(check_schema(schema, pointer, root=True))
    return issues


def check_schema(
    schema: RawSchema,
    pointer: Pointer = (),
    *,
    root: bool = True,
    resolve_ref: RefResolver | None = None,
) -> list[CelIssue]:
    from wmaplint.cel.checker import check_expression, describe
    from wmaplint.cel.cost import (
        STATIC_CRD_LIMIT,
        STATIC_RULE_LIMIT,
        cardinality_for,
        estimate_cost,
        exceed_factor,
    )

    issues: list[CelIssue] = []
    types = t.SchemaTypes(resolve_ref)
    total_cost = 0
    contributors: list[tuple[int, Pointer, str]] = []
    for site in walk_validation_rules(schema, pointer, types, root):
        rule_text = site.rule.get("rule")
        rule_ptr = (*site.pointer, "rule")
        if not isinstance(rule_text, str) or not rule_text.strip():
            issues.append(
                CelIssue(ValidationRuleFieldInvalid, "rule is not specified", rule_ptr,
                         expression=str(rule_text or ""))
            )
            continue
        issues.extend(_field_issues(site, rule_text))
        old_type: t.CelType = (
            t.optional_of(site.self_type) if site.rule.get("optionalOldSelf") is True else site.self_type
        )
        variables = {"self": site.self_type, "oldSelf": old_type}
        result = check_expression(rule_text, variables, "bool")
        for problem in result.problems:
            issues.append(
                CelIssue(
                    ValidationRuleCompileError,
                    f"compilation failed: {describe(problem, rule_text)}"
                    if problem.kind != "output"
                    else problem.message,
                    rule_ptr,
                    offset=problem.offset,
                    expression=rule_text,
                )
            )
        if result.ok and result.uses_old_self and site.uncorrelatable:
            issues.append(
                CelIssue(
                    ValidationRuleFieldInvalid,
                    "oldSelf cannot be used on the uncorrelatable portion of the schema "
                    "(under a list that is not x-kubernetes-list-type: map)",
                    rule_ptr,
                    expression=rule_text,
                )
            )
        if site.rule.get("optionalOldSelf") is True and result.ok and not result.uses_old_self:
            issues.append(
                CelIssue(
                    ValidationRuleFieldInvalid,
                    "optionalOldSelf may not be set if oldSelf is not used in rule",
                    (*site.pointer, "optionalOldSelf"),
                    expression=rule_text,
                )
            )
        if result.ok and result.compiled is not None and result.compiled.ast is not None:
            cost = estimate_cost(result.compiled.ast, result.node_types)
            cardinality = cardinality_for(site.cardinality_bounds, site.self_type)
            weighted = min(cost * cardinality, 2**64 - 1)
            total_cost += weighted
            contributors.append((weighted, rule_ptr, rule_text))
            if weighted > STATIC_RULE_LIMIT:
                issues.append(
                    CelIssue(
                        ValidationCostExceeded,
                        f"estimated rule cost exceeds budget by factor of "
                        f"{exceed_factor(weighted, STATIC_RULE_LIMIT)} (try simplifying the rule, or "
                        "adding maxItems, maxProperties, and maxLength where arrays, maps, and "
                        "strings are declared)",
                        rule_ptr,
                        expression=rule_text,
                    )
                )
        message_expression = site.rule.get("messageExpression")
        if message_expression is not None:
            msg_ptr = (*site.pointer, "messageExpression")
            if not isinstance(message_expression, str) or not message_expression.strip():
                issues.append(
                    CelIssue(
                        MessageExpressionError,
                        "messageExpression must be non-empty if specified",
                        msg_ptr,
                        expression=str(message_expression),
                    )
                )
                continue
            msg_result = check_expression(message_expression, variables, "string")
            for problem in msg_result.problems:
                text = (
                    problem.message
                    if problem.kind == "output"
                    else f"messageExpression compilation failed: {describe(problem, message_expression)}"
                )
                if problem.kind == "output":
                    text = "messageExpression must evaluate to a string"
                issues.append(
                    CelIssue(
                        MessageExpressionError,
                        text,
                        msg_ptr,
                        offset=problem.offset,
                        expression=message_expression,
                    )
                )
            if msg_result.ok and msg_result.compiled is not None and msg_result.compiled.ast is not None:
                msg_cost = estimate_cost(msg_result.compiled.ast, msg_result.node_types)
                total_cost += msg_cost
                if msg_cost > STATIC_RULE_LIMIT:
                    issues.append(
                        CelIssue(
                            ValidationCostExceeded,
                            "estimated messageExpression cost exceeds budget by "
                            f"factor of {exceed_factor(msg_cost, STATIC_RULE_LIMIT)}",
                            msg_ptr,
                            expression=message_expression,
                        )
                    )
    if total_cost > STATIC_CRD_LIMIT:
        issues.append(
            CelIssue(
                ValidationCostExceeded,
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds "
                f"budget by factor of {exceed_factor(total_cost, STATIC_CRD_LIMIT)}",
                pointer,
            )
        )
    return issues


def _field_issues(site: ValidationRuleSite, rule_text: str) -> list[CelIssue]:
    issues = []
    message = site.rule.get("message")
    if ("\n" in rule_text.strip() or "\r" in rule_text.strip()) and not message:
        issues.append(
            CelIssue(
                ValidationRuleFieldInvalid,
                "message must be specified if rule contains line breaks",
                (*site.pointer, "rule"),
                expression=rule_text,
            )
        )
    if message is not None and (not isinstance(message, str) or not message.strip()):
        issues.append(
            CelIssue(ValidationRuleFieldInvalid, "message must be non-empty if specified",
                     (*site.pointer, "message"))
        )
    elif isinstance(message, str) and ("\n" in message.strip() or "\r" in message.strip()):
        issues.append(
            CelIssue(ValidationRuleFieldInvalid, "message must not contain line breaks",
                     (*site.pointer, "message"))
        )
    reason = site.rule.get("reason")
    if reason is not None and reason not in _REASONS:
        issues.append(
            CelIssue(
                ValidationRuleFieldInvalid,
                f"Unsupported value: {reason!r}: supported values: " + ", ".join(f'"{r}"' for r in _REASONS),
                (*site.pointer, "reason"),
            )
        )
    return issues


def crd_findings(path: str, document: Document) -> list[CelFinding]:
    """What type-checking finds in the validation rules of a CRD document, placed in its file ``path``: at
    the character a problem has a position at, else at the offending value (the document's start when it is
    gone)."""
    from wmaplint.diagnostics import Span
    from wmaplint.source import ScalarNode, find_node, to_python

    findings = []
    for issue in check_crd(to_python(document.root)):
        node = find_node(document.root, issue.pointer)
        if isinstance(node, ScalarNode) and issue.offset is not None:
            span = node.span_of(issue.offset, issue.offset + 1)
        elif node is not None:
            span = node.span
        else:
            root = document.root.span  # type: ignore[union-attr]  # a CRD document has a root
            span = Span(root.start_line, root.start_col, root.start_line, root.start_col + 1)
        data = {"expression": issue.expression} if issue.expression else None
        findings.append(replace(issue, message=_one_line(issue.message)).at(path, span, data=data))
    return findings


def _one_line(message: str) -> str:
    """cel-go style messages carry the expression and a caret on extra lines; the span already shows them."""
    first = message.splitlines()[0] if message else message
    marker = first.rfind("<input>:")
    if marker >= 0:
        rest = first[marker:].split(": ", 1)
        if len(rest) == 2 and "ERROR:" in first:
            first = first[:first.find("ERROR:")].strip() + " " + rest[1]
    return first.strip()
