"""urlsift.parse gives urlsift --parse's objects and raises URLError."""

import json
import subprocess

import pytest

import urlsift

URLS = [
    "http://a.b/c?d",
    "HTTP://www.W3.org:80/hyper/text#frag",
    "ftp://user:pw@ds.internic.net/rfc/rfc1738.txt;type=a",
    "news:comp.infosystems.www",
    "news:1234@host.example",
    "nntp://news.example/comp.mail.misc/2047",
    "mailto:jim@example.org",
    "telnet://u@host.example:23/",
    "gopher://spinaltap.micro.umn.edu/00/Weather",
    "wais://vance.example:210/db?query",
    "file://localhost/etc/motd",
    "prospero://host.example/a/b;x=y",
    "http://a.b/~tilde",
    "x-private:anything+goes",
    "http://host-/",
    "http://bank.example@evil.example/",
    "ftp://a.b/c;type=q",
    "http://1.2.3/",
    "nope",
    "",
]


def cli_parse(urlsift_bin, url, *flags):
    out = subprocess.run([urlsift_bin, "--parse", *flags, "--", url], capture_output=True)
    assert out.returncode in (0, 1), out.stderr
    (line,) = out.stdout.splitlines()
    return json.loads(line)


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize("strict", [False, True])
def test_parse_as_the_command(urlsift_bin, url, strict):
    want = cli_parse(urlsift_bin, url, *(["--strict"] if strict else []))
    if want["valid"]:
        got = urlsift.parse(url, strict=strict)
        assert got == want
        assert list(got["parts"]) == list(want["parts"])
        assert urlsift.parse(url.encode(), strict=strict) == want
    else:
        with pytest.raises(urlsift.URLError) as e:
            urlsift.parse(url, strict=strict)
        err = e.value
        assert isinstance(err, ValueError)
        assert err.offset == want["error"]["offset"]
        assert f"{err.rule}: {err.reason}" == want["error"]["reason"]
        assert err.input == url
        assert f"at byte {err.offset}" in str(err) and err.rule in str(err)


def test_parse_type_error():
    with pytest.raises(TypeError, match="str or bytes"):
        urlsift.parse(None)
