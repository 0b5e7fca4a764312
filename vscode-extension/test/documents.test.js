"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { isWorkloadDocument } = require("../src/documents.js");

test("definitions and CRDs are served, in block or flow style, quoted or not", () => {
  assert.ok(isWorkloadDocument("/r/defs/jobset.yaml", "apiVersion: run.ai/v1alpha1\nkind: Karta\n"));
  assert.ok(isWorkloadDocument("/r/defs/old.yaml", "kind: 'ResourceInterface'\n"));
  assert.ok(isWorkloadDocument("/r/crds/ray.yaml", "---\nkind: CustomResourceDefinition\n"));
  assert.ok(isWorkloadDocument("Untitled-1", '{"kind": "Karta"}'));
});

test("definition test suites are served by their name", () => {
  assert.ok(isWorkloadDocument("/r/catalog/tests/jobset.test.yaml", "definition: ../jobset.yaml\ncases: []\n"));
  assert.ok(isWorkloadDocument("C:\\r\\tests\\x.TEST.YML", "cases: []\n"));
});

test("other YAML is left alone", () => {
  assert.ok(!isWorkloadDocument("/r/.github/workflows/ci.yaml", "on: push\njobs: {}\n"));
  assert.ok(!isWorkloadDocument("/r/deploy/job.yaml", "apiVersion: batch/v1\nkind: Job\n"));
  assert.ok(!isWorkloadDocument("/r/values.yaml", "kinds: Karta\n"));
});
