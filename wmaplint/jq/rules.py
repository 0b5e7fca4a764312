"""Rules of the jq front end (WM201–WM259), registered with their documentation and example files."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules.examples import JOB, JOBSET, job_with, jobset_with, mpijob_with

_RUNNING = "'(.status.active // 0) > 0'"
_REPLICAS = "'.spec.parallelism // 1'"

SYNTAX_ERROR = define(
    "WM201",
    "jq-syntax-error",
    "error",
    "A jq expression does not parse in the gojq dialect the runtime uses.",
    why="The runtime parses every expression with gojq; an expression that does not parse makes the upstream "
    "validator reject the whole definition, with `failed to parse JQ expression '...' at '<field>': "
    "unexpected token ...`, which names the field but not the position (gojq keeps the byte offset in the "
    "error value, not in its text: GOJQ.md §5.1).",
    bad=job_with(_RUNNING, "'(.status.active // 0 > 0'"),
    good=JOB,
    fix="Correct the expression at the reported position (unbalanced brackets, `?//` written "
    "without a space, single-quoted strings and `&&` are common causes).",
    tags=("jq",),
)
UNKNOWN_FUNCTION = define(
    "WM202",
    "jq-unknown-function",
    "error",
    "A jq expression calls a function that gojq does not define with that number of arguments.",
    why="Upstream only parses expressions, so `keys_unsorted`, a misspelled name or a wrong arity passes "
    "validation and fails every evaluation with `function not defined: NAME/ARITY`.",
    bad=job_with(_RUNNING, "'(.status.active // 0) > 0 and (.status.conditions | lenght) > 0'"),
    good=job_with(_RUNNING, "'(.status.active // 0) > 0 and (.status.conditions | length) > 0'"),
    fix="Use the suggested gojq builtin, or define the function before the query that uses it.",
    tags=("jq",),
)
UNDEFINED_VARIABLE = define(
    "WM203",
    "jq-undefined-variable",
    "error",
    "A jq expression reads a `$variable` that is not bound at that point.",
    why="gojq rejects unbound variables when it compiles the expression, so the field never yields a value; "
    "`$__loc__` and `$ARGS` do not exist in embedded gojq.",
    bad=job_with(_RUNNING, "'.status.active as $a | ($b // 0) > 0'"),
    good=job_with(_RUNNING, "'.status.active as $a | ($a // 0) > 0'"),
    fix="Bind the variable with `... as $name |` before using it, or fix its spelling.",
    tags=("jq",),
)
UNDEFINED_LABEL = define(
    "WM204",
    "jq-undefined-label",
    "error",
    "`break $name` has no enclosing `label $name`.",
    why="gojq resolves labels when it compiles, so the expression fails with `label not defined`.",
    bad=job_with(_RUNNING, "'first(.status.active // 0 | if . > 0 then true, break $out else false end)'"),
    good=job_with(
        _RUNNING, "'label $out | (.status.active // 0 | if . > 0 then true, break $out else false end)'"
    ),
    fix="Add `label $name |` around the expression that breaks, or use `first(...)`.",
    tags=("jq",),
)
UNKNOWN_FORMAT = define(
    "WM205",
    "jq-unknown-format",
    "error",
    "An `@format` that gojq does not have (`@base32` included).",
    why="gojq parses and compiles any `@name` and fails only when the expression runs: `format not defined`.",
    bad=job_with(_RUNNING, "'(.status.active // 0 | @base32) != \"\"'"),
    good=job_with(_RUNNING, "'(.status.active // 0 | @base64) != \"\"'"),
    fix="Use one of @text @json @html @uri @urid @csv @tsv @sh @base64 @base64d.",
    tags=("jq",),
)
MODULE_DIRECTIVE = define(
    "WM206",
    "jq-module-directive",
    "error",
    "`import` or `include` in a definition expression.",
    why="The runtime embeds gojq without a module loader: every `import` and `include` fails to compile with "
    "`cannot load module`. (A leading `module {...};` is harmless: gojq ignores a query's module metadata.)",
    bad=job_with(_RUNNING, "'include \"status\"; (.status.active // 0) > 0'"),
    good=JOB,
    fix="Inline the definitions you need with `def name: ...;`.",
    tags=("jq",),
)
DENIED_CONSTRUCT = define(
    "WM210",
    "jq-denied-construct",
    "error",
    "A construct the upstream validator refuses: `del`, `range`, `paths`, `recurse`, `walk`, `repeat`, `..` "
    "or an assignment operator.",
    why="Definitions are read-only navigation; the upstream validator rejects these (it may miss them inside "
    "`as` bindings or `label` bodies, where the runtime would still run them).",
    bad=job_with(_REPLICAS, "'[.. | .parallelism? // empty] | first // 1'"),
    good=JOB,
    fix="Navigate to the field explicitly instead of searching or modifying the object.",
    tags=("jq",),
)
HOST_DEPENDENT = define(
    "WM215",
    "jq-host-dependent-builtin",
    "warning",
    "A builtin whose result depends on the host or the moment: `now`, `env`/`$ENV`, `input`, `inputs`, "
    "`debug`, `stderr`, `input_filename`, `halt`, `halt_error`, local-time functions.",
    why="Embedded gojq sees `$ENV` as `{}`, rejects `input`/`inputs`, does not define `debug`, `stderr` or "
    "`input_filename`, and `now` changes on every evaluation, so the same workload maps differently.",
    bad=job_with(_RUNNING, '\'(.status.active // 0) > 0 and ($ENV.STRICT // "") == ""\''),
    good=JOB,
    fix="Compute the value from the workload object only.",
    tags=("jq",),
)
ALTERNATIVE_OVER_STREAM = define(
    "WM220",
    "jq-alternative-over-stream",
    "error",
    "`//` applied to a whole iteration (`.a[].x // 1`) in a per-instance path.",
    why="`//` drops every null or false output of the iteration and yields the default only when all are "
    "missing, so a group without the field disappears and the instance count no longer matches the ids "
    "(`instance ids count does not match results count`).",
    bad=jobset_with(
        "'.spec.replicatedJobs[]? | (.template.spec.parallelism // 1)'",
        "'.spec.replicatedJobs[]?.template.spec.parallelism // 1'",
    ),
    good=JOBSET,
    fix="Apply the default per element: `.a[]? | (.x // 1)`.",
    tags=("jq", "cardinality"),
)
COUNT_CHANGING_FILTER = define(
    "WM221",
    "jq-count-changing-filter",
    "warning",
    "A per-instance path uses `select`, `empty`, `first`, `limit`, `,` or similar, so it can yield a "
    "different number of outputs than there are instances.",
    why="Output i belongs to instance i. When a filter drops an element, the counts differ and the runtime "
    "rejects the component (`instance ids count (N) does not match results count (M)`, upstream "
    "`zipWithInstanceIds`); in a fragmentedPodSpecDefinition, where fragments are merged by index and only "
    "the longest is matched to the ids, a shorter fragment silently shifts every later instance onto the "
    "wrong values.",
    bad=jobset_with(
        "'.spec.replicatedJobs[]?.template.spec.template'",
        "'.spec.replicatedJobs[]? | select(.replicas > 0) | .template.spec.template'",
    ),
    good=JOBSET,
    fix="Yield one output per element (use `// default` inside the iteration instead of filtering).",
    tags=("jq", "cardinality"),
)
SEVERAL_OUTPUTS = define(
    "WM222",
    "jq-several-outputs",
    "warning",
    "An expression that must yield exactly one value can yield several (an iteration or `,`).",
    why="Pod selector id and replica paths, gang keys and filters must give exactly one value per pod (the "
    "runtime fails with `expected single query result`), and each spec or scale path of a component without "
    "`instanceIdPath` exactly one per object (`instance ids count (1) does not match results count`).",
    bad=job_with(
        "{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: '.spec.template, .spec.template'}"
    ),
    good=JOB,
    fix="Select one element (`[0]`, `first(...)`), or add `instanceIdPath` if the component really has "
    "several instances.",
    tags=("jq", "cardinality"),
)
FIRST_OUTPUT_ONLY = define(
    "WM223",
    "jq-first-output-only",
    "warning",
    "A status expression or phase path can yield several outputs, but only the first one is used.",
    why="byExpression and the phase path use the first output and silently ignore the rest (upstream #298), "
    "so `.status.replicas[].ready` only looks at the first replica. `first(f)`, `limit(1; f)` and "
    "`label $l | ... | ., break $l` yield at most one output and are not reported.",
    bad=job_with(_RUNNING, "'.status.conditions[].status == \"True\"'"),
    good=job_with(_RUNNING, "'any(.status.conditions[]?; .status == \"True\")'"),
    fix="Combine the outputs: `any(...)`, `all(...)`, `[...] | length`, or `first(...)` if the "
    "first is meant.",
    tags=("jq", "cardinality"),
)
NOT_ASSIGNABLE = define(
    "WM230",
    "jq-not-assignable-path",
    "error",
    "A spec or suspend path is not a path expression, so writes through it fail.",
    why="The runtime also writes pod templates and suspend flags through these paths with gojq path "
    "assignment (FORMAT.md §2.3); constructed values, literals, arithmetic and variable-rooted paths fail "
    "when the write happens, with gojq's `invalid path against: ...` (GOJQ.md §3.7; C jq says "
    "`Invalid path expression`).",
    bad=job_with(
        "{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: '.spec as $s | $s.template'}"
    ),
    good=JOB,
    fix="Navigate from `.` (`.spec.template`); filter with `select(...)` rather than binding a variable.",
    tags=("jq", "paths"),
)
SELECTOR_PRECEDENCE = define(
    "WM235",
    "jq-selector-precedence",
    "error",
    "A componentTypeSelector keyPath that changes meaning when the runtime appends `== <value>` to it: a "
    "top-level `//`, `,`, `and`, `or` or comparison.",
    why="The runtime matches a pod when the text `<keyPath> == <value as JSON>` yields `true`. "
    '`.a // .b == "x"` means `.a // (.b == "x")`: a pod with `.a` set yields that text, never `true`, so '
    'it never matches; `.a == "y" == "x"` does not parse. A top-level pipe, `as` binding, `def` or `label` '
    "keeps its meaning: the comparison applies to the last part, whose outputs are the keyPath's (a trailing "
    "comment is WM236).",
    bad=mpijob_with(
        "'.metadata.labels[\"training.kubeflow.org/replica-type\"]'",
        "'.metadata.labels[\"training.kubeflow.org/replica-type\"] // .metadata.labels.role'",
    ),
    good=mpijob_with(
        "'.metadata.labels[\"training.kubeflow.org/replica-type\"]'",
        "'(.metadata.labels[\"training.kubeflow.org/replica-type\"] // .metadata.labels.role)'",
    ),
    fix="Wrap the keyPath in parentheses; keep a comparison's path in keyPath and its value in value.",
    tags=("jq",),
)
TRAILING_COMMENT = define(
    "WM236",
    "jq-trailing-comment",
    "error",
    "A byExpression, a componentTypeSelector keyPath compared with a value, or a spec or suspend path ends "
    "in a comment that swallows the text the runtime adds after it.",
    why="The runtime evaluates a byExpression as `(<expression>) | tostring` and a keyPath with a value as "
    "`<keyPath> == <value as JSON>`, and it writes through spec and suspend paths as `(<path>) = $val`, or "
    "`[path(<path>)] as $paths | ...` for a component with instances (upstream accessor and runner "
    "`Assign`, `AssignZip`). A comment on the last line runs to the end of that text: the byExpression "
    "query no longer parses, so the status of every workload fails to evaluate; the keyPath loses its "
    "comparison, so no pod matches; and the write does not parse, so suspending the workload or updating "
    "its pod template fails, although reading the path still works.",
    bad=job_with(_RUNNING, "'(.status.active // 0) > 0  # pods are running'"),
    good=job_with(_RUNNING, "\"(.status.active // 0) > 0  # pods are running\\n\""),
    fix="End the expression with a line break after the comment (a `|` block scalar does), or drop the "
    "comment.",
    tags=("jq",),
)
EXPECTED_RESULT_MISMATCH = define(
    "WM240",
    "jq-expected-result-mismatch",
    "error",
    "A byExpression expectedResult can never equal `(<expression>) | tostring`.",
    why="The runtime compares text: a boolean prints as `true`/`false`, a number in shortest form (`1`, not "
    '`1.0`), so `expectedResult: "True"` never matches and the status is never reported.',
    bad=job_with('expectedResult: "true"', 'expectedResult: "True"'),
    good=JOB,
    fix="Write the value exactly as gojq prints it (the message suggests it).",
    tags=("jq", "status"),
)
