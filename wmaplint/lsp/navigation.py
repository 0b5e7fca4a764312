"""Go to definition (component references) and document symbols (component tree, gang groups)."""

from __future__ import annotations

from lsprotocol import types as lsp

from wmaplint.definition.model import Component, Definition
from wmaplint.lsp.snapshot import Snapshot
from wmaplint.source import MappingNode, Node, ScalarNode, SequenceNode, find_node


def _references(definition: Definition) -> list[Node]:
    refs: list[Node] = [c.owner_ref_node for c in definition.children if c.owner_ref_node is not None]
    refs += [m.component_node for m in definition.gang_members if m.component_node is not None]
    refs += [s.component_node for s in definition.subgroup_refs if s.component_node is not None]
    return refs


def definition(snapshot: Snapshot, uri: str, position: lsp.Position) -> list[lsp.Location]:
    """The component named by the ownerRef/componentName value under the cursor."""
    offset = snapshot.index.offset(position)
    model = snapshot.definition_at(offset)
    if model is None:
        return []
    for ref in _references(model):
        if not (isinstance(ref, ScalarNode) and ref.start <= offset <= ref.end):
            continue
        target = model.component(str(ref.value))
        if target is None:
            return []
        where = target.name_node if target.name_node is not None else target.node
        return [lsp.Location(uri=uri, range=snapshot.index.range(where.span))]
    return []


def _symbol(
    name: str,
    kind: lsp.SymbolKind,
    detail: str | None,
    node: Node,
    selection: Node | None,
    snapshot: Snapshot,
    children: list[lsp.DocumentSymbol] | None = None,
) -> lsp.DocumentSymbol:
    rng = snapshot.index.range(node.span)
    sel = snapshot.index.range(selection.span) if selection is not None else rng
    if (sel.start.line, sel.start.character) < (rng.start.line, rng.start.character) or (
        sel.end.line,
        sel.end.character,
    ) > (rng.end.line, rng.end.character):
        sel = rng  # the selection range must lie inside the full range
    return lsp.DocumentSymbol(
        name=name or "?", kind=kind, detail=detail, range=rng, selection_range=sel, children=children or None
    )


def _component_symbol(
    c: Component, snapshot: Snapshot, children: list[lsp.DocumentSymbol]
) -> lsp.DocumentSymbol:
    role = "root" if c.is_root else "child"
    detail = f"{role} · {c.kind}" if c.kind is not None else role
    kind = lsp.SymbolKind.Class if c.is_root else lsp.SymbolKind.Struct
    return _symbol(c.label, kind, detail, c.node, c.name_node, snapshot, children)


def _component_tree(model: Definition, snapshot: Snapshot) -> list[lsp.DocumentSymbol]:
    """Components nested by ownerRef; unreachable ones (bad ref, cycle) listed at the top level."""
    by_owner: dict[str, list[Component]] = {}
    for child in model.children:
        by_owner.setdefault(child.owner_ref or "", []).append(child)
    placed: set[int] = set()

    def build(c: Component) -> lsp.DocumentSymbol:
        # iterative post-order so a long ownerRef chain cannot exhaust the stack
        order: list[Component] = []
        stack = [c]
        placed.add(id(c))
        while stack:
            current = stack.pop()
            order.append(current)
            for child in by_owner.get(current.name or "\0", []):
                if id(child) not in placed:
                    placed.add(id(child))
                    stack.append(child)
        made: dict[int, lsp.DocumentSymbol] = {}
        for current in reversed(order):
            kids = [made[id(k)] for k in by_owner.get(current.name or "\0", []) if id(k) in made]
            made[id(current)] = _component_symbol(current, snapshot, kids)
        return made[id(c)]

    top: list[lsp.DocumentSymbol] = []
    if model.root is not None:
        top.append(build(model.root))
    for child in model.children:
        if id(child) not in placed:
            top.append(build(child))
    return top


def _gang_symbols(model: Definition, snapshot: Snapshot) -> list[lsp.DocumentSymbol]:
    gang = find_node(model.document_node, ("spec", "optimizationInstructions", "gangScheduling"))
    if not isinstance(gang, MappingNode):
        return []
    found: list[lsp.DocumentSymbol] = []
    groups = gang.get("podGroups")
    for group in groups.items if isinstance(groups, SequenceNode) else []:
        if not isinstance(group, MappingNode):
            continue
        name = group.get("name")
        members = group.get("members")
        kids = []
        for member in members.items if isinstance(members, SequenceNode) else []:
            ref = member.get("componentName") if isinstance(member, MappingNode) else None
            if isinstance(ref, ScalarNode):
                kids.append(
                    _symbol(str(ref.value), lsp.SymbolKind.Field, "gang member", member, ref, snapshot)
                )
        label = str(name.value) if isinstance(name, ScalarNode) else "pod group"
        found.append(
            _symbol(
                label,
                lsp.SymbolKind.Namespace,
                "gang group",
                group,
                name if isinstance(name, ScalarNode) else None,
                snapshot,
                kids,
            )
        )
    pod_group = gang.get("podGroup")
    if isinstance(pod_group, MappingNode):
        name = pod_group.get("name")
        subs = pod_group.get("subGroups")
        kids = []
        for sub in subs.items if isinstance(subs, SequenceNode) else []:
            ref = sub.get("componentName") if isinstance(sub, MappingNode) else None
            if isinstance(ref, ScalarNode):
                kids.append(_symbol(str(ref.value), lsp.SymbolKind.Field, "sub-group", sub, ref, snapshot))
        label = str(name.value) if isinstance(name, ScalarNode) else "pod group"
        found.append(
            _symbol(
                label,
                lsp.SymbolKind.Namespace,
                "gang group (podGroup)",
                pod_group,
                name if isinstance(name, ScalarNode) else None,
                snapshot,
                kids,
            )
        )
    return found


def document_symbols(snapshot: Snapshot) -> list[lsp.DocumentSymbol]:
    symbols = []
    for model in snapshot.definitions:
        children = _component_tree(model, snapshot) + _gang_symbols(model, snapshot)
        name_node = find_node(model.document_node, ("metadata", "name"))
        symbols.append(
            _symbol(
                model.name or model.kind,
                lsp.SymbolKind.Module,
                model.kind,
                model.document_node,
                name_node,
                snapshot,
                children,
            )
        )
    return symbols
