"""naked= and raw= (issues 15 and 14): refused with a clear message while the
library lacks them; once it has them, the same rows as the command's
--naked and --raw. The tests of each option run as soon as it is wired."""

import os
import subprocess

import pytest

import urlsift
from urlsift.spark import walk

from conftest import SHARED

OPTIONS = {"naked": ["--naked"], "raw": ["--mime", "0.5"]}


def supported(option):
    try:
        urlsift.extract(b"", **{option: True})
        return True
    except NotImplementedError:
        return False


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_missing_option_is_refused_clearly(option, tmp_path):
    if supported(option):
        pytest.skip(f"{option}= is available")
    path = tmp_path / "a.txt"
    path.write_bytes(b"<URL:http://a.b/>\n")
    for call in (lambda: urlsift.extract(b"x", **{option: True}),
                 lambda: urlsift.extract_file(path, **{option: True})):
        with pytest.raises(NotImplementedError, match=f"{option}=True is not available yet"):
            call()
    # False is the default and always accepted.
    assert len(urlsift.extract(b"<URL:http://a.b/>", **{option: False})) == 1


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_option_gives_the_commands_rows(option, root, cli_json, tmp_path):
    if not supported(option):
        pytest.skip("needs library option")
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
            if not p.endswith(".gz"):
                rows = [dict(m.to_dict(), path=p) for m in urlsift.extract(data, **{option: True})]
                assert rows == [r for r in want if r["path"] == p]
