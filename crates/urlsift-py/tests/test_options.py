"""naked= and raw= give the same rows as the command's --naked and --raw."""

import os
import subprocess

import pytest

import urlsift
from urlsift.spark import walk

from conftest import SHARED

OPTIONS = {"naked": ["--naked"], "raw": ["--mime", "0.5"]}


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_option_gives_the_commands_rows(option, root, cli_json, tmp_path):
    gen = SHARED / "bench" / "gen-corpus"
    corpus = tmp_path / "corpus"
    subprocess.run(["python3", str(gen), "--size", "2M", "--seed", "3", "--out", str(corpus),
                    *OPTIONS[option]], check=True, capture_output=True)
    os.chdir(root)
    for top in ("samples", str(corpus)):
        want = cli_json(f"--{option}", top)
        got = [m.to_dict() for p in walk(top) for m in urlsift.extract_file(p, **{option: True})]
        assert got == want, top
        for p in walk(top):
            data = open(p, "rb").read()
            mine = [r for r in want if r["path"] == p]
            # extract() reads bytes as they are: no decompression, no archive.
            if not p.endswith(".gz") and not any("member" in r for r in mine):
                rows = [dict(m.to_dict(), path=p) for m in urlsift.extract(data, **{option: True})]
                assert rows == mine
