// @ts-check
"use strict";
// Which documents the server is attached to: YAML that holds a workload definition or a CRD, and definition
// test suites. Every other YAML file (manifests, workflows, charts) never reaches the server.

// The same kinds the server looks for; quotes and flow style (`{kind: Karta}`) count too.
const KIND = /["']?kind["']?\s*:\s*["']?(Karta|ResourceInterface|CustomResourceDefinition)\b/;
const SUITE_NAME = /\.test\.ya?ml$/i;

/**
 * @param {string} fileName the document's file name or path (untitled documents have none that matches)
 * @param {string} text the document's text
 * @returns {boolean}
 */
function isWorkloadDocument(fileName, text) {
  return SUITE_NAME.test(fileName) || KIND.test(text);
}

module.exports = { isWorkloadDocument };
