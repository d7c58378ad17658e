"""The derivatives from Python (urlsift.Derivatives) and from the Spark job
(``--report``) are the command's (``urlsift --report``), byte for byte, on
samples/ and on mailing-list mail (grouped by its List-Id where it has no
Newsgroups, which the job reads for the report only: its rows stay the
same)."""

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


@pytest.mark.parametrize("unwrap", [False, True])
def test_derivatives_counted_by_the_scan_are_the_commands(urlsift_bin, root, tmp_path, unwrap):
    """record_batches(report=...) counts as the command does, as the job's
    tasks count (a Derivatives per task, pickled and merged), with
    --unwrap counting the targets the command prints."""
    pytest.importorskip("pyarrow")
    import pickle

    from urlsift.arrow import record_batches

    flags = ["--unwrap"] if unwrap else []
    out = tmp_path / "cmd"
    run = subprocess.run([urlsift_bin, *flags, "--report", str(out), "samples"], cwd=root,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    want = {f: (out / f).read_text() for f in FILES}
    total = urlsift.Derivatives()
    rows = 0
    for i, path in enumerate(sample_files(root)):
        d = urlsift.Derivatives()
        for b in record_batches(str(root / path), name=path, unwrap=unwrap, json=i % 2 == 0,
                                report=d):
            rows += b.num_rows
        total.merge(pickle.loads(pickle.dumps(d)))
    assert total.urls == rows > 0
    got = total.files()
    for f in FILES:
        assert got[f] == want[f], f


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


# Mail of three lists (List-Id with and without a phrase, one folded, one in
# another case) and a message of none; no Newsgroups anywhere.
LISTS = b"""From a@example.org Tue Jan 12 14:02:11 1993
Message-ID: <1@example.org>
Date: Tue, 12 Jan 1993 14:02:11 -0500
List-Id: Gopher news
  <gopher-news.lists.example.edu>

<http://gopher.example.edu/a> and <ftp://ftp.example.com/pub/>

From b@example.org Wed Mar  3 10:00:00 1994
Message-ID: <2@example.org>
Date: Wed, 3 Mar 1994 10:00:00 +0000
list-id: www-talk.info.example.ch

<URL:http://info.example.ch/hypertext/WWW/TheProject.html>
<mailto:timbl@info.example.ch> <http://gopher.example.edu/b>

From c@example.org Thu Mar  4 10:00:00 1994
Message-ID: <3@example.org>
Date: Thu, 4 Mar 1994 10:00:00 +0000
List-Id: <www-talk.info.example.ch>

<http://info.example.ch/> <http://www.example.co.uk/x>

From d@example.org Fri Mar  5 10:00:00 1994
Message-ID: <4@example.org>
Date: Fri, 5 Mar 1994 10:00:00 +0000

no list here: <http://alone.example.net/>

From e@example.org Sat Mar  6 10:00:00 1995
Message-ID: <5@example.org>
List-Id: Undated list <undated.example.org>

<gopher://gopher.example.edu/1/>
"""

# A news article that also came through a list (Newsgroups wins), and one
# of a group alone.
NEWS = b"""From news Mon Jan  1 00:00:00 1996
Message-ID: <6@example.org>
Date: Mon, 1 Jan 1996 00:00:00 +0000
Newsgroups: comp.infosystems.www,comp.mail.misc
List-Id: <gopher-news.lists.example.edu>

<http://gopher.example.edu/c> <news:comp.infosystems.www>

From news Tue Jan  2 00:00:00 1996
Message-ID: <7@example.org>
Date: Tue, 2 Jan 1996 00:00:00 +0000
Newsgroups: alt.hypertext

<http://www.example.co.uk/y>
"""


@pytest.fixture(scope="module")
def spark():
    """One local session for the in-process jobs (a JVM start is slow)."""
    pyspark = pytest.importorskip("pyspark")
    from pyspark.sql import SparkSession

    del pyspark
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = SparkSession.builder.master("local[2]").appName("urlsift-report").getOrCreate()
    yield session
    session.stop()


def _corpus(tmp_path, name, files):
    d = tmp_path / name
    d.mkdir()
    for n, data in files.items():
        (d / n).write_bytes(data)
    return d


def _rows(out, fmt):
    """The rows a job wrote: the JSON lines' bytes, or the Parquet table."""
    parts = sorted(p for p in out.iterdir() if p.name.startswith("part-"))
    if fmt == "json":
        return b"".join(p.read_bytes() for p in parts)
    import pyarrow.parquet as pq

    return pq.read_table(out)


@pytest.mark.parametrize("corpus", ["lists", "lists-and-news"])
def test_job_report_is_the_commands_on_lists(urlsift_bin, root, spark, tmp_path, corpus):
    from urlsift.spark import main

    files = {"lists.mbox": LISTS}
    if corpus == "lists-and-news":
        files["news.mbox"] = NEWS
    src = _corpus(tmp_path, corpus, files)
    want = command_report(urlsift_bin, root, tmp_path, str(src))
    # The lists are the groups (the test would pass vacuously otherwise).
    groups = want["groups.csv"]
    assert "gopher-news.lists.example.edu,example.edu," in groups
    assert "www-talk.info.example.ch,example.ch," in groups
    assert "undated.example.org," in groups
    assert ("comp.mail.misc," in groups) == (corpus == "lists-and-news")
    for fmt in ("json", "parquet"):
        rep = tmp_path / f"rep-{fmt}"
        assert main(["--format", fmt, "--out", str(tmp_path / f"rows-{fmt}"), "--report", str(rep),
                     str(src)]) == 0
        for f in FILES:
            assert (rep / f).read_text() == want[f], (corpus, fmt, f)
        # The rows written are those of the job without --report.
        assert main(["--format", fmt, "--out", str(tmp_path / f"plain-{fmt}"), str(src)]) == 0
        got, plain = _rows(tmp_path / f"rows-{fmt}", fmt), _rows(tmp_path / f"plain-{fmt}", fmt)
        if fmt == "json":
            assert got == plain and b'"list_id"' not in got
        else:
            assert got.schema == plain.schema and "list_id" not in got.schema.names
            assert got.equals(plain)


def test_list_id_of_matches_and_batches(tmp_path):
    from urlsift.arrow import record_batches, schema

    path = tmp_path / "lists.mbox"
    path.write_bytes(LISTS)
    ids = ["gopher-news.lists.example.edu"] * 2 + ["www-talk.info.example.ch"] * 5 + [
        None, "undated.example.org"]
    asked = list(urlsift.extract_file(str(path), list_id=True))
    assert [m.list_id for m in asked] == ids
    plain = list(urlsift.extract_file(str(path)))
    assert all(m.list_id is None for m in plain)
    # to_dict: the default object, and with list_id=True "list_id" last.
    for a, p in zip(asked, plain):
        d = a.to_dict()
        assert list(d)[-1] == "list_id"
        assert {k: v for k, v in d.items() if k != "list_id"} == p.to_dict()
        assert "list_id" not in p.to_dict()
    assert [m.list_id for m in urlsift.extract(LISTS, list_id=True)] == ids
    with open(path, "rb") as f:
        assert [m.list_id for m in urlsift.extract_stream(f, list_id=True)] == ids
    # Arrow: a last typed column, or a column beside the JSON lines (which
    # stay the rows without it).
    (b,) = record_batches(str(path), list_id=True)
    assert b.schema == schema(list_id=True) and b.schema.names[-1] == "list_id"
    assert b.schema.remove(len(b.schema) - 1) == schema()
    assert b.column("list_id").to_pylist() == ids
    (j,) = record_batches(str(path), json=True, list_id=True)
    (jp,) = record_batches(str(path), json=True)
    assert j.schema.names == ["value", "list_id"]
    assert j.column("list_id").to_pylist() == ids
    assert j.column("value").equals(jp.column("value"))
