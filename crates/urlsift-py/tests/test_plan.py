"""How the Spark job plans its tasks (no Spark needed): runs balanced by
bytes in order, cuts at message starts, listing order, storage options,
small batches grouped."""

import pytest

from urlsift import _urlsift, remote
from urlsift.spark import SLOP, balance, cuts, grouped, storage_options

pytest.importorskip("pyarrow")


def test_runs_keep_the_order_and_balance_the_bytes():
    tasks = [(f"f{i}", size, None) for i, size in enumerate([10] * 40 + [1000] + [10] * 60)]
    runs = balance(tasks, 4)
    assert [t for run in runs for t in run] == tasks
    # The large file is a run alone; the small ones are grouped.
    assert [("f40", 1000, None)] in runs
    assert len(runs) <= 5
    assert balance([], 4) == []
    assert balance(tasks[:1], 8) == [tasks[:1]]


def test_cuts_fall_on_message_starts(tmp_path):
    msg = b"From a@b Mon\nMessage-ID: <%d@x>\n\n<URL:http://a.b/%d>\n\n"
    data = b"".join(msg % (i, i) for i in range(5000))
    path = tmp_path / "m.mbox"
    path.write_bytes(data)
    c = cuts(str(path), len(data), split=len(data) // 10)
    assert c[0] == 0 and c[-1] == len(data) and c == sorted(set(c))
    assert len(c) > 8
    for at in c[1:-1]:
        assert data[at - 2:at + 5] == b"\n\nFrom "
    # A compressed file is not cut; nor is a small one.
    import gzip

    gz = tmp_path / "m.mbox.gz"
    gz.write_bytes(gzip.compress(data))
    assert cuts(str(gz), gz.stat().st_size, split=1000) == [0, gz.stat().st_size]
    assert cuts(str(path), len(data)) == [0, len(data)]
    # A file a little larger than the split size stays whole; no last
    # range is a few bytes.
    assert cuts(str(path), len(data), split=int(len(data) / (1 + SLOP / 2))) == [0, len(data)]
    split = len(data) // 3 - 100
    c = cuts(str(path), len(data), split=split)
    assert len(c) == 4 and c[-1] - c[-2] >= split * SLOP
    assert _urlsift.count_lines(str(path), 0, len(data)) == data.count(b"\n")
    assert _urlsift.message_start(b"x\n\nFrom a\n\nFrom b") == 11
    assert _urlsift.message_start(b"no message here") is None


def test_listing_order_is_the_commands():
    names = ["a-b/x", "a/x", "a/b/c", "B", "a.txt"]
    assert sorted(names, key=remote._key) == ["B", "a/b/c", "a/x", "a-b/x", "a.txt"]


def test_storage_options_are_typed_and_nested():
    got = storage_options(["anon=true", "client_kwargs.region_name=eu-west-1",
                           "block_size=0", "endpoint_url=http://h:9000/a=b"])
    assert got == {"anon": True, "client_kwargs": {"region_name": "eu-west-1"},
                   "block_size": 0, "endpoint_url": "http://h:9000/a=b"}
    with pytest.raises(ValueError):
        storage_options(["novalue"])


def test_uris_and_paths():
    assert remote.is_remote("s3://b/k") and remote.is_remote("HTTPS://h/x")
    assert not remote.is_remote("dir/file") and not remote.is_remote("file:///tmp/x")
    assert remote.local_path("file:///tmp/a%20b") == "/tmp/a b"
    assert remote.local_path("plain/path") == "plain/path"


def test_small_batches_are_grouped_in_order():
    import pyarrow as pa

    def batch(*values):
        return pa.RecordBatch.from_arrays([pa.array(values, pa.string())], names=["value"])

    small = [batch(f"{i}a", f"{i}b") for i in range(5)]
    large = batch(*[f"l{i}" for i in range(6)])
    got = list(grouped(small[:2] + [large] + small[2:], rows=5))
    values = [v for b in got for v in b.column(0).to_pylist()]
    want = [v for b in small[:2] + [large] + small[2:] for v in b.column(0).to_pylist()]
    assert values == want
    # Joined until they reach 5 rows; a large batch alone passes as it is.
    assert [b.num_rows for b in got] == [10, 6]
    assert list(grouped([large], rows=5)) == [large]
    assert list(grouped([])) == []
