# Names vulture (`make lint`) finds unused that are used all the same, each with how. The rules' hooks and the
# command line's commands are left out by their decorators ([tool.vulture] in pyproject.toml): the hook or
# click registers the function, and nothing calls it by name. Anything else unused is removed, not added here.
# This file is read by vulture only; it is never imported.

# Python calls them by name
__getattr__  # wmaplint/cel/__init__.py: a module's lazy attributes (PEP 562)
__hash__  # wmaplint/jq/ast.py: the generated methods of the syntax tree's classes, assigned to each class
__match_args__  # wmaplint/jq/ast.py: as above, for `match` statements over the syntax tree
parse_array  # wmaplint/lsp/rpc.py: the standard library's JSON scanner calls the decoder's parse_array
parse_object  # wmaplint/lsp/rpc.py: and its parse_object (a message's values are counted as they are read)
default_flow_style  # wmaplint/suites/expect_edits.py: ruamel.yaml's writer reads these settings
sort_base_mapping_type_on_output  # wmaplint/suites/expect_edits.py: as above
signum  # benchmarks/phase_sampler.py: the signature of a signal handler
fast  # wmaplint/cel/pieces.py: the pickler reads its `fast` setting (no memo)

# Called by a name the code builds
format_validate  # wmaplint/cel/library.py: bound by name to CEL's format.validate overload (cel/env.py)
_graph  # wmaplint/schema/compact.py: read with object.__getattribute__(node, "_graph")
_Identity  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Field  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Iterate  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Index  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Slice  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Optional  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Pipe  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Comma  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Binary  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Neg  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Assign  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Literal  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Format  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_StringInterp  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_ArrayCons  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_ObjectCons  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_ObjectEntry  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_VarRef  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_FuncCall  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_If  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Try  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name
_Bind  # wmaplint/jq/cost.py: the size of a syntax node is the method "_" + its class name

# Read by people, not by code
offline  # wmaplint/cli.py: `check --offline` is accepted (hidden) and changes nothing: every check is offline

# The package's API for its tests (tests/ is not scanned)
apply_edits  # wmaplint/fixes.py: the fix tests apply a finding's edits to a text
parse_file  # wmaplint/schema/loader.py: tests parse one schema file without a store
forget_shared_stores  # wmaplint/schema/store.py: tests drop the stores a process shares
field_at  # wmaplint/definition/fields.py: tests/core/test_format_fields.py reads the table by key path
CARDINALITIES  # wmaplint/jq/roles.py: tests/core/test_format_fields.py checks each field's cardinality
unowned_kinds  # wmaplint/controllers/model.py: the controller model's tests
as_pod_list  # wmaplint/resolve/synthesis.py: the tests write synthesized pods as `kubectl get pods` lists
