"""Damaged inputs: the URLs of the bytes before a damage are given, as the
command gives them, then the damage is said (raised, warned or listed, as
``errors=`` asks)."""

import gzip
import json
import subprocess
import warnings
import zipfile

import pytest

import urlsift


def mailbox(root, copies):
    """The samples' mailbox ``copies`` times, each copy's Message-IDs its own."""
    inbox = (root / "samples" / "mail" / "inbox.mbox").read_bytes()
    return b"".join(inbox.replace(b"Message-ID: <", b"Message-ID: <%d." % i) for i in range(copies))


@pytest.fixture(scope="module")
def damaged(root, tmp_path_factory):
    """A gzipped mailbox cut in half, a zip cut short and a zip with a
    damaged member."""
    out = tmp_path_factory.mktemp("damaged")
    data = gzip.compress(mailbox(root, 40))
    (out / "cut.mbox.gz").write_bytes(data[: len(data) // 2])
    with zipfile.ZipFile(out / "whole.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.mbox", mailbox(root, 20))
        z.write(root / "samples" / "faq.txt", "docs/faq.txt")
        z.writestr("c.mbox", mailbox(root, 20))
    data = (out / "whole.zip").read_bytes()
    (out / "cut.zip").write_bytes(data[: len(data) * 2 // 3])
    bad = bytearray(data)
    # Bytes inside the first member's deflate stream.
    for k in range(len(data) // 4, len(data) // 4 + 4):
        bad[k] ^= 0xFF
    (out / "bad.zip").write_bytes(bytes(bad))
    return out


def command(urlsift_bin, path):
    """The command's ``--json`` rows, exit status and messages over ``path``."""
    out = subprocess.run([urlsift_bin, "--json", str(path)], capture_output=True, text=True)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    said = [line[len("urlsift: "):] for line in out.stderr.splitlines() if line.startswith("urlsift: ")]
    return rows, out.returncode, said


NAMES = ["cut.mbox.gz", "cut.zip", "bad.zip"]


@pytest.mark.parametrize("name", NAMES)
def test_the_rows_before_a_damage_are_the_commands(urlsift_bin, damaged, name):
    path = str(damaged / name)
    want, status, said = command(urlsift_bin, path)
    assert status == 2 and said
    assert len(want) > 10
    got = []
    with pytest.raises(OSError) as e:
        for m in urlsift.extract_file(path):
            got.append(m.to_dict())
    assert got == want
    # One (member, error) per failure, each the command's message.
    damages = e.value.damages
    assert len(damages) == len(said)
    for (member, error), line in zip(damages, said):
        where = path if member is None else f"{path}{{{member}}}"
        assert line == f"{where}: {error}"
    # A stream open in Python gives the same.
    with open(path, "rb") as f:
        it = urlsift.extract_stream(f, name=path, errors="ignore")
        assert [m.to_dict() for m in it] == want
        assert it.damages == damages


def test_the_cut_gzip_gives_what_the_command_counts(urlsift_bin, damaged):
    path = str(damaged / "cut.mbox.gz")
    out = subprocess.run([urlsift_bin, "-c", path], capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.strip() == f"urlsift: {path}: incomplete deflate stream"
    count = int(out.stdout)
    assert count > 10
    it = urlsift.extract_file(path, errors="ignore")
    assert it.damages == []
    assert sum(1 for _ in it) == count
    assert it.damages == [(None, "incomplete deflate stream")]


def test_errors_warn_and_ignore(damaged):
    path = str(damaged / "cut.mbox.gz")
    want = [m.url for m in urlsift.extract_file(path, errors="ignore")]
    with pytest.warns(urlsift.DamageWarning, match="incomplete deflate stream") as caught:
        got = [m.url for m in urlsift.extract_file(path, errors="warn")]
    assert got == want and len(caught) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        it = urlsift.extract_file(path, errors="ignore")
        assert [m.url for m in it] == want
        # The iteration is over: it stays over.
        assert list(it) == []
    # A file that reads well says nothing in any mode.
    for mode in ("strict", "warn", "ignore"):
        it = urlsift.extract_file(str(damaged / "whole.zip"), errors=mode)
        assert sum(1 for _ in it) > 10 and it.damages == []
    with pytest.raises(ValueError, match="errors="):
        urlsift.extract_file(path, errors="replace")
    # A file that cannot be opened raises at once, whatever errors says.
    with pytest.raises(FileNotFoundError):
        urlsift.extract_file(str(damaged / "missing.gz"), errors="ignore")


def test_arrow_batches_keep_the_rows_before_a_damage(urlsift_bin, damaged):
    pytest.importorskip("pyarrow")
    from urlsift.arrow import record_batches

    for name in NAMES:
        path = str(damaged / name)
        it = urlsift.extract_file(path, errors="ignore")
        want = [m.url for m in it]
        got = []
        with pytest.raises(OSError) as e:
            for b in record_batches(path, rows=7, json=True):
                got.extend(json.loads(v)["url"] for v in b.column(0).to_pylist())
        assert got == want
        assert e.value.damages == it.damages and it.damages
