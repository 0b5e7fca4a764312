"""The analysis of status mappings (statusDefinition), as the status rules read it:

- ``mappings``: the statusDefinition the runtime reads, its matchers and condition entries;
- ``coverage``: which statuses a definition can report, and whether its kind runs to completion;
- ``knowledge``: what a kind's controller writes into status (the knowledge file, phase enums of its CRD);
- ``conjunctions``: matchers as conjunctions of requirements, and the logic over them;
- ``consistency``: which matchers contradict, repeat, hide or overlap each other.

Evaluating a mapping on a manifest is resolution's, not this package's.
"""
