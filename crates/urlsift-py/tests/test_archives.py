"""extract_file reads archives and compressed files as the command does:
members named, nested archives opened, damage raised after the records
before it (the command prints those records and exits 2)."""

import bz2
import io
import lzma
import tarfile
import zipfile

import pytest

import urlsift

MAIL = (b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <1@x>\n\n"
        b"see <URL:http://a.example/one> and\n<ftp://b.example/pub/two>\n")
NEWS = b"Message-ID: <2@y>\n\nbroken <URL:http://c.exa\n  mple/three>\n"


def tar_bytes(files, mode="w"):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as t:
        for name, data in files:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(files):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            z.writestr(name, data)
    return buf.getvalue()


@pytest.fixture
def archives(tmp_path):
    inner = tar_bytes([("spool/1", NEWS)], "w:gz")
    made = {
        "a.zip": zip_bytes([("box/m.mbox", MAIL), ("dir/", b""), ("n.tgz", inner)]),
        "b.tar.xz": lzma.compress(tar_bytes([("m.mbox", MAIL), ("art", NEWS)])),
        "c.mbox.bz2": bz2.compress(MAIL),
        "d.tgz": inner,
    }
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path, sorted(made)


def test_archives_give_the_commands_rows(archives, cli_json):
    d, names = archives
    for name in names:
        path = str(d / name)
        want = cli_json(path)
        got = [m.to_dict() for m in urlsift.extract_file(path)]
        assert got == want, name
        assert got, name
    nested = [m for m in urlsift.extract_file(str(d / "a.zip")) if m.member == "n.tgz}{spool/1"]
    assert [m.url for m in nested] == ["http://c.example/three"]
    assert nested[0].message_id == "<2@y>"
    assert urlsift.extract_file(str(d / "c.mbox.bz2")).__next__().member is None


def test_damage_comes_after_the_records_before_it(tmp_path, urlsift_bin):
    import subprocess

    whole = zip_bytes([("one.txt", MAIL), ("two.txt", NEWS)])
    cut = tmp_path / "cut.zip"
    # The second member's data cut off: the first is still read.
    cut.write_bytes(whole[: whole.index(b"two.txt") + 40])
    it = urlsift.extract_file(str(cut))
    got = []
    with pytest.raises(OSError) as e:
        for m in it:
            got.append((m.member, m.url))
    assert ("one.txt", "http://a.example/one") in got
    assert "cut.zip" in str(e.value)
    run = subprocess.run([urlsift_bin, "--json", str(cut)], capture_output=True)
    assert run.returncode == 2
    assert len(run.stdout.splitlines()) == len(got)
