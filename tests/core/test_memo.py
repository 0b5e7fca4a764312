"""Every process-wide cache of the package is registered in ``wmaplint.memo`` with its owner and a reset.

The caches are found by reading the package: every ``functools.lru_cache`` wrapper, every module-level dict,
set or list that a function of its module fills, and every module-level name a function rebinds through
``global``. The tables the package fills once as its modules load (the rule registry, the wordings) are not
caches: emptying them would lose the rules, so they are named here with what they hold.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType

import wmaplint
from wmaplint import memo

# owner module:name -> what the table holds; filled at import, never emptied
TABLES = {
    "wmaplint.diagnostics:RULES": "every rule by id, as the rule modules define them",
    "wmaplint.findings:WORDINGS": "each kind of finding with the rule that words it, as rule modules load",
    "wmaplint.findings:_rule_loader": "the function importing every rule module, installed by wmaplint.rules",
    "wmaplint.rules:DEFINITION_CHECKS": "the checks of definitions, as the rule modules load",
    "wmaplint.rules:DOCUMENT_CHECKS": "the checks of other documents, as the rule modules load",
    "wmaplint.rules:EXPRESSION_CHECKS": "the checks of jq expressions, as the rule modules load",
    "wmaplint.rules:DEFINITION_ANALYSES": "the analyses of definitions, as the rule modules load",
    "wmaplint.rules:REFINERS": "how a rule refines a typed finding in its definition, as rule modules load",
    "wmaplint.rules:_loaded": "whether every rule module was imported",
    "wmaplint.rules:_definitions_loaded": "whether the rule modules run on definitions were imported",
    "wmaplint.jq.ast:_NODE_CLASSES": "the jq node classes, as the module defines them",
    "wmaplint.jq.ast:_CHILD_FIELDS": "the fields of each jq node class that hold nodes, as the module loads",
    "wmaplint.jq.builtins:_TABLE": "the jq builtins, as the module loads",
    "wmaplint.memo:_RESETS": "this registry: every cache with its reset, as the modules load",
}

_CONTAINERS = ("dict", "set", "list", "OrderedDict", "defaultdict", "WeakKeyDictionary", "ByIdentity",
               "WeakValueDictionary")
_MUTATORS = ("setdefault", "update", "append", "add", "pop", "popitem", "move_to_end", "extend", "insert",
             "clear", "remove", "discard", "put")


def _modules() -> list[ModuleType]:
    names = [m.name for m in pkgutil.walk_packages(wmaplint.__path__, "wmaplint.")]
    return [importlib.import_module(n) for n in ["wmaplint", *names] if not n.endswith("__main__")]


def _is_container(value: ast.expr) -> bool:
    if isinstance(value, ast.Dict | ast.List | ast.Set):
        return True
    if isinstance(value, ast.Call):
        func = value.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        if name in _CONTAINERS:
            return True
        # memo.kept(owner, name, container)
        return name == "kept" and len(value.args) == 3 and _is_container(value.args[2])
    return False


def _module_caches(source: str) -> set[str]:
    """The module-level names of ``source`` that a function fills (a container) or rebinds (``global``)."""
    tree = ast.parse(source)
    containers = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if _is_container(node.value):
                containers.add(node.targets[0].id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            if _is_container(node.value):
                containers.add(node.target.id)
    found = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Global):
                found.update(node.names)
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign | ast.Delete):
                targets = node.targets
            elif isinstance(node, ast.AugAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    if target.value.id in containers:
                        found.add(target.value.id)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in containers
                    and node.func.attr in _MUTATORS):
                found.add(node.func.value.id)
    return found


def _lru_caches(module: ModuleType) -> set[str]:
    """The ``functools.lru_cache`` wrappers defined in ``module``, at its top or in its classes."""
    found = set()
    places = [vars(module)]
    classes = [c for c in vars(module).values() if inspect.isclass(c) and c.__module__ == module.__name__]
    places += [vars(c) for c in classes]
    for place in places:
        for value in place.values():
            if isinstance(value, functools._lru_cache_wrapper) and value.__module__ == module.__name__:
                found.add(value.__qualname__)
    return found


def test_every_cache_of_the_package_is_registered() -> None:
    modules = _modules()
    registered = memo.registered()
    found = set()
    for module in modules:
        assert module.__file__ is not None
        source = Path(module.__file__).read_text(encoding="utf-8")
        found |= {f"{module.__name__}:{name}" for name in _module_caches(source) | _lru_caches(module)}
    missing = sorted(found - set(registered) - set(TABLES))
    assert missing == [], f"process-wide caches without a reset in wmaplint.memo: {missing}"
    # and nothing registered that is not there, nor a table that is gone
    assert sorted(set(registered) - found) == []
    for key in TABLES:
        owner, name = key.split(":")
        assert hasattr(importlib.import_module(owner), name), key
    assert len(registered) >= 40


def test_the_inspection_finds_each_kind_of_cache() -> None:
    source = (
        "import functools\n_A = {}\n_B: set[str] = set()\n_C = memo.kept(__name__, '_C', [])\n_D = None\n"
        "_TABLE = {'x': 1}\n"
        "def fill(k):\n    _A[k] = 1\n    _B.add(k)\n    _C.append(k)\n    global _D\n    _D = k\n"
        "def read(k):\n    return _TABLE[k]\n"
    )
    assert _module_caches(source) == {"_A", "_B", "_C", "_D"}


def test_reset_all_empties_every_cache_and_keep_pure_spares_the_pure_ones() -> None:
    from wmaplint.config import _find_config
    from wmaplint.engine import _EXPLICIT
    from wmaplint.jq.parser import _parse_cached
    from wmaplint.schema.store import _MEMO

    _parse_cached(".spec.replicas")
    _EXPLICIT["some/path.yaml"] = None  # type: ignore[assignment]
    _find_config(".", ".", None)
    _MEMO["0" * 64] = None  # type: ignore[assignment]
    memo.reset_all(keep_pure=True)
    assert "some/path.yaml" not in _EXPLICIT and _find_config.cache_info().currsize == 0
    assert _parse_cached.cache_info().currsize > 0 and "0" * 64 in _MEMO
    memo.reset_all()
    assert _parse_cached.cache_info().currsize == 0 and _MEMO == {}
    pure = memo.registered()
    assert pure["wmaplint.jq.parser:_parse_cached"] and not pure["wmaplint.schema.store:_SHARED"]


def test_a_cache_by_identity_answers_only_for_the_object_it_holds(monkeypatch) -> None:
    monkeypatch.setattr(memo, "_RESETS", dict(memo._RESETS))  # its registration ends with the test
    cache: memo.ByIdentity[str] = memo.ByIdentity(__name__, "test_by_identity", most=2)
    node, same_text = {"type": "string"}, {"type": "string"}
    assert cache.put(node, "facts", True) == "facts"
    assert cache.get(node, True) == "facts"
    assert cache.get(node, False) is None and cache.get(same_text, True) is None  # equal is not the same
    held = cache._entries[(id(node), True)]
    cache._entries[(id(same_text), True)] = held  # an id now naming another object than the one held
    assert cache.get(same_text, True) is None
    cache.put(same_text, "b")
    cache.put([], "c")
    cache.put((), "d")  # past two entries the cache starts anew
    assert cache.get(node, True) is None and cache.get(()) == "d"
    memo.reset_all()
    assert cache.get(()) is None
