"""Counts in the tree's text and dot outputs agree with their nouns: 1 pod, 1 GPU, 2 pods, 2 GPUs."""

import json

from click.testing import CliRunner

from wmaplint.cli import main

POD = """\
apiVersion: v1
kind: Pod
metadata: {name: solo, namespace: team, uid: u1}
spec:
  containers:
  - name: c
    image: i
    resources: {limits: {nvidia.com/gpu: %s}}
"""


def _tree(tmp_path, gpus, *args):
    manifest = tmp_path / "pod.yaml"
    manifest.write_text(POD % gpus)
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "solo", "namespace": "team", "uid": "u1"},
           "spec": {"containers": [{"name": "c", "image": "i",
                                    "resources": {"limits": {"nvidia.com/gpu": gpus}}}]}}
    listed = tmp_path / "pods.json"
    listed.write_text(json.dumps({"apiVersion": "v1", "kind": "PodList", "items": [pod]}))
    args = tuple(str(listed) if a == "PODS" else a for a in args)
    result = CliRunner().invoke(main, ["tree", str(manifest), *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_pod_list_line_says_one_gpu_of_one_pod(tmp_path):
    out = _tree(tmp_path, 1, "--pods", "PODS")
    assert "  pod list: 1 pod of the workload, 1 GPU; predicted 1 pod, 1 GPU: agrees with the tree" in out
    assert "1 GPUs" not in out


def test_the_pod_list_line_says_gpus_of_two(tmp_path):
    out = _tree(tmp_path, 2, "--pods", "PODS")
    assert "  pod list: 1 pod of the workload, 2 GPUs; predicted 1 pod, 2 GPUs: agrees with the tree" in out


def test_the_dot_labels_say_one_pod_and_one_gpu(tmp_path):
    out = _tree(tmp_path, 1, "--format", "dot")
    assert 'label="Pod solo\\n1 pod, 1 GPU\\nInitializing"' in out
    assert 'label="(single)\\n1 pod, 1 GPU"' in out


def test_the_dot_labels_say_gpus_of_two(tmp_path):
    out = _tree(tmp_path, 2, "--format", "dot")
    assert 'label="Pod solo\\n1 pod, 2 GPUs\\nInitializing"' in out
    assert 'label="(single)\\n1 pod, 2 GPUs"' in out


def test_a_fraction_of_a_gpu_is_written_as_a_decimal_not_as_a_float_exponent(tmp_path):
    # 10u of nvidia.com/gpu (an API server wants an extended resource whole; the tree still shows it): the
    # JSON number 1e-05 was written into the text as "1e-05 GPUs"
    text = _tree(tmp_path, "10u", "--pods", "PODS")
    dot = _tree(tmp_path, "10u", "--format", "dot")
    assert "1 workload, 1 pod, 0.00001 GPUs" in text
    assert "pod list: 1 pod of the workload, 0.00001 GPUs; predicted 1 pod, 0.00001 GPUs" in text
    assert 'label="(single)\\n1 pod, 0.00001 GPUs"' in dot
    assert "e-05" not in text + dot
