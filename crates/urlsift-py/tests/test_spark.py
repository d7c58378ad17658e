"""The Spark job and the column function give the command's rows (Spark in
local mode; needs pyspark and Java)."""

import json
import os
import subprocess
import sys

import pytest

import urlsift
from rows import tabular

pyspark = pytest.importorskip("pyspark")


def key(row):
    return (row["path"], row["offset"], row["url"])


def job(root, *args):
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    return subprocess.run(
        [sys.executable, "-m", "urlsift.spark", "--master", "local[2]", *map(str, args)],
        capture_output=True, text=True, cwd=root, env=env, timeout=600,
    )




def read_rows(out_dir):
    rows = []
    for part in sorted(out_dir.glob("part-*")):
        rows.extend(json.loads(line) for line in part.read_text().splitlines())
    return rows


def test_job_rows_are_the_commands(root, cli_json, real_corpus, tmp_path):
    listing = tmp_path / "files"
    listing.write_text("samples/faq.txt\nsamples/mail\n\n")
    out = tmp_path / "out"
    run = job(root, "--files-from", listing, "--out", out, "samples/news", real_corpus)
    assert run.returncode == 0, run.stderr[-3000:]
    got = read_rows(out)
    want = tabular(cli_json("samples/faq.txt", "samples/mail", "samples/news", real_corpus))
    assert len(want) > 100
    assert sorted(got, key=key) == sorted(want, key=key)
    # Every key of every row is written, nulls included, in the command's order.
    assert all(list(r) == list(want[0]) for r in got)
    # Partitions hold consecutive files: the parts in order are the command's order.
    assert got == want
    # No output row without a path: the job names every file.
    assert all(r["path"] for r in got)


@pytest.fixture(scope="module")
def spark():
    """One local session for the in-process tests (a JVM start is slow)."""
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = SparkSession.builder.master("local[2]").appName("urlsift-test").getOrCreate()
    yield session
    session.stop()


def test_job_exit_status_and_unreadable_files(root, spark, tmp_path, capsys):
    from urlsift.spark import main

    os.chdir(root)
    empty = tmp_path / "empty.txt"
    empty.write_text("no urls here\n")
    assert main(["--out", str(tmp_path / "a"), str(empty)]) == 1
    assert read_rows(tmp_path / "a") == []
    missing = str(tmp_path / "missing")
    assert main(["--out", str(tmp_path / "b"), "samples/faq.txt", missing]) == 2
    assert "1 file(s) could not be read" in capsys.readouterr().err
    want = [m.to_dict() for m in urlsift.extract_file("samples/faq.txt")]
    assert read_rows(tmp_path / "b") == tabular(want)
    # The failure's row in OUT/_errors, as the command says it.
    failure = {"path": missing, "member": None, "error": "No such file or directory (os error 2)"}
    assert read_rows(tmp_path / "b" / "_errors") == [failure]
    # With Parquet, the errors in Parquet.
    assert main(["--out", str(tmp_path / "p"), "--format", "parquet", missing, "samples/faq.txt"]) == 2
    errors = spark.read.parquet(str(tmp_path / "p" / "_errors")).collect()
    assert [r.asDict() for r in errors] == [failure]
    assert spark.read.parquet(str(tmp_path / "p")).count() == len(want)
    # An existing output is kept unless --overwrite.
    with pytest.raises(Exception, match="already exists"):
        main(["--out", str(tmp_path / "b"), "samples/faq.txt"])
    assert main(["--out", str(tmp_path / "b"), "--overwrite", "--compression", "gzip",
                 "samples/faq.txt"]) == 0
    # JSON lines written as text (Spark's text writer names them .txt).
    parts = list((tmp_path / "b").glob("part-*"))
    assert parts and all(p.name.endswith(".txt.gz") for p in parts)


@pytest.mark.parametrize("option", ["naked", "raw"])
def test_job_options(root, spark, cli_json, option, tmp_path, capsys):
    from urlsift.spark import main

    os.chdir(root)
    assert main([f"--{option}", "--out", str(tmp_path / "o"), "samples"]) == 0
    assert read_rows(tmp_path / "o") == tabular(cli_json(f"--{option}", "samples"))


def test_extract_urls_column(root, spark):
    from pyspark.sql.types import BinaryType, StringType, StructField, StructType

    from urlsift.spark import MATCH_FIELDS, extract_urls

    texts = [(root / p).read_bytes() for p in ("samples/faq.txt", "samples/mail/inbox.mbox",
                                              "samples/news/comp.mail.misc/2047")]
    schema = StructType([StructField("text", StringType(), True),
                         StructField("raw", BinaryType(), True)])
    rows = [(t.decode("utf-8", "replace"), t) for t in texts] + [(None, None)]
    df = spark.createDataFrame(rows, schema)
    out = df.select(extract_urls("text").alias("a"), extract_urls(df.raw).alias("b")).collect()
    assert out[-1]["a"] is None and out[-1]["b"] is None
    for (text, raw), row in zip(rows[:-1], out[:-1]):
        for col, data in (("a", text), ("b", raw)):
            want = [{k: m.to_dict().get(k) for k in MATCH_FIELDS} for m in urlsift.extract(data)]
            got = [r.asDict(recursive=True) for r in row[col]]
            assert got == want
    assert sum(len(r["b"]) for r in out[:-1]) > 10


def test_extract_urls_column_unwraps(spark):
    """With ``unwrap=True`` the column's structs carry ``target`` and
    ``via`` after ``warnings``, as ``--json --unwrap`` writes them."""
    from urlsift.spark import MATCH_FIELDS, UNWRAP_FIELDS, extract_urls, match_struct

    text = ("see <https://l.facebook.com/l.php?u=https%3A%2F%2Fa.example%2Fx&h=AT0> "
            "and <http://b.example/>\n")
    df = spark.createDataFrame([(text,)], "text string")
    row = df.select(extract_urls("text", unwrap=True).alias("u")).collect()[0]
    got = [r.asDict(recursive=True) for r in row["u"]]
    names = list(match_struct(unwrap=True).names)
    at = names.index("warnings") + 1
    assert names[at:at + 2] == list(UNWRAP_FIELDS)
    assert [(g["url"], g["target"], g["via"]) for g in got] == [
        ("https://l.facebook.com/l.php?u=https%3A%2F%2Fa.example%2Fx&h=AT0",
         "https://a.example/x", ["facebook"]),
        ("http://b.example/", None, []),
    ]
    want = [{k: m.to_dict().get(k) for k in names} for m in urlsift.extract(text, unwrap=True)]
    assert got == want
    # Without it, the column is as before: no target, no via.
    plain = df.select(extract_urls("text").alias("u")).collect()[0]["u"]
    assert list(plain[0].asDict()) == list(MATCH_FIELDS)
