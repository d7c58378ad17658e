#!/usr/bin/env python3
"""Writes cjk.txt beside it: the naked-URL cases of contract rule 23 in
each multi-byte charset, the bytes made by Python's codecs.

    python3 tests/data/naked/gen-cjk.py

Each case is a message whose Content-Type declares the charset (or, for
ISO-2022-JP, plain text that declares nothing), its text encoded by the
codec, non-ASCII bytes and ESC written as escapes of the case format.
"""

import pathlib

JA = "詳細は（https://example.jp/a?b=1）をご覧ください。\n「http://a.example/x」、ftp://f.example/y、mailto:u@example.jp。\n"
ZH = "詳情請見（https://example.tw/a?b=1）。\n「http://a.example/x」、ftp://f.example/y、mailto:u@example.tw。\n"
ZH_CN = "详情请见（https://example.cn/a?b=1）。\n「http://a.example/x」、ftp://f.example/y、mailto:u@example.cn。\n"
KO = "자세한 내용은（https://example.kr/a?b=1）참조。\n「http://a.example/x」、ftp://f.example/y、mailto:u@example.kr。\n"
WANT = ["https://example{}/a?b=1", "http://a.example/x", "ftp://f.example/y", "mailto:u@example{}"]

# (case name, codec, charset label as mail writes it, text, top-level domain)
CASES = [
    ("shift-jis", "shift_jis", "Shift_JIS", JA, ".jp"),
    ("windows-31j", "cp932", "windows-31j", JA, ".jp"),
    ("euc-jp", "euc_jp", "EUC-JP", JA, ".jp"),
    ("iso-2022-jp", "iso2022_jp", "ISO-2022-JP", JA, ".jp"),
    ("utf-8-ja", "utf-8", "utf-8", JA, ".jp"),
    ("big5", "big5", "big5", ZH, ".tw"),
    ("gbk", "gbk", "GBK", ZH_CN, ".cn"),
    ("gb2312", "gb2312", "gb2312", ZH_CN, ".cn"),
    ("gb18030", "gb18030", "GB18030", ZH_CN, ".cn"),
    ("euc-kr", "euc_kr", "euc-kr", KO, ".kr"),
    ("utf-8-ko", "utf-8", "UTF-8", KO, ".kr"),
]


def escape(data: bytes) -> str:
    out = []
    for b in data:
        if b == 0x1B:
            out.append("\\e")
        elif b == 0x5C:
            out.append("\\\\")
        elif b >= 0x80 or (b < 0x20 and b != 0x0A):
            out.append("\\x%02x" % b)
        else:
            out.append(chr(b))
    return "".join(out)


def case(name, rule, data: bytes, want):
    return "=== %s\nrule: %s\nref: skip (the reference reads single bytes)\n--- input\n%s\n--- expect\n%s\n" % (
        name, rule, escape(data).rstrip("\n"), "\n".join(want))


def main():
    out = ["# Contract rule 23: naked URLs in multi-byte text, one case per charset.\n"
           "# Made by gen-cjk.py (Python's codecs); do not edit by hand.\n"]
    for name, codec, label, text, tld in CASES:
        body = text.encode(codec)
        mail = b"From a@b Thu Jan  1 00:00:00 1998\nContent-Type: text/plain; charset=" + \
            label.encode() + b"\n\n" + body
        want = [w.format(tld) for w in WANT]
        out.append(case(name, "23 a URL starts after '（', '「' or '、' in %s text" % label, mail, want))
    # A trail byte that is a letter (Shift_JIS `ア` is 0x83 0x41, Big5 `、`
    # 0xA1 0x42, code page 949 `갂` 0x81 0x41) or a digit (a GB18030
    # four-byte character) right before the scheme.
    for name, codec, label, ch in [("sjis-letter", "shift_jis", "sjis", "ア"),
                                   ("big5-letter", "big5", "big5", "、"),
                                   ("uhc-letter", "cp949", "ks_c_5601-1987", "갂"),
                                   ("gb18030-digit", "gb18030", "gb18030", "\u0452")]:
        data = ch.encode(codec)
        assert data[-1] < 0x80, (name, data)
        mail = b"Content-Type: text/plain; charset=\"" + label.encode() + b"\"\n\n" + \
            data + b"http://a.example/ " + data + b"news:comp.mail.mime\n"
        out.append(case(name, "23 the last byte of a character is no letter or digit of a scheme (%s)" % label,
                        mail, ["http://a.example/", "news:comp.mail.mime"]))
    # Undeclared: Shift_JIS read as single bytes (the rule applies where a
    # charset is declared), and ISO-2022-JP, known by its escapes anywhere.
    sjis = "（https://example.jp/）".encode("shift_jis")
    out.append(case("undeclared-shift-jis", "23 without a declared charset the bytes are single bytes (rules 14-15)",
                    b"Subject: x\n\n" + sjis + b"\n", ["ihttps://example.jp/"]))
    jis = ("詳細は（https://example.jp/a?b=1）、http://a.example/x です。\n").encode("iso2022_jp")
    out.append(case("iso-2022-jp-plain", "23 ISO-2022-JP is known by its escapes in text that declares nothing",
                    jis, ["https://example.jp/a?b=1", "http://a.example/x"]))
    # Two-byte text of ISO-2022-JP (ASCII bytes between `ESC $ B` and
    # `ESC ( B`) that would read as a URL holds none.
    two = b"\x1b$Bhttp://a.b/x\x1b(B ok http://c.example/\n"
    out.append(case("iso-2022-jp-two-byte-text", "23 two-byte text is no URL",
                    two, ["http://c.example/"]))
    # The charset is the part's: it ends with the part and the message,
    # and a folded Content-Type declares it as well.
    mixed = (b"From a@b Thu Jan  1 00:00:00 1998\nContent-Type: multipart/mixed; boundary=b\n\n"
             b"--b\nContent-Type: text/plain;\n charset=\"shift_jis\"\n\n" + sjis + b"\n"
             b"--b\nContent-Type: text/plain\n\n" + sjis + b"\n--b--\n\n"
             b"From a@b Thu Jan  1 00:00:00 1998\nSubject: y\n\n" + sjis + b"\n")
    out.append(case("charset-of-the-part", "23 the charset declared is its part's",
                    mixed, ["https://example.jp/", "ihttps://example.jp/", "ihttps://example.jp/"]))
    big5 = "（http://a.example/）、http://b.example/".encode("big5")
    folded = (b"From a@b Thu Jan  1 00:00:00 1998\nSubject: x\n\n" + big5 + b"\n\n"
              b"From a@b Thu Jan  1 00:00:00 1998\nContent-Type: text/plain;\n\tformat=flowed;\n\tcharset=big5\n"
              b"Subject: y\n\n" + big5 + b"\n\nFrom a@b Thu Jan  1 00:00:00 1998\n\n" + big5 + b"\n")
    out.append(case("folded-charset", "23 a charset on a continuation line of Content-Type",
                    folded, ["http://a.example/", "Bhttp://b.example/", "http://a.example/",
                             "http://b.example/", "http://a.example/", "Bhttp://b.example/"]))
    path = pathlib.Path(__file__).with_name("cjk.txt")
    path.write_text("\n".join(out))


if __name__ == "__main__":
    main()
