"""The files and excerpts of docs/writing-definitions.md are what the commands write today: the LWS draft is
what `new` writes, and the excerpt of it the page quotes is in it. (The page's console blocks run in
tests/core/test_console_examples.py.)"""

from pathlib import Path

import click
from click.testing import CliRunner

from wmaplint import cli_new

ROOT = Path(__file__).resolve().parents[2]
LWS = ROOT / "docs" / "examples" / "lws"
PAGE = ROOT / "docs" / "writing-definitions.md"


def test_the_lws_draft_of_the_walkthrough_is_what_new_writes(tmp_path):
    group = click.Group(commands={"new": cli_new.new})
    out = tmp_path / "lws.yaml"
    result = CliRunner().invoke(group, ["new", "--kind", "LeaderWorkerSet", "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == (LWS / "lws-drafted.yaml").read_text()


def test_the_yaml_the_page_quotes_from_the_draft_is_in_it():
    text = PAGE.read_text()
    section = text[text.index("## From CRD to definition"):text.index("## Pin it in a test suite")]
    quoted = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert quoted in (LWS / "lws-drafted.yaml").read_text()
