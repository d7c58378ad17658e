"""Bad objects do not end the job: over a listing that holds a missing
object, an object the credentials may not read (403 from moto's S3 server
on the loopback, IAM enforced), a truncated gzip and a damaged zip, the
job writes every other row (the command's over the same bytes on disk),
one row per failure into ``OUT/_errors``, says how many inputs failed and
exits 2 as the command does. Needs fsspec, s3fs, moto[server], pyarrow
and pyspark (ci.sh installs them)."""

import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile

import pytest

import urlsift
from rows import tabular

fsspec = pytest.importorskip("fsspec")
pytest.importorskip("s3fs")
pytest.importorskip("moto")
boto3 = pytest.importorskip("boto3")
pytest.importorskip("pyspark")

BUCKET = "night"
#: What the reader's credentials may not read.
DENIED = "secret/"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port, proc):
    for _ in range(200):
        if proc.poll() is not None:
            raise RuntimeError(f"moto exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("moto did not start")


def mailbox(root, copies):
    inbox = (root / "samples" / "mail" / "inbox.mbox").read_bytes()
    return b"".join(inbox.replace(b"Message-ID: <", b"Message-ID: <%d." % i) for i in range(copies))


@pytest.fixture(scope="module")
def corpus(root, tmp_path_factory):
    """On disk: readable files, a gzip cut in half, a zip with a damaged
    member, and the file the store will deny."""
    out = tmp_path_factory.mktemp("bad") / "corpus"
    out.mkdir()
    shutil.copy(root / "samples" / "faq.txt", out / "faq.txt")
    shutil.copy(root / "samples" / "mail" / "inbox.mbox", out / "inbox.mbox")
    data = gzip.compress(mailbox(root, 30))
    (out / "cut.mbox.gz").write_bytes(data[: len(data) // 2])
    with zipfile.ZipFile(out / "bad.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(root / "samples" / "faq.txt", "docs/faq.txt")
        z.writestr("a.mbox", mailbox(root, 20))
        z.write(root / "samples" / "mail" / "inbox.mbox", "inbox.mbox")
    data = bytearray((out / "bad.zip").read_bytes())
    for k in range(len(data) // 2, len(data) // 2 + 4):  # inside a.mbox's deflate stream
        data[k] ^= 0xFF
    (out / "bad.zip").write_bytes(bytes(data))
    (out / "denied.mbox").write_bytes(mailbox(root, 2))
    return out


@pytest.fixture(scope="module")
def store(corpus):
    """moto's S3 server on the loopback with the corpus in s3://night/,
    IAM enforced once it is filled: yields the environment of a reader
    allowed everything but s3:GetObject under secret/."""
    port = _free_port()
    endpoint = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        _wait(port, proc)
        admin = dict(endpoint_url=endpoint, aws_access_key_id="testing",
                     aws_secret_access_key="testing", region_name="us-east-1")
        s3 = boto3.client("s3", **admin)
        s3.create_bucket(Bucket=BUCKET)
        for name in ("faq.txt", "inbox.mbox", "cut.mbox.gz", "bad.zip"):
            s3.put_object(Bucket=BUCKET, Key=f"corpus/{name}", Body=(corpus / name).read_bytes())
        s3.put_object(Bucket=BUCKET, Key=f"corpus/{DENIED}denied.mbox",
                      Body=(corpus / "denied.mbox").read_bytes())
        iam = boto3.client("iam", **admin)
        iam.create_user(UserName="reader")
        policy = {
            "Version": "2012-10-17",
            "Statement": [
                {"Effect": "Allow", "Action": "s3:*", "Resource": "*"},
                {"Effect": "Deny", "Action": "s3:GetObject",
                 "Resource": f"arn:aws:s3:::{BUCKET}/corpus/{DENIED}*"},
            ],
        }
        iam.put_user_policy(UserName="reader", PolicyName="no-secrets",
                            PolicyDocument=json.dumps(policy))
        key = iam.create_access_key(UserName="reader")["AccessKey"]
        # From now on every request is authenticated and authorized.
        req = urllib.request.Request(f"{endpoint}/moto-api/reset-auth", data=b"0", method="POST",
                                     headers={"Content-Type": "text/plain"})
        urllib.request.urlopen(req).read()
        yield {
            "AWS_ENDPOINT_URL": endpoint,
            "AWS_ACCESS_KEY_ID": key["AccessKeyId"],
            "AWS_SECRET_ACCESS_KEY": key["SecretAccessKey"],
            "AWS_DEFAULT_REGION": "us-east-1",
        }
    finally:
        proc.terminate()
        proc.wait()


def uri(name):
    return f"s3://{BUCKET}/corpus/{name}"




def test_the_store_denies_what_it_should(store):
    fs = fsspec.filesystem("s3", key=store["AWS_ACCESS_KEY_ID"], secret=store["AWS_SECRET_ACCESS_KEY"],
                           endpoint_url=store["AWS_ENDPOINT_URL"], skip_instance_cache=True)
    assert fs.cat(f"{BUCKET}/corpus/faq.txt")
    with pytest.raises(PermissionError):
        fs.cat(f"{BUCKET}/corpus/{DENIED}denied.mbox")
    with pytest.raises(PermissionError) as e:
        list(urlsift.extract_file(uri(DENIED + "denied.mbox"), storage_options={
            "key": store["AWS_ACCESS_KEY_ID"], "secret": store["AWS_SECRET_ACCESS_KEY"],
            "endpoint_url": store["AWS_ENDPOINT_URL"]}))
    assert e.value.filename == uri(DENIED + "denied.mbox")


def test_bad_objects_do_not_end_the_job(urlsift_bin, root, corpus, store, tmp_path):
    order = ["faq.txt", "missing.mbox", DENIED + "denied.mbox", "cut.mbox.gz", "inbox.mbox",
             "bad.zip"]
    readable = ["faq.txt", "cut.mbox.gz", "inbox.mbox", "bad.zip"]
    fs = fsspec.filesystem("s3", key=store["AWS_ACCESS_KEY_ID"], secret=store["AWS_SECRET_ACCESS_KEY"],
                           endpoint_url=store["AWS_ENDPOINT_URL"], skip_instance_cache=True)
    fs.pipe(f"{BUCKET}/lists/night", "".join(uri(n) + "\n" for n in order).encode())

    # The command over the same bytes on disk: its rows, and the damage it says.
    cmd = subprocess.run([urlsift_bin, "--json", *(str(corpus / n) for n in readable)],
                         capture_output=True, text=True, cwd=root)
    assert cmd.returncode == 2
    want = []
    for line in cmd.stdout.splitlines():
        r = json.loads(line)
        r["path"] = uri(os.path.basename(r["path"]))
        want.append(r)
    want = tabular(want)
    assert {r["path"] for r in want} == {uri(n) for n in readable}
    assert any(r["path"] == uri("cut.mbox.gz") for r in want)

    out = tmp_path / "out"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, **store)
    run = subprocess.run(
        [sys.executable, "-m", "urlsift.spark", "--master", "local[2]", "--partitions", "3",
         "--files-from", f"s3://{BUCKET}/lists/night", "--out", str(out)],
        capture_output=True, text=True, cwd=root, env=env, timeout=600,
    )
    assert run.returncode == 2, run.stderr[-3000:]
    rows = []
    for part in sorted(out.glob("part-*")):
        rows.extend(json.loads(line) for line in part.read_text().splitlines())
    assert rows == want

    errors = []
    for part in sorted((out / "_errors").glob("part-*")):
        errors.extend(json.loads(line) for line in part.read_text().splitlines())
    damage = {n: urlsift.extract_file(str(corpus / n), errors="ignore") for n in ("cut.mbox.gz", "bad.zip")}
    for it in damage.values():
        list(it)
    expected = [
        {"path": uri("missing.mbox"), "member": None, "error": "No such file or directory"},
        {"path": uri(DENIED + "denied.mbox"), "member": None, "error": "Permission denied"},
    ]
    for n in ("cut.mbox.gz", "bad.zip"):
        assert damage[n].damages
        expected.extend({"path": uri(n), "member": m, "error": e} for m, e in damage[n].damages)
    assert errors == expected
    assert any(e["member"] == "a.mbox" for e in errors)
    # Each failure said as the command says it, and how many inputs failed.
    for e in expected:
        where = e["path"] if e["member"] is None else f"{e['path']}{{{e['member']}}}"
        assert f"urlsift: {where}: {e['error']}" in run.stderr
    assert f"urlsift: 4 file(s) could not be read ({len(expected)} failure(s) in {out}/_errors)" in run.stderr
    # Spark's readers of OUT skip _errors.
    assert not any("error" in r for r in rows)


def test_a_task_outlives_what_an_input_raises(monkeypatch):
    """Whatever an input raises (a panic of the library too) ends that
    input's reading, after its batches, and not the task."""
    pa = pytest.importorskip("pyarrow")
    from urlsift import arrow, spark

    batch = pa.RecordBatch.from_arrays([pa.array(["{}"])], schema=arrow.JSON_SCHEMA)

    def failing(src, **kw):
        yield batch
        raise RuntimeError("boom")

    class Acc:
        def __init__(self, zero):
            self.value = zero

        def add(self, v):
            self.value += v

    monkeypatch.setattr(arrow, "record_batches", failing)
    counts, errors, failed = Acc(0), Acc(0), Acc([])
    got = list(spark.batches(("a.mbox", 10, None), counts=counts, errors=errors, failed=failed))
    assert got == [batch]
    assert (counts.value, errors.value) == (1, 1)
    assert failed.value == [("a.mbox", None, "RuntimeError: boom")]
    # A generator closed early is closed, not counted as a failure.
    monkeypatch.setattr(arrow, "record_batches", lambda src, **kw: iter([batch, batch]))
    counts, errors, failed = Acc(0), Acc(0), Acc([])
    g = spark.batches(("a.mbox", 10, None), counts=counts, errors=errors, failed=failed)
    next(g)
    g.close()
    assert (errors.value, failed.value) == (0, [])
