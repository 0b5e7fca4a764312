"""The methods of the syntax tree's node classes, written by ``wmaplint.jq.ast``.

Do not edit: `python -m wmaplint.jq.ast` writes it again after a node class changes. Compiled
once with the package, not at every start (an ``exec`` of this text cost 5-10 ms a process).
"""

# ruff: noqa
# mypy: ignore-errors
_set = object.__setattr__
FIELDS = {
    'Node': ('start', 'end'),
    'Identity': ('start', 'end'),
    'RecurseDefault': ('start', 'end'),
    'Field': ('start', 'end', 'target', 'name', 'optional', 'seg_start', 'name_start', 'name_end'),
    'Index': ('start', 'end', 'target', 'index', 'optional', 'seg_start'),
    'Slice': ('start', 'end', 'target', 'lower', 'upper', 'optional', 'seg_start'),
    'Iterate': ('start', 'end', 'target', 'optional', 'seg_start'),
    'Optional': ('start', 'end', 'term'),
    'Pipe': ('start', 'end', 'left', 'right'),
    'Comma': ('start', 'end', 'left', 'right'),
    'Binary': ('start', 'end', 'op', 'left', 'right', 'op_start'),
    'Neg': ('start', 'end', 'term', 'op'),
    'Assign': ('start', 'end', 'op', 'left', 'right', 'op_start'),
    'Literal': ('start', 'end', 'value'),
    'StringInterp': ('start', 'end', 'parts', 'format'),
    'Format': ('start', 'end', 'name'),
    'ArrayCons': ('start', 'end', 'body'),
    'ObjectEntry': ('start', 'end', 'key', 'value', 'key_kind'),
    'ObjectCons': ('start', 'end', 'entries'),
    'FuncCall': ('start', 'end', 'name', 'args', 'name_end'),
    'VarRef': ('start', 'end', 'name'),
    'VarPattern': ('start', 'end', 'name'),
    'ArrayPattern': ('start', 'end', 'elements'),
    'ObjectPatternEntry': ('start', 'end', 'var', 'key', 'value'),
    'ObjectPattern': ('start', 'end', 'entries'),
    'Bind': ('start', 'end', 'source', 'patterns', 'body'),
    'Reduce': ('start', 'end', 'source', 'pattern', 'init', 'update'),
    'Foreach': ('start', 'end', 'source', 'pattern', 'init', 'update', 'extract'),
    'If': ('start', 'end', 'cond', 'then', 'elifs', 'else_'),
    'Try': ('start', 'end', 'body', 'catch'),
    'Label': ('start', 'end', 'name', 'body'),
    'Break': ('start', 'end', 'name'),
    'FuncDef': ('start', 'end', 'name', 'params', 'body', 'rest', 'name_start', 'name_end'),
    'Import': ('start', 'end', 'directive', 'path', 'alias', 'rest'),
}
DEFAULTS = {
    'Neg': {'op': '-'},
}


def init_Node(self, start, end):
    _set(self, 'start', start)
    _set(self, 'end', end)


def eq_Node(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, ) == (other.start, other.end, )


def hash_Node(self):
    return hash((self.start, self.end, ))


def init_Identity(self, start, end):
    _set(self, 'start', start)
    _set(self, 'end', end)


def eq_Identity(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, ) == (other.start, other.end, )


def hash_Identity(self):
    return hash((self.start, self.end, ))


def init_RecurseDefault(self, start, end):
    _set(self, 'start', start)
    _set(self, 'end', end)


def eq_RecurseDefault(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, ) == (other.start, other.end, )


def hash_RecurseDefault(self):
    return hash((self.start, self.end, ))


def init_Field(self, start, end, target, name, optional, seg_start, name_start, name_end):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'target', target)
    _set(self, 'name', name)
    _set(self, 'optional', optional)
    _set(self, 'seg_start', seg_start)
    _set(self, 'name_start', name_start)
    _set(self, 'name_end', name_end)


def eq_Field(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.target, self.name, self.optional, self.seg_start, self.name_start, self.name_end, ) == (other.start, other.end, other.target, other.name, other.optional, other.seg_start, other.name_start, other.name_end, )


def hash_Field(self):
    return hash((self.start, self.end, self.target, self.name, self.optional, self.seg_start, self.name_start, self.name_end, ))


def init_Index(self, start, end, target, index, optional, seg_start):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'target', target)
    _set(self, 'index', index)
    _set(self, 'optional', optional)
    _set(self, 'seg_start', seg_start)


def eq_Index(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.target, self.index, self.optional, self.seg_start, ) == (other.start, other.end, other.target, other.index, other.optional, other.seg_start, )


def hash_Index(self):
    return hash((self.start, self.end, self.target, self.index, self.optional, self.seg_start, ))


def init_Slice(self, start, end, target, lower, upper, optional, seg_start):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'target', target)
    _set(self, 'lower', lower)
    _set(self, 'upper', upper)
    _set(self, 'optional', optional)
    _set(self, 'seg_start', seg_start)


def eq_Slice(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.target, self.lower, self.upper, self.optional, self.seg_start, ) == (other.start, other.end, other.target, other.lower, other.upper, other.optional, other.seg_start, )


def hash_Slice(self):
    return hash((self.start, self.end, self.target, self.lower, self.upper, self.optional, self.seg_start, ))


def init_Iterate(self, start, end, target, optional, seg_start):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'target', target)
    _set(self, 'optional', optional)
    _set(self, 'seg_start', seg_start)


def eq_Iterate(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.target, self.optional, self.seg_start, ) == (other.start, other.end, other.target, other.optional, other.seg_start, )


def hash_Iterate(self):
    return hash((self.start, self.end, self.target, self.optional, self.seg_start, ))


def init_Optional(self, start, end, term):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'term', term)


def eq_Optional(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.term, ) == (other.start, other.end, other.term, )


def hash_Optional(self):
    return hash((self.start, self.end, self.term, ))


def init_Pipe(self, start, end, left, right):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'left', left)
    _set(self, 'right', right)


def eq_Pipe(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.left, self.right, ) == (other.start, other.end, other.left, other.right, )


def hash_Pipe(self):
    return hash((self.start, self.end, self.left, self.right, ))


def init_Comma(self, start, end, left, right):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'left', left)
    _set(self, 'right', right)


def eq_Comma(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.left, self.right, ) == (other.start, other.end, other.left, other.right, )


def hash_Comma(self):
    return hash((self.start, self.end, self.left, self.right, ))


def init_Binary(self, start, end, op, left, right, op_start):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'op', op)
    _set(self, 'left', left)
    _set(self, 'right', right)
    _set(self, 'op_start', op_start)


def eq_Binary(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.op, self.left, self.right, self.op_start, ) == (other.start, other.end, other.op, other.left, other.right, other.op_start, )


def hash_Binary(self):
    return hash((self.start, self.end, self.op, self.left, self.right, self.op_start, ))


def init_Neg(self, start, end, term, op='-'):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'term', term)
    _set(self, 'op', op)


def eq_Neg(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.term, self.op, ) == (other.start, other.end, other.term, other.op, )


def hash_Neg(self):
    return hash((self.start, self.end, self.term, self.op, ))


def init_Assign(self, start, end, op, left, right, op_start):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'op', op)
    _set(self, 'left', left)
    _set(self, 'right', right)
    _set(self, 'op_start', op_start)


def eq_Assign(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.op, self.left, self.right, self.op_start, ) == (other.start, other.end, other.op, other.left, other.right, other.op_start, )


def hash_Assign(self):
    return hash((self.start, self.end, self.op, self.left, self.right, self.op_start, ))


def init_Literal(self, start, end, value):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'value', value)


def eq_Literal(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.value, ) == (other.start, other.end, other.value, )


def hash_Literal(self):
    return hash((self.start, self.end, self.value, ))


def init_StringInterp(self, start, end, parts, format):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'parts', parts)
    _set(self, 'format', format)


def eq_StringInterp(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.parts, self.format, ) == (other.start, other.end, other.parts, other.format, )


def hash_StringInterp(self):
    return hash((self.start, self.end, self.parts, self.format, ))


def init_Format(self, start, end, name):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'name', name)


def eq_Format(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.name, ) == (other.start, other.end, other.name, )


def hash_Format(self):
    return hash((self.start, self.end, self.name, ))


def init_ArrayCons(self, start, end, body):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'body', body)


def eq_ArrayCons(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.body, ) == (other.start, other.end, other.body, )


def hash_ArrayCons(self):
    return hash((self.start, self.end, self.body, ))


def init_ObjectEntry(self, start, end, key, value, key_kind):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'key', key)
    _set(self, 'value', value)
    _set(self, 'key_kind', key_kind)


def eq_ObjectEntry(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.key, self.value, self.key_kind, ) == (other.start, other.end, other.key, other.value, other.key_kind, )


def hash_ObjectEntry(self):
    return hash((self.start, self.end, self.key, self.value, self.key_kind, ))


def init_ObjectCons(self, start, end, entries):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'entries', entries)


def eq_ObjectCons(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.entries, ) == (other.start, other.end, other.entries, )


def hash_ObjectCons(self):
    return hash((self.start, self.end, self.entries, ))


def init_FuncCall(self, start, end, name, args, name_end):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'name', name)
    _set(self, 'args', args)
    _set(self, 'name_end', name_end)


def eq_FuncCall(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.name, self.args, self.name_end, ) == (other.start, other.end, other.name, other.args, other.name_end, )


def hash_FuncCall(self):
    return hash((self.start, self.end, self.name, self.args, self.name_end, ))


def init_VarRef(self, start, end, name):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'name', name)


def eq_VarRef(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.name, ) == (other.start, other.end, other.name, )


def hash_VarRef(self):
    return hash((self.start, self.end, self.name, ))


def init_VarPattern(self, start, end, name):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'name', name)


def eq_VarPattern(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.name, ) == (other.start, other.end, other.name, )


def hash_VarPattern(self):
    return hash((self.start, self.end, self.name, ))


def init_ArrayPattern(self, start, end, elements):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'elements', elements)


def eq_ArrayPattern(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.elements, ) == (other.start, other.end, other.elements, )


def hash_ArrayPattern(self):
    return hash((self.start, self.end, self.elements, ))


def init_ObjectPatternEntry(self, start, end, var, key, value):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'var', var)
    _set(self, 'key', key)
    _set(self, 'value', value)


def eq_ObjectPatternEntry(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.var, self.key, self.value, ) == (other.start, other.end, other.var, other.key, other.value, )


def hash_ObjectPatternEntry(self):
    return hash((self.start, self.end, self.var, self.key, self.value, ))


def init_ObjectPattern(self, start, end, entries):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'entries', entries)


def eq_ObjectPattern(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.entries, ) == (other.start, other.end, other.entries, )


def hash_ObjectPattern(self):
    return hash((self.start, self.end, self.entries, ))


def init_Bind(self, start, end, source, patterns, body):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'source', source)
    _set(self, 'patterns', patterns)
    _set(self, 'body', body)


def eq_Bind(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.source, self.patterns, self.body, ) == (other.start, other.end, other.source, other.patterns, other.body, )


def hash_Bind(self):
    return hash((self.start, self.end, self.source, self.patterns, self.body, ))


def init_Reduce(self, start, end, source, pattern, init, update):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'source', source)
    _set(self, 'pattern', pattern)
    _set(self, 'init', init)
    _set(self, 'update', update)


def eq_Reduce(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.source, self.pattern, self.init, self.update, ) == (other.start, other.end, other.source, other.pattern, other.init, other.update, )


def hash_Reduce(self):
    return hash((self.start, self.end, self.source, self.pattern, self.init, self.update, ))


def init_Foreach(self, start, end, source, pattern, init, update, extract):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'source', source)
    _set(self, 'pattern', pattern)
    _set(self, 'init', init)
    _set(self, 'update', update)
    _set(self, 'extract', extract)


def eq_Foreach(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.source, self.pattern, self.init, self.update, self.extract, ) == (other.start, other.end, other.source, other.pattern, other.init, other.update, other.extract, )


def hash_Foreach(self):
    return hash((self.start, self.end, self.source, self.pattern, self.init, self.update, self.extract, ))


def init_If(self, start, end, cond, then, elifs, else_):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'cond', cond)
    _set(self, 'then', then)
    _set(self, 'elifs', elifs)
    _set(self, 'else_', else_)


def eq_If(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.cond, self.then, self.elifs, self.else_, ) == (other.start, other.end, other.cond, other.then, other.elifs, other.else_, )


def hash_If(self):
    return hash((self.start, self.end, self.cond, self.then, self.elifs, self.else_, ))


def init_Try(self, start, end, body, catch):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'body', body)
    _set(self, 'catch', catch)


def eq_Try(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.body, self.catch, ) == (other.start, other.end, other.body, other.catch, )


def hash_Try(self):
    return hash((self.start, self.end, self.body, self.catch, ))


def init_Label(self, start, end, name, body):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'name', name)
    _set(self, 'body', body)


def eq_Label(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.name, self.body, ) == (other.start, other.end, other.name, other.body, )


def hash_Label(self):
    return hash((self.start, self.end, self.name, self.body, ))


def init_Break(self, start, end, name):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'name', name)


def eq_Break(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.name, ) == (other.start, other.end, other.name, )


def hash_Break(self):
    return hash((self.start, self.end, self.name, ))


def init_FuncDef(self, start, end, name, params, body, rest, name_start, name_end):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'name', name)
    _set(self, 'params', params)
    _set(self, 'body', body)
    _set(self, 'rest', rest)
    _set(self, 'name_start', name_start)
    _set(self, 'name_end', name_end)


def eq_FuncDef(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.name, self.params, self.body, self.rest, self.name_start, self.name_end, ) == (other.start, other.end, other.name, other.params, other.body, other.rest, other.name_start, other.name_end, )


def hash_FuncDef(self):
    return hash((self.start, self.end, self.name, self.params, self.body, self.rest, self.name_start, self.name_end, ))


def init_Import(self, start, end, directive, path, alias, rest):
    _set(self, 'start', start)
    _set(self, 'end', end)
    _set(self, 'directive', directive)
    _set(self, 'path', path)
    _set(self, 'alias', alias)
    _set(self, 'rest', rest)


def eq_Import(self, other):
    if other.__class__ is not self.__class__:
        return NotImplemented
    return (self.start, self.end, self.directive, self.path, self.alias, self.rest, ) == (other.start, other.end, other.directive, other.path, other.alias, other.rest, )


def hash_Import(self):
    return hash((self.start, self.end, self.directive, self.path, self.alias, self.rest, ))


METHODS = {
    'init_Node': init_Node,
    'eq_Node': eq_Node,
    'hash_Node': hash_Node,
    'init_Identity': init_Identity,
    'eq_Identity': eq_Identity,
    'hash_Identity': hash_Identity,
    'init_RecurseDefault': init_RecurseDefault,
    'eq_RecurseDefault': eq_RecurseDefault,
    'hash_RecurseDefault': hash_RecurseDefault,
    'init_Field': init_Field,
    'eq_Field': eq_Field,
    'hash_Field': hash_Field,
    'init_Index': init_Index,
    'eq_Index': eq_Index,
    'hash_Index': hash_Index,
    'init_Slice': init_Slice,
    'eq_Slice': eq_Slice,
    'hash_Slice': hash_Slice,
    'init_Iterate': init_Iterate,
    'eq_Iterate': eq_Iterate,
    'hash_Iterate': hash_Iterate,
    'init_Optional': init_Optional,
    'eq_Optional': eq_Optional,
    'hash_Optional': hash_Optional,
    'init_Pipe': init_Pipe,
    'eq_Pipe': eq_Pipe,
    'hash_Pipe': hash_Pipe,
    'init_Comma': init_Comma,
    'eq_Comma': eq_Comma,
    'hash_Comma': hash_Comma,
    'init_Binary': init_Binary,
    'eq_Binary': eq_Binary,
    'hash_Binary': hash_Binary,
    'init_Neg': init_Neg,
    'eq_Neg': eq_Neg,
    'hash_Neg': hash_Neg,
    'init_Assign': init_Assign,
    'eq_Assign': eq_Assign,
    'hash_Assign': hash_Assign,
    'init_Literal': init_Literal,
    'eq_Literal': eq_Literal,
    'hash_Literal': hash_Literal,
    'init_StringInterp': init_StringInterp,
    'eq_StringInterp': eq_StringInterp,
    'hash_StringInterp': hash_StringInterp,
    'init_Format': init_Format,
    'eq_Format': eq_Format,
    'hash_Format': hash_Format,
    'init_ArrayCons': init_ArrayCons,
    'eq_ArrayCons': eq_ArrayCons,
    'hash_ArrayCons': hash_ArrayCons,
    'init_ObjectEntry': init_ObjectEntry,
    'eq_ObjectEntry': eq_ObjectEntry,
    'hash_ObjectEntry': hash_ObjectEntry,
    'init_ObjectCons': init_ObjectCons,
    'eq_ObjectCons': eq_ObjectCons,
    'hash_ObjectCons': hash_ObjectCons,
    'init_FuncCall': init_FuncCall,
    'eq_FuncCall': eq_FuncCall,
    'hash_FuncCall': hash_FuncCall,
    'init_VarRef': init_VarRef,
    'eq_VarRef': eq_VarRef,
    'hash_VarRef': hash_VarRef,
    'init_VarPattern': init_VarPattern,
    'eq_VarPattern': eq_VarPattern,
    'hash_VarPattern': hash_VarPattern,
    'init_ArrayPattern': init_ArrayPattern,
    'eq_ArrayPattern': eq_ArrayPattern,
    'hash_ArrayPattern': hash_ArrayPattern,
    'init_ObjectPatternEntry': init_ObjectPatternEntry,
    'eq_ObjectPatternEntry': eq_ObjectPatternEntry,
    'hash_ObjectPatternEntry': hash_ObjectPatternEntry,
    'init_ObjectPattern': init_ObjectPattern,
    'eq_ObjectPattern': eq_ObjectPattern,
    'hash_ObjectPattern': hash_ObjectPattern,
    'init_Bind': init_Bind,
    'eq_Bind': eq_Bind,
    'hash_Bind': hash_Bind,
    'init_Reduce': init_Reduce,
    'eq_Reduce': eq_Reduce,
    'hash_Reduce': hash_Reduce,
    'init_Foreach': init_Foreach,
    'eq_Foreach': eq_Foreach,
    'hash_Foreach': hash_Foreach,
    'init_If': init_If,
    'eq_If': eq_If,
    'hash_If': hash_If,
    'init_Try': init_Try,
    'eq_Try': eq_Try,
    'hash_Try': hash_Try,
    'init_Label': init_Label,
    'eq_Label': eq_Label,
    'hash_Label': hash_Label,
    'init_Break': init_Break,
    'eq_Break': eq_Break,
    'hash_Break': hash_Break,
    'init_FuncDef': init_FuncDef,
    'eq_FuncDef': eq_FuncDef,
    'hash_FuncDef': hash_FuncDef,
    'init_Import': init_Import,
    'eq_Import': eq_Import,
    'hash_Import': hash_Import,
}
