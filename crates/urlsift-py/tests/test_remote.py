"""Inputs by URI: an S3 server on the loopback (moto's server mode, dummy
credentials), an HTTP server on the loopback, and streams that Python
opened, each compared with the command's rows over the same files on disk.
Needs fsspec, s3fs, moto[server] and pyarrow (ci.sh installs them)."""

import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
import zipfile

import pytest

import urlsift
from rows import tabular

fsspec = pytest.importorskip("fsspec")
pytest.importorskip("s3fs")
pytest.importorskip("moto")
pa = pytest.importorskip("pyarrow")

BUCKET = "archives"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port, proc):
    for _ in range(200):
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("server did not start")


@pytest.fixture(scope="module")
def corpus(root, tmp_path_factory):
    """A small corpus on disk: the samples, a larger mbox made of the
    samples' messages, a zip and a .tar.gz of them."""
    out = tmp_path_factory.mktemp("remote") / "corpus"
    shutil.copytree(root / "samples", out)
    inbox = (root / "samples" / "mail" / "inbox.mbox").read_bytes()
    big = b"".join(inbox.replace(b"Message-ID: <", b"Message-ID: <%d." % i) for i in range(300))
    (out / "big.mbox").write_bytes(big)
    with zipfile.ZipFile(out / "mail.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(out / "mail" / "inbox.mbox", "inbox.mbox")
        z.write(out / "faq.txt", "docs/faq.txt")
    with tarfile.open(out / "news.tar.gz", "w:gz") as t:
        t.add(out / "news", "news")
    return out


@pytest.fixture(scope="module")
def s3(corpus):
    """moto's S3 server on the loopback with the corpus under
    s3://archives/corpus/; yields the storage options that reach it."""
    port = _free_port()
    endpoint = f"http://127.0.0.1:{port}"
    env = {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    old = {k: os.environ.get(k) for k in env}
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        _wait(port, proc)
        # The standard way: the environment (the job's tasks inherit it).
        os.environ.update(env)
        fs = fsspec.filesystem("s3", skip_instance_cache=True)
        fs.mkdir(BUCKET)
        fs.put(str(corpus), f"{BUCKET}/corpus", recursive=True)
        yield endpoint
    finally:
        proc.terminate()
        proc.wait()
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="module")
def http(corpus):
    """python -m http.server on the loopback serving the corpus."""
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", str(port)],
        cwd=corpus, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        _wait(port, proc)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait()


def rows_as(rows, local, uri):
    """The command's rows over ``local`` with ``path`` given as ``uri``."""
    out = []
    for r in rows:
        r = dict(r)
        assert r["path"].startswith(str(local))
        r["path"] = uri + r["path"][len(str(local)):]
        out.append(r)
    return out


FILES = ["faq.txt", "big.mbox", "mail/inbox.mbox", "mail/archive-1994.mbox.gz",
         "news/archive.zip", "mail.zip", "news.tar.gz"]


@pytest.mark.parametrize("name", FILES)
def test_extract_file_over_s3_gives_the_commands_rows(cli_json, corpus, s3, name):
    uri = f"s3://{BUCKET}/corpus/{name}"
    want = rows_as(cli_json(corpus / name), corpus / name, uri)
    assert want
    got = [m.to_dict() for m in urlsift.extract_file(uri)]
    assert got == want


@pytest.mark.parametrize("name", FILES)
def test_extract_stream_gives_the_commands_rows(cli_json, corpus, s3, name):
    want = rows_as(cli_json(corpus / name), corpus / name, name)
    # An open file, an fsspec file (range requests), and a stream that cannot
    # seek (a zip is spooled).
    with open(corpus / name, "rb") as f:
        assert [m.to_dict() for m in urlsift.extract_stream(f, name=name)] == want
    with fsspec.open(f"s3://{BUCKET}/corpus/{name}", "rb") as f:
        assert [m.to_dict() for m in urlsift.extract_stream(f, name=name)] == want

    class Pipe(io.RawIOBase):
        def __init__(self, data):
            self.data = io.BytesIO(data)

        def readable(self):
            return True

        def readinto(self, b):
            return self.data.readinto(b)

    pipe = io.BufferedReader(Pipe((corpus / name).read_bytes()))
    assert not pipe.seekable()
    assert [m.to_dict() for m in urlsift.extract_stream(pipe, name=name)] == want

    # read() only, no readinto: the bytes are copied.
    class ReadOnly:
        def __init__(self, data):
            self.data = io.BytesIO(data)

        def read(self, n):
            return self.data.read(min(n, 1000))

    got = urlsift.extract_stream(ReadOnly((corpus / name).read_bytes()), name=name)
    assert [m.to_dict() for m in got] == want


def test_extract_stream_without_a_name_and_bad_objects(corpus):
    with open(corpus / "faq.txt", "rb") as f:
        found = list(urlsift.extract_stream(f))
    assert found and all(m.path is None for m in found)
    with pytest.raises(TypeError):
        urlsift.extract_stream(str(corpus / "faq.txt"))
    with pytest.raises(TypeError):
        urlsift.extract_stream(42)
    with open(corpus / "faq.txt", "r") as f:
        with pytest.raises(OSError, match="binary"):
            list(urlsift.extract_stream(f))


def test_missing_and_unreachable_objects_name_their_uri(s3):
    uri = f"s3://{BUCKET}/corpus/no-such.mbox"
    with pytest.raises(FileNotFoundError) as e:
        urlsift.extract_file(uri)
    assert e.value.filename == uri
    with pytest.raises(FileNotFoundError) as e:
        urlsift.extract_file("s3://no-such-bucket/x")
    assert e.value.filename == "s3://no-such-bucket/x"
    # A store that cannot be reached (nothing listens on port 9): the
    # error names the URI too.
    opts = {"endpoint_url": "http://127.0.0.1:9"}
    with pytest.raises(OSError) as e:
        urlsift.extract_file(f"s3://{BUCKET}/corpus/faq.txt", storage_options=opts)
    assert e.value.filename == f"s3://{BUCKET}/corpus/faq.txt"


@pytest.mark.parametrize("cut", [30, 400])
def test_a_damaged_archive_in_the_store_is_reported_as_on_disk(urlsift_bin, corpus, tmp_path, s3, cut):
    """A zip cut short: the members before the damage give their rows, then
    the error, as for the same bytes on disk (and as the command says it)."""
    data = (corpus / "mail.zip").read_bytes()
    local = tmp_path / "cut.zip"
    local.write_bytes(data[:-cut])
    uri = f"s3://{BUCKET}/damaged/cut-{cut}.zip"
    fsspec.filesystem("s3").pipe(uri[len("s3://"):], data[:-cut])

    def run(path):
        rows = []
        with pytest.raises(OSError) as e:
            for m in urlsift.extract_file(path):
                rows.append(m.to_dict())
        return rows, str(e.value)

    on_disk, disk_error = run(str(local))
    in_store, store_error = run(uri)
    assert in_store == rows_as(on_disk, local, uri)
    assert store_error == disk_error.replace(str(local), uri)
    cmd = subprocess.run([urlsift_bin, "--json", str(local)], capture_output=True, text=True)
    assert cmd.returncode == 2
    # The command's messages are the ones raised, after the command's rows
    # (those of a member's bytes read before its damage too).
    said = [line[len("urlsift: "):] for line in cmd.stderr.splitlines()
            if line.startswith("urlsift: ")]
    assert said and all(line in disk_error for line in said)
    cmd_rows = [json.loads(line) for line in cmd.stdout.splitlines()]
    assert on_disk == cmd_rows


def test_file_uris_read_the_local_file(cli_json, corpus):
    uri = "file://" + str(corpus / "mail.zip")
    want = rows_as(cli_json(corpus / "mail.zip"), corpus / "mail.zip", uri)
    assert [m.to_dict() for m in urlsift.extract_file(uri)] == want


@pytest.mark.parametrize("name", ["big.mbox", "mail/archive-1994.mbox.gz", "mail.zip"])
def test_http_inputs(cli_json, corpus, http, name):
    uri = f"{http}/{name}"
    want = rows_as(cli_json(corpus / name), corpus / name, uri)
    # http.server serves no ranges: read as a stream (block_size 0).
    got = urlsift.extract_file(uri, storage_options={"block_size": 0})
    assert [m.to_dict() for m in got] == want
    with pytest.raises(FileNotFoundError) as e:
        urlsift.extract_file(f"{http}/missing.mbox")
    assert e.value.filename == f"{http}/missing.mbox"


def as_json(row):
    """A typed row as ``--json`` writes it: a timestamp in RFC 3339."""
    import datetime

    return {k: (v.strftime("%Y-%m-%dT%H:%M:%SZ") if isinstance(v, datetime.datetime) else v)
            for k, v in row.items()}


def test_arrow_batches_hold_the_matches(corpus):
    from urlsift.arrow import record_batches, schema

    # A message's date is a timestamp column (Spark's `timestamp`).
    assert str(schema().field("date").type) == "timestamp[us, tz=UTC]"

    for name in FILES:
        path = str(corpus / name)
        want = [m.to_dict() for m in urlsift.extract_file(path)]
        got = []
        for b in record_batches(path, rows=7):
            assert b.num_rows <= 7
            got.extend(as_json(r) for r in b.to_pylist())
        for w in want:
            w.setdefault("member", None)
            w.setdefault("encoding", None)
            w.setdefault("content_type", None)
            w.setdefault("anchor", None)
        spans = lambda r: {**r, "spans": [list(s) for s in r["spans"]]}  # noqa: E731
        assert [spans(r) for r in got] == [spans(w) for w in want]
        # As JSON lines: the same objects, keys in the columns' order.
        lines = [json.loads(v) for b in record_batches(path, rows=5, json=True)
                 for v in b.column(0).to_pylist()]
        assert lines == [spans(r) for r in got]
        assert all(list(r) == list(got[0]) for r in lines)


def test_ranges_of_a_large_file_give_the_rows_of_the_whole(corpus):
    from urlsift import spark
    from urlsift.arrow import record_batches

    path = str(corpus / "big.mbox")
    size = os.path.getsize(path)
    cuts = spark.cuts(path, size, split=size // 7)
    assert len(cuts) > 5
    whole = [b.to_pylist() for b in record_batches(path)]
    parts, lines = [], 0
    for a, b in zip(cuts, cuts[1:]):
        parts.extend(r for batch in record_batches(path, range=(a, b, lines)) for r in batch.to_pylist())
        lines += urlsift._urlsift.count_lines(path, a, b)
    assert parts == [r for batch in whole for r in batch]




def run_job(root, *args):
    pytest.importorskip("pyspark")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    return subprocess.run(
        [sys.executable, "-m", "urlsift.spark", "--master", "local[2]", *map(str, args)],
        capture_output=True, text=True, cwd=root, env=env, timeout=600,
    )


def read_json_rows(out_dir):
    rows = []
    for part in sorted(out_dir.glob("part-*")):
        rows.extend(json.loads(line) for line in part.read_text().splitlines())
    return rows


def test_job_over_an_s3_prefix_gives_the_commands_rows(root, cli_json, corpus, s3, tmp_path):
    prefix = f"s3://{BUCKET}/corpus/"
    want = tabular(rows_as(cli_json(corpus), corpus, prefix[:-1]))
    assert len(want) > 100
    # A listing kept in the store, a prefix, a small split size (big.mbox
    # is cut in ranges at message starts), a missing object reported.
    fs = fsspec.filesystem("s3")
    fs.pipe(f"{BUCKET}/lists/one", b"s3://archives/corpus/faq.txt\n")
    missing = f"s3://{BUCKET}/corpus/missing.mbox"
    out = tmp_path / "json"
    run = run_job(root, "--out", out, "--split-size", 20000, prefix,
                  "--files-from", f"s3://{BUCKET}/lists/one", missing)
    assert run.returncode == 2, run.stderr[-3000:]
    assert f"urlsift: {missing}: No such file or directory" in run.stderr
    faq = [r for r in want if r["path"].endswith("/faq.txt")]
    assert read_json_rows(out) == faq + want
    # Parquet: the same rows.
    out = tmp_path / "parquet"
    run = run_job(root, "--out", out, "--format", "parquet", "--compression", "zstd",
                  "--storage-option", f"endpoint_url={s3}", prefix)
    assert run.returncode == 0, run.stderr[-3000:]
    import pyarrow.parquet as pq

    got = []
    for part in sorted(out.glob("part-*.parquet")):
        got.extend(as_json(r) for r in pq.read_table(part).to_pylist())
    assert got == want


def test_json_lines_keep_a_subject_that_is_not_utf8(cli_json, tmp_path):
    from urlsift.arrow import record_batches

    path = tmp_path / "latin1.eml"
    path.write_bytes(b"Subject: caf\xe9 <news>\nDate: Tue, 12 Jan 1993 14:02:11 GMT\n\n<http://a.example/>\n")
    want = cli_json(path)
    assert want[0]["subject"] == {"bytes": "Y2Fm6SA8bmV3cz4="}
    lines = [json.loads(v) for b in record_batches(str(path), json=True) for v in b.column(0).to_pylist()]
    assert [r["subject"] for r in lines] == [w["subject"] for w in want]
    assert [r["date"] for r in lines] == ["1993-01-12T14:02:11Z"]
    # A typed column holds text: the byte that is not UTF-8 as U+FFFD.
    rows = [r for b in record_batches(str(path)) for r in b.to_pylist()]
    assert rows[0]["subject"] == "caf\ufffd <news>"
