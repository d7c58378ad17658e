"""``unwrap=``: Match.target and Match.via, to_dict as ``--json --unwrap``,
and the Spark job's ``--unwrap`` (its rows the command's)."""

import json
import os
import sys

import pytest

import urlsift

# An HTML message in quoted-printable whose hrefs are a Safe Link (broken by
# soft line breaks), a Proofpoint v3 link, a plain link, a Mimecast link
# (opaque) and a Safe Link whose target is no URL.
MESSAGE = (
    b"From: a@example.org\r\nSubject: links\r\nMessage-ID: <u1@example.org>\r\n"
    b"MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n"
    b"Content-Transfer-Encoding: quoted-printable\r\n\r\n"
    b'<p><a href=3D"https://eur03.safelinks.protection.outlook.co=\r\n'
    b"m/?url=3Dhttps%3A%2F%2Fwww.rfc-editor.org%2Frfc%2Frfc1738&amp;data=3D05%7C0=\r\n"
    b'1%7Cb%40example.org&amp;reserved=3D0">the RFC</a>\r\n'
    b'<a href=3D"https://urldefense.com/v3/__https://example.com/*newsletter__;Iw!=\r\n'
    b'!x!y$">the letter</a> <a href=3D"https://example.org/plain">this</a>\r\n'
    b'<a href=3D"https://protect-eu.mimecast.com/s/zM1FB7zDRiZ">that</a>\r\n'
    b'<a href=3D"https://nam02.safelinks.protection.outlook.com/?url=3Dhttp%3A%2F%2F=\r\n'
    b'a.example%2F%3Cx%3E&amp;data=3D1">the other</a></p>\r\n'
)

TARGETS = [
    "https://www.rfc-editor.org/rfc/rfc1738",
    "https://example.com/#newsletter",
    None,
    None,
    None,
]
VIA = [["safelinks"], ["proofpoint-v3"], [], ["mimecast"], ["safelinks"]]


@pytest.fixture()
def message(tmp_path):
    path = tmp_path / "wrapped.eml"
    path.write_bytes(MESSAGE)
    return path


def test_match_target_and_via():
    found = urlsift.extract(MESSAGE, unwrap=True)
    assert [m.target for m in found] == TARGETS
    assert [m.via for m in found] == VIA
    assert found[0].url.startswith("https://eur03.safelinks.protection.outlook.com/?url=")
    # Without unwrap= nothing is computed, and to_dict is --json's.
    plain = urlsift.extract(MESSAGE)
    assert [m.url for m in plain] == [m.url for m in found]
    assert all(m.target is None and m.via is None for m in plain)
    assert all("target" not in m.to_dict() and "via" not in m.to_dict() for m in plain)


def test_to_dict_is_the_commands_json_unwrap(message, cli_json):
    want = cli_json("--unwrap", message)
    got = [m.to_dict() for m in urlsift.extract_file(str(message), unwrap=True)]
    assert got == want
    assert [o["target"] for o in want] == TARGETS
    with open(message, "rb") as f:
        streamed = [m.to_dict() for m in urlsift.extract_stream(f, name=str(message), unwrap=True)]
    assert streamed == want


def test_arrow_columns_with_unwrap():
    pa = pytest.importorskip("pyarrow")
    from urlsift import _urlsift
    from urlsift.arrow import record_batches, schema

    names = [n for n, *_ in _urlsift.columns(True)]
    at = names.index("warnings") + 1
    assert names[at:at + 2] == ["target", "via"]
    assert [n for n, *_ in _urlsift.columns()] == names[:at] + names[at + 2:]
    assert schema(True).field("via").type == pa.list_(pa.field("element", pa.string(), False))
    import io

    table = pa.Table.from_batches(list(record_batches(io.BytesIO(MESSAGE), unwrap=True)))
    assert table.column("target").to_pylist() == TARGETS
    assert table.column("via").to_pylist() == VIA
    lines = [
        json.loads(line)
        for b in record_batches(io.BytesIO(MESSAGE), unwrap=True, json=True)
        for line in b.column(0).to_pylist()
    ]
    assert [o["via"] for o in lines] == VIA
    assert list(lines[0])[list(lines[0]).index("warnings") + 1:][:2] == ["target", "via"]


pyspark_ok = True
try:
    import pyspark  # noqa: F401
except ImportError:
    pyspark_ok = False


@pytest.mark.skipif(not pyspark_ok, reason="needs pyspark")
def test_job_unwrap_rows_are_the_commands(root, message, cli_json, tmp_path):
    from pyspark.sql import SparkSession

    from test_spark import read_rows, tabular
    from urlsift.spark import main, row_schema

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master("local[2]").appName("urlsift-unwrap").getOrCreate()
    try:
        os.chdir(root)
        assert main(["--unwrap", "--out", str(tmp_path / "j"), str(message)]) == 0
        want = tabular(cli_json("--unwrap", message))
        assert read_rows(tmp_path / "j") == want
        # Parquet: typed columns, target a string and via an array of strings.
        assert main(["--unwrap", "--format", "parquet", "--out", str(tmp_path / "p"),
                     str(message)]) == 0
        df = spark.read.parquet(str(tmp_path / "p"))
        types = dict(df.dtypes)
        assert types["target"] == "string" and types["via"] == "array<string>"
        rows = sorted(df.select("offset", "target", "via").collect())
        assert [r["target"] for r in rows] == TARGETS
        assert [list(r["via"]) for r in rows] == VIA
        assert [f.name for f in row_schema(True)] == [f.name for f in df.schema]
        # Without --unwrap the job's rows have neither field.
        assert main(["--out", str(tmp_path / "n"), str(message)]) == 0
        assert all("target" not in r for r in read_rows(tmp_path / "n"))
    finally:
        spark.stop()
