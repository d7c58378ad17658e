"""urlsift.extract and urlsift.extract_file give the command's --json rows."""

import gzip
import io
import os
import subprocess
import sys
import threading
import time

import pytest

import urlsift
from urlsift.spark import walk

SAMPLES = ["samples/faq.txt", "samples/mail/inbox.mbox", "samples/mail/archive-1994.mbox.gz",
           "samples/news/comp.mail.misc/2047", "samples/news/comp.infosystems.www/1001"]


def file_rows(path, **options):
    return [m.to_dict() for m in urlsift.extract_file(path, **options)]


def tree_rows(top, **options):
    return [row for path in walk(str(top)) for row in file_rows(path, **options)]


@pytest.mark.parametrize("sample", SAMPLES)
def test_extract_file_gives_the_commands_rows(root, cli_json, sample):
    os.chdir(root)
    want = cli_json(sample)
    assert want, "a sample without URLs proves nothing"
    assert file_rows(sample) == want


@pytest.mark.parametrize("sample", SAMPLES)
def test_extract_gives_the_commands_rows_on_stdin(root, cli_json, sample):
    data = (root / sample).read_bytes()
    if sample.endswith(".gz"):
        data = gzip.decompress(data)
    want = cli_json("-", stdin=data)
    assert [m.to_dict() for m in urlsift.extract(data)] == want


def test_a_tree_gives_the_commands_rows(root, cli_json):
    os.chdir(root)
    assert tree_rows("samples") == cli_json("samples")


def test_real_corpus(cli_json, real_corpus):
    want = cli_json(real_corpus)
    assert len(want) > 100
    assert tree_rows(real_corpus) == want


def test_generated_corpus(cli_json, generated_corpus):
    want = cli_json(generated_corpus)
    assert len(want) > 1000
    assert tree_rows(generated_corpus) == want


def test_strict_as_the_command(cli_json, tmp_path):
    text = b"<URL:http://a.b/~x> <http://c.d/e?f/g> <ftp://h/i>\n"
    path = tmp_path / "t.txt"
    path.write_bytes(text)
    lenient = [m.to_dict() for m in urlsift.extract_file(path)]
    strict = [m.to_dict() for m in urlsift.extract_file(path, strict=True)]
    assert len(strict) < len(lenient)
    assert [dict(r, path=None) for r in lenient] == cli_json("-", stdin=text)
    assert [dict(r, path=None) for r in strict] == cli_json("--strict", "-", stdin=text)
    assert [m.to_dict() for m in urlsift.extract(text, strict=True)] == cli_json("--strict", "-", stdin=text)


HTML_MAIL = (b"Content-Type: multipart/alternative; boundary=b\n\n--b\n"
             b"Content-Type: text/plain\n\nPlain <http://p.example/>\n--b\n"
             b"Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n"
             b"<p><a href=3D\"http://h.example/x\">x</a> &lt;URL:ftp://f.example/&gt;</p>\n--b--\n")


@pytest.mark.parametrize("html", ["fallback", "always", "never"])
def test_html_as_the_command(cli_json, tmp_path, html):
    path = tmp_path / "alt.eml"
    path.write_bytes(HTML_MAIL)
    want = cli_json("--html", html, "-", stdin=HTML_MAIL)
    assert [m.to_dict() for m in urlsift.extract(HTML_MAIL, html=html)] == want
    got = [dict(m.to_dict(), path=None) for m in urlsift.extract_file(path, html=html)]
    assert got == want
    with open(path, "rb") as f:
        assert [dict(m.to_dict(), path=None) for m in urlsift.extract_stream(f, html=html)] == want
    forms = [r["form"] for r in want]
    assert ("href" in forms) == (html == "always")


def test_a_dict_has_the_keys_of_the_commands_object_in_its_order(cli_json, tmp_path):
    # Every optional key in its place: an archive member's path, a MIME
    # part's fields, a link's text, unwrap's target and via, the list id.
    mail = (
        b"From a@b Mon Jan  3 10:00:00 1994\nMessage-ID: <1@a>\nList-Id: <l.example>\n"
        b"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n"
        b"--b\nContent-Type: text/html\n\n<a href=\"https://www.google.com/url?q=https%3A%2F%2Fa.example%2F\">"
        b"a link</a>\n--b\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n"
        b"<URL:http://b.example/x>\n--b--\n"
    )
    import zipfile

    path = tmp_path / "m.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("in/mail.mbox", mail)
    for unwrap in (False, True):
        for list_id in (False, True):
            flags = (["--unwrap"] if unwrap else []) + (
                ["--fields", "date,newsgroups,subject,message-id,list-id"] if list_id else []
            )
            want = cli_json("--html", "always", *flags, path)
            got = [m.to_dict() for m in urlsift.extract_file(
                path, html="always", unwrap=unwrap, list_id=list_id)]
            assert len(got) == len(want) == 2
            assert [list(d) for d in got] == [list(o) for o in want]
            assert [dict(d, path=None) for d in got] == [dict(o, path=None) for o in want]
            assert "member" in got[0] and "anchor" in got[0] and "encoding" in got[1]


def test_html_anchor_text(cli_json):
    # A Big5 link text ("中文"), one in quoted-printable ISO-2022-JP ("日本"),
    # a link with no text and an area tag.
    mail = ("Content-Type: text/html; charset=big5\n\n"
            "<a href=http://tw.example/> \u4e2d\u6587 &amp;\n x</a><a href=http://img.example/><img></a>"
            "<map><area href=http://area.example/></map>\n").encode("big5")
    found = urlsift.extract(mail)
    assert [(m.url, m.anchor) for m in found] == [
        ("http://tw.example/", "\u4e2d\u6587 & x"),
        ("http://img.example/", ""),
        ("http://area.example/", None),
    ]
    assert [m.to_dict() for m in found] == cli_json("-", stdin=mail)
    jis = (b"Content-Type: text/html; charset=ISO-2022-JP\n"
           b"Content-Transfer-Encoding: quoted-printable\n\n"
           b"<a href=3Dhttp://jp.example/>=1B$BF|K\\=1B(B</a>\n")
    assert [m.anchor for m in urlsift.extract(jis)] == ["\u65e5\u672c"]
    assert "anchor" not in urlsift.extract(b"<http://plain.example/>")[0].to_dict()


def test_html_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="fallback"):
        urlsift.extract(b"", html="sometimes")


def test_str_and_bytes_agree_offsets_count_utf8_bytes():
    text = "caf\u00e9 <URL:http://a.b/c>\n\u00fcber <news:x.y>\n"
    from_str = [m.to_dict() for m in urlsift.extract(text)]
    from_bytes = [m.to_dict() for m in urlsift.extract(text.encode())]
    assert from_str == from_bytes
    assert [m["url"] for m in from_str] == ["http://a.b/c", "news:x.y"]
    assert from_str[0]["offset"] == text.encode().index(b"<URL:")
    assert from_str[0]["column"] == 7
    assert [m.to_dict() for m in urlsift.extract(bytearray(text.encode()))] == from_bytes


def test_bad_input_types_and_files():
    with pytest.raises(TypeError, match="bytes or str"):
        urlsift.extract(42)
    with pytest.raises(FileNotFoundError) as e:
        urlsift.extract_file("/no/such/file")
    assert e.value.filename == "/no/such/file"
    with pytest.raises(IsADirectoryError):
        list(urlsift.extract_file("/"))
    # Bytes that are no text at all are scanned as bytes: no error.
    assert urlsift.extract(bytes(range(256)) * 10) == []


def test_formats_go_by_content_not_name(tmp_path, cli_json):
    # As the command: a `.gz` name that is not gzip is read as it is.
    path = tmp_path / "x.gz"
    path.write_bytes(b"<URL:http://a.b/>\n")
    got = [m.to_dict() for m in urlsift.extract_file(path)]
    assert got == cli_json(path)
    assert [r["url"] for r in got] == ["http://a.b/"]


def test_gzip_by_magic_bytes(tmp_path):
    text = b"From a\nMessage-ID: <1@a>\n\n<URL:http://a.b/c>\n" * 3
    plain, packed = tmp_path / "m.mbox", tmp_path / "m.bin"
    plain.write_bytes(text)
    packed.write_bytes(gzip.compress(text))
    strip = lambda rows: [dict(r, path=None) for r in rows]
    assert strip(file_rows(packed)) == strip(file_rows(plain))
    assert len(file_rows(plain)) == 3


def test_match_attributes_are_the_dict():
    (m,) = urlsift.extract(b"Message-ID: <9@z>\n\n> <URL:HTTP://a.b/~x-\n>  y#f>\n")
    d = m.to_dict()
    for key, value in d.items():
        got = getattr(m, key)
        if key == "spans":
            got = [list(s) for s in got]
        assert got == value, key
    assert list(d) == ["path", "line", "column", "offset", "url", "form", "scheme", "fragment",
                       "broken", "hyphen", "alternative", "spans", "warnings", "message_id",
                       "date", "date_source", "newsgroups", "subject"]
    assert m.spans[0] == tuple(d["spans"][0])
    assert repr(m) == "Match(line=3, column=3, url='HTTP://a.b/~x-y#f', form='wrapped')"
    assert str(m) == m.url
    assert m == urlsift.extract(b"Message-ID: <9@z>\n\n> <URL:HTTP://a.b/~x-\n>  y#f>\n")[0]
    assert isinstance(m, urlsift.Match)


def test_message_fields():
    import base64
    import datetime

    mail = (b"From a@b Tue Jan 12 14:02:11 1993\nNewsgroups: comp.mail.misc, news.admin\n"
            b"Subject: =?ISO-8859-1?Q?caf=E9?= \xff\nDate: Tue, 12 Jan 93 14:02:11 EST\n\n"
            b"<http://a.example/>\n")
    (m,) = urlsift.extract(mail)
    assert m.date == datetime.datetime(1993, 1, 12, 19, 2, 11, tzinfo=datetime.timezone.utc)
    assert m.date.utcoffset() == datetime.timedelta(0)
    assert m.date_source == "date"
    assert m.newsgroups == ["comp.mail.misc", "news.admin"]
    # Bytes that are not UTF-8 come back exactly.
    assert m.subject.encode("utf-8", "surrogateescape") == "café".encode() + b" \xff"
    d = m.to_dict()
    assert d["date"] == "1993-01-12T19:02:11Z"
    assert d["subject"] == {"bytes": base64.b64encode("café".encode() + b" \xff").decode()}
    # The mbox From line dates a message with no Date:, before 1970 too.
    (m,) = urlsift.extract(b"From x Mon Jan  1 00:00:00 1968\n\n<http://b.example/>\n", raw=True)
    assert m.date == datetime.datetime(1968, 1, 1, tzinfo=datetime.timezone.utc)
    assert (m.date_source, m.subject, m.newsgroups, m.message_id) == ("from-line", None, None, None)
    (m,) = urlsift.extract(b"no message <http://c.example/>\n")
    assert (m.date, m.date_source) == (None, None)


def test_extract_file_is_lazy_and_iterates_once(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"<URL:http://a.b/>\n" * 5000)
    it = urlsift.extract_file(path)
    assert iter(it) is it
    assert repr(it) == f"<urlsift.FileMatches {str(path)!r}>"
    first = next(it)
    assert (first.line, first.path) == (1, str(path))
    assert sum(1 for _ in it) == 4999
    assert next(it, None) is None


def test_extract_file_streams_in_bounded_memory(tmp_path):
    # 200 MB of mail with a URL on every line, scanned in a fresh process
    # (max RSS is a high-water mark): its memory stays far below the
    # file's size. The process's own mark (VmHWM): getrusage's maxrss keeps
    # that of the forked copy of pytest before exec, large once pyarrow
    # and pyspark are imported.
    block = (b"From a@b Mon\nMessage-ID: <1@a>\n\n"
             + b"> text <URL:http://example.org/a/b/c> and more text to read\n" * 100 + b"\n")
    path = tmp_path / "big.mbox"
    with open(path, "wb") as f:
        for _ in range(200 * 1024 * 1024 // len(block)):
            f.write(block)
    code = (
        "import sys, urlsift\n"
        "n = sum(1 for m in urlsift.extract_file(sys.argv[1]) if m.message_id == '<1@a>')\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
        "print(n, int(hwm.split()[1]) // 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, check=True)
    n, max_rss_mb = map(int, out.stdout.split())
    assert n == 200 * 1024 * 1024 // len(block) * 100
    assert max_rss_mb < 64, f"max RSS {max_rss_mb} MB"


def test_a_large_file_read_ahead_gives_what_one_pass_gives(tmp_path):
    # Past a few hundred records a file's scan moves to a thread of its
    # own; the records are those of the whole bytes in one pass, in order.
    data = b"".join(
        b"From a@b Mon Jan  3 10:00:00 1994\nMessage-ID: <%d@a>\n\n<URL:http://h%d.example/%d>\n\n"
        % (i, i % 97, i) for i in range(5000))
    path = tmp_path / "many.mbox"
    path.write_bytes(data)
    want = [m.to_dict() for m in urlsift.extract(data)]
    got = [m.to_dict() for m in urlsift.extract_file(path)]
    for row in want:
        row["path"] = str(path)
    assert len(got) == 5000 and got == want


def test_a_large_file_of_every_kind_of_message_read_ahead_gives_what_one_pass_gives(tmp_path):
    # A file's scan moved to a thread keeps its messages' fields: every
    # field of every record is that of the whole bytes read in one pass,
    # for messages of every kind (encoded subjects, a raw 8-bit subject
    # decoded by its part's charset, a forwarded message, an HTML part, a
    # URL in a header, a header block of more than a MiB).
    long_header = b"".join(b"X-Filler-%d: %s\n" % (k, b"x" * 60) for k in range(20_000))
    kinds = [
        b"From a@b Mon Jan  3 10:00:00 1994\nMessage-ID: <%d@a>\nNewsgroups: comp.x,comp.y\n"
        b"Subject: =?iso-8859-1?q?caf=E9_%d?=\n\n<URL:http://h%d.example/%d>\n\n",
        b"From a@b Mon Jan  3 10:00:00 1994\nMessage-ID: <%d@a>\nList-Id: <list%d.example>\n"
        b"Subject: caf\xe9\nMIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n\n"
        b"<URL:http://h%d.example/%d>\n\n",
        b"From a@b Mon Jan  3 10:00:00 1994\nMessage-ID: <%d@a>\nX-Url: <URL:http://x%d.example/>\n"
        b"Date: Tue, 4 Jan 1994 10:00:00 +0100\nMIME-Version: 1.0\n"
        b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n\n"
        b"<a href=\"http://h%d.example/%d\">link</a>\n--b\nContent-Type: message/rfc822\n\n"
        b"Message-ID: <inner@a>\nSubject: inner\n\n<URL:http://inner.example/>\n--b--\n\n",
    ]
    data = b"".join(kinds[i % 3] % (i, i, i % 97, i) for i in range(12_000))
    data += b"From a@b Mon Jan  3 10:00:00 1994\nMessage-ID: <long@a>\n" + long_header
    data += b"X-Last: <URL:http://in-a-long-header.example/>\n\n<URL:http://after.example/>\n"
    assert len(data) > 2 * 1024 * 1024
    path = tmp_path / "large.mbox"
    path.write_bytes(data)
    for list_id in (False, True):
        want = [m.to_dict() for m in urlsift.extract(data, list_id=list_id)]
        got = [m.to_dict() for m in urlsift.extract_file(path, list_id=list_id)]
        for row in want:
            row["path"] = str(path)
        assert len(got) == len(want) == 20_002
        assert got == want
        assert got[-1]["message_id"] == "<long@a>"


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="threads counted in /proc")
def test_an_iterator_left_early_lets_its_scan_go(tmp_path):
    path = tmp_path / "a.txt"
    path.write_bytes(b"<URL:http://a.b/>\n" * 200_000)
    def threads():
        # The scans' own threads, by name (other threads of the process,
        # the test runner's or a JVM gateway's, may come and go).
        n = 0
        for t in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{t}/comm") as f:
                    n += f.read().strip() == "urlsift-scan"
            except (FileNotFoundError, ProcessLookupError):
                # The thread ended between the listing and the read.
                pass
        return n

    before = threads()
    assert before == 0
    for _ in range(20):
        it = urlsift.extract_file(path)
        assert sum(1 for _, _ in zip(range(1000), it)) == 1000
        # The scan has moved to its thread by now.
        assert threads() >= 1
        del it
    # Each scan's thread ends at its next hand-over once its iterator is
    # gone: none is left behind, blocked or reading on.
    deadline = time.monotonic() + 10
    while threads() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threads() <= before


def test_the_gil_is_released_while_scanning():
    data = b"> text <URL:http://example.org/a/b/c> more text\n" * 400_000
    ticks = 0
    stop = threading.Event()

    def tick():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    t = threading.Thread(target=tick)
    t.start()
    try:
        # Each extract call holds the GIL only to convert its results;
        # the other thread runs while the library scans.
        seen = []
        for _ in range(3):
            start = ticks
            found = urlsift.extract(data)
            seen.append(ticks - start)
        assert len(found) == 400_000
    finally:
        stop.set()
        t.join()
    assert max(seen) > 1000, seen



def test_walk_follows_links_and_stops_at_loops(tmp_path, capsys):
    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "d" / "b.txt").write_text("x")
    (tmp_path / "d" / "e" / "a.txt").write_text("x")
    (tmp_path / "d" / "e" / "up").symlink_to(tmp_path / "d")
    (tmp_path / "d" / "link.txt").symlink_to(tmp_path / "d" / "b.txt")
    errors = []
    got = list(walk(str(tmp_path / "d"), errors))
    top = str(tmp_path / "d")
    assert got == [f"{top}/b.txt", f"{top}/e/a.txt", f"{top}/link.txt"]
    assert len(errors) == 1 and "symbolic link loop" in errors[0]
    assert list(walk(str(tmp_path / "missing"))) == [str(tmp_path / "missing")]


def test_fields_are_the_commands_fields(cli_json, tmp_path):
    # `fields=` reads what `--fields` reads: the others are None (their
    # keys kept, as in the command's objects), the URLs the same.
    mail = (
        b"From a@b Mon Jan  3 10:00:00 1994\nMessage-ID: <1@a>\nNewsgroups: comp.mail.misc\n"
        b"Subject: =?utf-8?q?caf=C3=A9?=\nList-Id: <l.example>\n\n<URL:http://a.example/x>\n\n"
        b"From c@d Tue Jan  4 10:00:00 1994\nSubject: two\n\nsee <http://b.example/>\n"
    )
    path = tmp_path / "m.mbox"
    path.write_bytes(mail)
    for given, flag in [
        ("none", "none"),
        ((), "none"),
        ("date", "date"),
        (["subject", "message_id"], "subject,message-id"),
        ("Date, Newsgroups", "date,newsgroups"),
        (("list_id",), "list-id"),
        (None, "date,newsgroups,subject,message-id"),
    ]:
        want = cli_json("--fields", flag, path)
        for got in (
            [m.to_dict() for m in urlsift.extract_file(path, fields=given)],
            [m.to_dict() for m in urlsift.extract(mail, fields=given)],
            [m.to_dict() for m in urlsift.extract_stream(io.BytesIO(mail), fields=given)],
        ):
            assert len(got) == len(want) == 2, given
            assert [list(d) for d in got] == [list(o) for o in want], given
            assert [dict(d, path=None) for d in got] == [dict(o, path=None) for o in want], given
    dated = urlsift.extract(mail, fields="date")[0]
    assert dated.date is not None and dated.subject is None and dated.message_id is None
    assert urlsift.extract(mail, fields="list-id", list_id=False)[0].list_id == "l.example"
    with pytest.raises(ValueError, match="unknown field 'sender'"):
        urlsift.extract(mail, fields="date,sender")
    with pytest.raises(TypeError, match="fields="):
        urlsift.extract(mail, fields=3)
