"""Text and JUnit XML reports of definition test runs (`wmaplint test`)."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

from wmaplint.report.lines import diagnostic_line
from wmaplint.suites.suite import CaseResult, SuiteResult
from wmaplint.writes import OutputTarget, WriteError, output_target, refuse_inputs, write_target


def _notes(suite: SuiteResult) -> list[str]:
    """Each distinct note once per suite (a kind without a schema is named once, not per case)."""
    seen: dict[str, None] = {}
    for case in suite.cases:
        seen.update(dict.fromkeys(case.notes))
    return list(seen)


def _case_detail(case: CaseResult) -> list[str]:
    lines = [case.error] if case.error else []
    lines.extend(case.differences)
    lines.extend(diagnostic_line(d) for d in case.diagnostics)
    return lines


def render_results(results: list[SuiteResult]) -> str:
    lines: list[str] = []
    passed = failed = 0
    for suite in results:
        if suite.error is not None:
            failed += 1
            lines.append(f"ERROR {suite.path}: {suite.error}")
            continue
        for case in suite.cases:
            if case.passed:
                passed += 1
                lines.append(f"PASS  {suite.path} :: {case.name}" + (" (updated)" if suite.updated else ""))
            else:
                failed += 1
                lines.append(f"FAIL  {suite.path} :: {case.name}")
                lines.extend(f"        {line}" for line in _case_detail(case))
        lines.extend(f"NOTE  {suite.path}: {note}" for note in _notes(suite))
    lines.append(f"{passed} passed, {failed} failed")
    return "\n".join(lines) + "\n"


def junit_xml(results: list[SuiteResult]) -> str:
    root = ET.Element("testsuites", name="wmaplint test")
    for suite in results:
        element = ET.SubElement(root, "testsuite", name=suite.path)
        tests = failures = errors = 0
        if suite.error is not None:
            errors += 1
            tests += 1
            case = ET.SubElement(element, "testcase", name="(suite)", classname=suite.path)
            ET.SubElement(case, "error", message=suite.error)
        for result in suite.cases:
            tests += 1
            case = ET.SubElement(element, "testcase", name=result.name, classname=suite.path)
            if result.error:
                errors += 1
                ET.SubElement(case, "error", message=result.error)
            elif not result.passed:
                failures += 1
                failure = ET.SubElement(case, "failure", message=f"{len(result.differences)} difference(s)")
                failure.text = "\n".join(_case_detail(result))
            elif suite.recording:  # what decided, so a passing replay can be read too
                output = ET.SubElement(case, "system-out")
                output.text = "\n".join([
                    f"matches: {', '.join(result.actual.get('matches') or ['Undefined'])}",
                    f"decided by: {result.actual.get('decided')}",
                    f"definition: {result.actual.get('definition')}",
                    *(diagnostic_line(d) for d in result.diagnostics),
                ])
            elif result.diagnostics:  # expected schema findings: still worth reading in CI
                output = ET.SubElement(case, "system-out")
                output.text = "\n".join(diagnostic_line(d) for d in result.diagnostics)
        element.set("tests", str(tests))
        element.set("failures", str(failures))
        element.set("errors", str(errors))
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _files_read(suites: list[str], inputs: list[str] | tuple[str, ...]) -> list[str]:
    """Every file a run of ``suites`` (suites and recordings) and ``inputs`` (definitions, CRD files and
    directories) reads: themselves, the files a suite or recording names (a suite is read to know; the other
    inputs name none, and a CRD file read as a suite was parsed whole for nothing), the shipped catalog's
    definitions recordings are replayed with, the schema files below a CRD directory, on WMAPLINT_SCHEMA_PATH
    and in the user's schema directory."""
    from wmaplint.resolve.loading import catalog_dir
    from wmaplint.schema.sources import schema_files
    from wmaplint.suites.runner import files_read

    catalog = catalog_dir()
    read = [*suites, *inputs, *(f for p in suites if os.path.isfile(p) for f in files_read(Path(p)))]
    read += [str(path) for path in catalog.glob("*.yaml")] if catalog.is_dir() else []
    return [*read, *schema_files(p for p in inputs if os.path.isdir(p))]


def junit_target(name: str, suites: list[str], inputs: list[str] | tuple[str, ...] = ()) -> OutputTarget:
    """Where ``--junit`` goes, decided before any suite runs (``wmaplint.writes``, as ``--output``): a link is
    refused, a device or pipe written into, a directory or a file the run reads refused (the ``suites`` and
    ``inputs``, the definitions and CRDs named, and what they bring: `_files_read`); WriteError, one line."""
    target = output_target(name, shown=f"--junit {name}", follow_symlinks=False, link_hint="")
    try:
        read = [*suites, *inputs]
        if target.path is not None:  # only a file to replace can be one the run reads
            read = _files_read(suites, inputs)
        refuse_inputs(target, read)
    except WriteError:
        if target.fd is not None and not target.borrowed:
            os.close(target.fd)
        raise
    return target


def write_junit(results: list[SuiteResult], target: OutputTarget) -> None:
    """Write the report to a target of `junit_target`; WriteError when it cannot be."""
    write_target(target, junit_xml(results).encode("utf-8"))
