"""The Python examples of the docs: every ```python block compiles, and the
pandas step of docs/dates.md runs on the command's --json over samples/
and gives the first date of each host per newsgroup."""

import json
import os
import re
import subprocess

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_blocks(page):
    text = page.read_text(encoding="utf-8")
    return [(page.name, m.group(1)) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]


BLOCKS = [b for page in PAGES for b in python_blocks(page)]


def test_the_docs_have_python_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("name,code", BLOCKS, ids=[f"{n}#{i}" for i, (n, _) in enumerate(BLOCKS)])
def test_every_python_example_compiles(name, code):
    compile(code, name, "exec")


def test_the_pandas_step_gives_the_first_date_per_newsgroup(urlsift_bin, tmp_path):
    pd = pytest.importorskip("pandas")
    out = subprocess.run([urlsift_bin, "--json", "samples/"], cwd=ROOT, capture_output=True, check=True)
    (tmp_path / "urls.jsonl").write_bytes(out.stdout)
    (name, code), = [b for b in python_blocks(ROOT / "docs" / "dates.md") if "pd.read_json" in b[1]]
    scope = {}
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, name, "exec"), scope)
    finally:
        os.chdir(here)
    first = scope["first"]
    assert isinstance(first, pd.DataFrame) and len(first) > 0
    rows = {(r.newsgroups, r.host): r.date for r in first.itertuples()}
    # The same answer as the jq step the page shows.
    assert rows[("comp.mail.misc", "ftp.example.net")].isoformat() == "1994-12-22T16:45:10+00:00"
    assert rows[("comp.infosystems.www", "ds.internic.net")].isoformat() == "1994-12-21T10:02:33+00:00"
    rows_json = [json.loads(line) for line in out.stdout.splitlines()]
    assert any(r["newsgroups"] for r in rows_json)
