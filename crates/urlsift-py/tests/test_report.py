"""The derivatives from Python (urlsift.Derivatives) and from the Spark job
(``--report``) are the command's (``urlsift --report``), byte for byte, on
samples/ (whose messages have no List-Id: the job's rows carry none)."""

import os
import subprocess
import sys

import pytest

import urlsift

FILES = ("timeline.csv", "domains.csv", "domains-by-year.csv", "groups.csv",
         "graph.gexf", "graph.graphml", "index.html")


def command_report(urlsift_bin, root, tmp_path, *paths):
    out = tmp_path / "cmd"
    run = subprocess.run([urlsift_bin, "--report", str(out), *paths], cwd=root,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return {f: (out / f).read_text() for f in FILES}


def sample_files(root):
    for dirpath, _, names in sorted(os.walk(root / "samples")):
        for n in sorted(names):
            yield os.path.relpath(os.path.join(dirpath, n), root)


def test_derivatives_from_python_are_the_commands(urlsift_bin, root, tmp_path):
    want = command_report(urlsift_bin, root, tmp_path, "samples")
    # Counted in two halves and merged through bytes, as Spark does.
    halves = [urlsift.Derivatives(), urlsift.Derivatives()]
    for i, path in enumerate(sample_files(root)):
        for m in urlsift.extract_file(str(root / path)):
            t = int(m.date.timestamp()) if m.date else None
            halves[i % 2].add(m.url, t, m.newsgroups, None, path, m.member, m.message_id)
    d = urlsift.Derivatives.from_bytes(
        urlsift.Derivatives.merge_bytes(halves[0].to_bytes(), halves[1].to_bytes()))
    assert d.urls == sum(h.urls for h in halves)
    got = d.files()
    for f in FILES:
        assert got[f] == want[f], f
    with pytest.raises(ValueError):
        urlsift.Derivatives.from_bytes(b"not derivatives")


def test_job_report_is_the_commands(urlsift_bin, root, tmp_path):
    pytest.importorskip("pyspark")
    want = command_report(urlsift_bin, root, tmp_path, "samples")
    for fmt in ("json", "parquet"):
        rep = tmp_path / f"job-{fmt}"
        env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
        run = subprocess.run(
            [sys.executable, "-m", "urlsift.spark", "--master", "local[2]", "--format", fmt,
             "--out", str(tmp_path / f"rows-{fmt}"), "--report", str(rep), "samples"],
            capture_output=True, text=True, cwd=root, env=env, timeout=600)
        assert run.returncode == 0, run.stderr[-3000:]
        for f in FILES:
            assert (rep / f).read_text() == want[f], (fmt, f)
