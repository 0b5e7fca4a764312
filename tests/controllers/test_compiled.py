"""The compiled controller model (``schemas/controllers.bin``): what the YAML files give, kept in step by its
build, and never trusted when stale or damaged (the YAML files are read instead)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from wmaplint import memo
from wmaplint.controllers import MODEL_DIR, load_model
from wmaplint.controllers import compile as compile_command
from wmaplint.controllers import compiled as compiled_model
from wmaplint.controllers import load as model_load

FILES = sorted(MODEL_DIR.glob("*.yaml"))


def test_the_compiled_model_is_what_the_yaml_files_give() -> None:
    from_yaml = model_load.model_from_files(FILES, validate=True)
    found = compiled_model.read(compiled_model.compiled_file(), MODEL_DIR)
    assert found is not None, "schemas/controllers.bin is stale: run `make controllers`"
    assert found == from_yaml
    assert [k.gvk(v) for k in found.kinds for v in k.versions] == from_yaml.gvks()
    milvus = found.model_for("milvus.io", "Milvus", "v1beta1")
    assert milvus is not None and milvus.file == "schemas/controllers/milvus-operator.yaml"


def test_the_committed_file_is_what_the_build_writes() -> None:
    assert compiled_model.compiled_file().read_bytes() == compile_command.build()
    assert compile_command.main(["check"]) == 0


def test_a_run_reads_the_compiled_form_and_no_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the YAML files were read")

    monkeypatch.setattr(model_load, "model_from_files", refuse)
    memo.reset_all()
    assert load_model().model_for("ray.io", "RayJob", "v1") is not None


@pytest.fixture
def model_copy(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the model's YAML files and of the compiled form made from them."""
    directory = tmp_path / "controllers"
    shutil.copytree(MODEL_DIR, directory)
    target = tmp_path / "controllers.bin"
    target.write_bytes(compile_command.build(directory))
    return directory, target


def test_a_copy_compiles_to_what_it_reads_back(model_copy: tuple[Path, Path]) -> None:
    directory, target = model_copy
    from_yaml = model_load.model_from_files(sorted(directory.glob("*.yaml")))
    assert compiled_model.read(target, directory) == from_yaml


def test_a_changed_yaml_file_makes_the_compiled_form_stale(model_copy: tuple[Path, Path]) -> None:
    directory, target = model_copy
    kueue = directory / "kueue.yaml"
    kueue.write_text(kueue.read_text(encoding="utf-8") + "\n# a comment\n", encoding="utf-8")
    assert compiled_model.read(target, directory) is None


@pytest.mark.parametrize("change", ["added", "removed"])
def test_a_model_file_added_or_removed_makes_it_stale(model_copy: tuple[Path, Path], change: str) -> None:
    directory, target = model_copy
    if change == "added":
        shutil.copy(directory / "kueue.yaml", directory / "zz-copy.yaml")
    else:
        (directory / "kueue.yaml").unlink()
    assert compiled_model.read(target, directory) is None


@pytest.mark.parametrize("damage", ["a byte of the data", "truncated", "the magic line", "the header",
                                    "another shape", "empty"])
def test_a_damaged_compiled_form_is_not_used(model_copy: tuple[Path, Path], damage: str) -> None:
    directory, target = model_copy
    data = bytearray(target.read_bytes())
    if damage == "a byte of the data":
        data[-100] ^= 0x01
    elif damage == "truncated":
        data = data[:len(data) // 2]
    elif damage == "the magic line":
        data[:len(compiled_model.MAGIC)] = b"wmaplint controller model 0\n"
    elif damage == "the header":
        data = data.replace(b'"sha256"', b'"sha-256"', 1)
    elif damage == "another shape":  # the model's classes changed since it was compiled
        data = data.replace(b'"release_labels"', b'"release_label"', 1)
    else:
        data = bytearray()
    target.write_bytes(bytes(data))
    assert compiled_model.read(target, directory) is None


def test_without_a_usable_compiled_form_the_yaml_files_are_read(monkeypatch: pytest.MonkeyPatch,
                                                                tmp_path: Path) -> None:
    monkeypatch.setattr(compiled_model, "compiled_file", lambda: tmp_path / "missing.bin")
    memo.reset_all()
    assert load_model() == model_load.model_from_files(FILES)


def test_check_says_when_the_committed_file_is_stale(model_copy: tuple[Path, Path],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    _, target = model_copy
    target.write_bytes(target.read_bytes()[:-1])
    assert compile_command.main(["check", "--file", str(target)]) == 1
    assert "make controllers" in capsys.readouterr().err
