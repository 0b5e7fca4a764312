"""The compact cache form: a decoded graph is the parsed graph, node for node, and is built only when read."""

import copy
import pickle

from wmaplint.schema.compact import decode, encode, from_payload, to_payload
from wmaplint.schema.loader import parse_bytes
from wmaplint.schema.store import SchemaStore, forget_parsed
from wmaplint.schema.types import ANY, ARRAY, INTEGER, OBJECT, Property, SchemaType

SCALAR_FIELDS = ("kind", "required", "preserve_unknown", "embedded_resource", "list_type", "list_map_keys",
                 "format", "enum", "pattern", "nullable", "default", "has_default", "line", "column", "ref")


def assert_same_graph(a: SchemaType, b: SchemaType) -> int:
    """Walk both graphs together (iteratively, each pair once); returns the number of nodes compared."""
    seen: dict[int, int] = {}
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is ANY or y is ANY:
            assert x is ANY and y is ANY
            continue
        if id(x) in seen:
            assert seen[id(x)] == id(y), "sharing differs"
            continue
        seen[id(x)] = id(y)
        for f in SCALAR_FIELDS:
            assert getattr(x, f) == getattr(y, f), f
        assert list(x.properties) == list(y.properties)
        for name, p in x.properties.items():
            q = y.properties[name]
            assert (p.line, p.column, p.description) == (q.line, q.column, q.description)
            stack.append((p.type, q.type))
        for f in ("items", "additional"):
            u, v = getattr(x, f), getattr(y, f)
            assert (u is None) == (v is None), f
            if u is not None:
                stack.append((u, v))
        assert len(x.variants) == len(y.variants)
        stack.extend(zip(x.variants, y.variants, strict=True))
    return len(seen)


def roundtrip(t: SchemaType) -> SchemaType:
    return from_payload(to_payload(encode(t)))


def test_largest_crd_decodes_to_the_same_graph(bundle_store):
    for version in ("v1alpha1", "v1alpha2"):
        schemas = bundle_store.lookup("serving.kserve.io", version, "LLMInferenceService")
        for schema in schemas:
            assert assert_same_graph(schema.type, roundtrip(schema.type)) > 1000


def test_a_parsed_crd_decodes_to_the_same_graph(shared):
    path = shared / "crds/serving.kserve.io/llminferenceservice_v1alpha2.yaml"
    parsed = parse_bytes(path.read_bytes(), str(path))
    for t in parsed.types.values():
        assert assert_same_graph(t, roundtrip(t)) > 1000


def test_cycles_and_shared_nodes_survive():
    node = SchemaType(OBJECT, required=frozenset({"n"}), line=3, column=5, ref="Node")
    node.properties["n"] = Property("n", SchemaType(INTEGER, default=1, has_default=True), 4, 7)
    node.properties["next"] = Property("next", node)
    node.properties["children"] = Property("children", SchemaType(ARRAY, items=node))
    node.properties["extra"] = Property("extra", SchemaType(OBJECT, additional=ANY))
    back = roundtrip(node)
    assert back.properties["next"].type is back
    assert back.properties["children"].type.items is back
    assert back.properties["extra"].type.additional is ANY
    assert_same_graph(node, back)


def test_members_are_built_only_when_read():
    leaf = SchemaType(INTEGER)
    root = SchemaType(OBJECT)
    root.properties["a"] = Property("a", SchemaType(OBJECT, properties={"b": Property("b", leaf)}))
    back = roundtrip(root)
    a = back.properties["a"].type
    assert a.kind == OBJECT
    assert "properties" not in {s for s in type(a).__mro__[1].__slots__ if _filled(a, s)}
    assert a.member("b").kind == INTEGER
    assert _filled(a, "properties")


def _filled(obj: object, slot: str) -> bool:
    try:
        object.__getattribute__(obj, slot)
    except AttributeError:
        return False
    return True


def test_a_10000_deep_chain_encodes_and_decodes_without_recursion():
    root = t = SchemaType(OBJECT)
    for _ in range(10_000):
        child = SchemaType(OBJECT)
        t.properties["x"] = Property("x", child)
        t = child
    back = roundtrip(root)
    depth, t = 0, back
    while "x" in t.properties:
        t, depth = t.properties["x"].type, depth + 1
    assert depth == 10_000


def test_decoded_types_pickle_and_copy_as_plain_types():
    node = SchemaType(OBJECT, ref="Node")
    node.properties["self"] = Property("self", node)
    back = roundtrip(node)
    for again in (pickle.loads(pickle.dumps(back)), copy.deepcopy(back)):
        assert type(again) is SchemaType and again.ref == "Node"
        assert again.properties["self"].type is again


def test_not_a_table_is_a_value_error():
    for bad in ([], [("object",)], {"rows": 1}, None):
        try:
            decode(bad)  # type: ignore[arg-type]
        except ValueError:
            continue
        raise AssertionError(bad)


def test_warm_store_serves_the_compact_form(bundled_crd, tmp_path):
    crd = tmp_path / "jobset.yaml"
    crd.write_text(bundled_crd("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml"))
    forget_parsed()
    cold = SchemaStore([crd], cache_dir=tmp_path).lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")[0].type
    assert list((tmp_path / "types").rglob("*.types"))
    forget_parsed()
    warm = SchemaStore([crd], cache_dir=tmp_path).lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")[0].type
    assert type(warm) is not SchemaType  # the lazily built subclass
    assert_same_graph(cold, warm)
