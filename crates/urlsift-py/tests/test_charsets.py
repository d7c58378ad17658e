"""Subjects in other charsets come out of the package as text: the
library decodes them (encoded words in every charset, raw 8-bit subjects
by the message's declared charset), as Python's own email.header does."""

from email.header import decode_header, make_header

import urlsift


def message(subject: bytes, content_type: bytes = b"") -> bytes:
    return (b"From a@b Tue Jan 12 14:02:11 1993\nSubject: " + subject + b"\n" + content_type +
            b"\n<http://a.example/>\n")


def test_encoded_subjects_in_every_charset_decode_as_python_decodes_them():
    for word in [b"=?ISO-2022-JP?B?GyRCJEYkOSRIGyhC?=",
                 b"=?GB2312?Q?=D6=D0=CE=C4=D3=CA=BC=FE?=",
                 b"=?big5?B?pl7C0DogUmVhZCBzbWJpb3MyIGZpbGUgZmFpbGVk?=",
                 b"=?EUC-KR?B?sNTAuLinKGxhemluZXNzKSwgwvzB9ri7seIoaW1w?=\n =?EUC-KR?B?YXRpZW5jZSksILGzuLgoaHVicmlzKQ==?=",
                 b"=?KOI8-R?B?9NLJINPP18XUwSDQzyDJ09DPzNjaz9fBzsnAIA==?=\n\t=?KOI8-R?B?R21haWw=?="]:
        want = str(make_header(decode_header(word.decode("ascii").replace("\n", ""))))
        for raw in (False, True):
            (m,) = urlsift.extract(message(word), raw=raw)
            assert m.subject == want
            assert m.to_dict()["subject"] == want


def test_a_raw_big5_subject_takes_the_declared_charset():
    (m,) = urlsift.extract(message(b"\xa4\xa4\xa4\xe5", b"Content-Type: text/plain; charset=big5\n"))
    assert m.subject == "中文"
    # Declared nowhere: the bytes, as before.
    (m,) = urlsift.extract(message(b"\xa4\xa4\xa4\xe5"))
    assert m.subject.encode("utf-8", "surrogateescape") == b"\xa4\xa4\xa4\xe5"
