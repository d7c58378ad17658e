#!/usr/bin/env python3
"""Writes words.tsv and real.tsv: RFC 2047 encoded words per charset with
the text Python's email.header decodes them to (tests/charsets.rs checks
the library against them).

Run once, from this folder, with Python 3.11 or later:

    python3 gen.py

words.tsv: each line is `label <TAB> header value <TAB> decoded`, the
value's folds written `\\n` (a line break; the next line starts with a
blank). For each charset: a B word and a Q word of a text in that charset,
the text split into two words at a byte in the middle (inside a character
when it is one of several bytes), and the split words folded onto two
lines. Only texts that Python's codec and the WHATWG Encoding Standard
decode alike are used (the Encoding Standard reads iso-8859-1 as
windows-1252, gb2312 as GBK, ...: the texts avoid the bytes where those
differ).

real.tsv: headers seen in public archives (the source in the first
column), decoded by Python the same way.
"""

import base64
import binascii
from email.header import decode_header, make_header

# (label written in the word, Python codec, text)
CHARSETS = [
    ("ISO-2022-JP", "iso2022_jp", "日本語の件名テスト"),
    ("iso-2022-jp", "iso2022_jp", "Re: 会議の予定について"),
    ("Shift_JIS", "shift_jis", "日本語の件名テスト"),
    ("sjis", "shift_jis", "メールの件名"),
    ("EUC-JP", "euc_jp", "日本語の件名テスト"),
    ("GB2312", "gb2312", "中文邮件测试"),
    ("gbk", "gbk", "论坛用户激活通知"),
    ("GB18030", "gb18030", "中文邮件测试"),
    ("Big5", "big5", "中文郵件測試"),
    ("big5-hkscs", "big5hkscs", "中文郵件"),
    ("EUC-KR", "euc_kr", "한국어 메일 제목"),
    ("ks_c_5601-1987", "euc_kr", "안녕하세요"),
    ("KOI8-R", "koi8_r", "Привет, мир"),
    ("koi8-u", "koi8_u", "Привіт, світе"),
    ("windows-1251", "cp1251", "Тема письма"),
    ("cp1251", "cp1251", "Здравствуйте"),
    ("ISO-8859-5", "iso8859_5", "Привет"),
    ("IBM866", "cp866", "Привет"),
    ("ISO-8859-1", "latin_1", "Andr\u00e9 Pirard, caf\u00e9"),
    ("windows-1252", "cp1252", "\u201cquoted\u201d \u20ac 5"),
    ("ISO-8859-2", "iso8859_2", "P\u0159\u00edli\u0161 \u017elu\u0165ou\u010dk\u00fd k\u016f\u0148"),
    ("windows-1250", "cp1250", "Za\u017c\u00f3\u0142\u0107 g\u0119\u015bl\u0105 ja\u017a\u0144"),
    ("ISO-8859-7", "iso8859_7", "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac"),
    ("windows-1253", "cp1253", "\u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac"),
    ("ISO-8859-8", "iso8859_8", "\u05e2\u05d1\u05e8\u05d9\u05ea"),
    ("windows-1255", "cp1255", "\u05e9\u05dc\u05d5\u05dd"),
    ("ISO-8859-9", "iso8859_9", "T\u00fcrk\u00e7e \u015fi\u015f"),
    ("windows-1254", "cp1254", "\u0130stanbul"),
    ("ISO-8859-15", "iso8859_15", "\u20acuro \u0153uvre"),
    ("ISO-8859-13", "iso8859_13", "Lietuvi\u0173 kalba"),
    ("windows-1257", "cp1257", "Lietuvi\u0173"),
    ("ISO-8859-4", "iso8859_4", "Latvie\u0161u"),
    ("ISO-8859-10", "iso8859_10", "\u00deorsteinn"),
    ("ISO-8859-14", "iso8859_14", "\u1e84elsh"),
    ("ISO-8859-16", "iso8859_16", "Rom\u00e2n\u0103"),
    ("ISO-8859-6", "iso8859_6", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"),
    ("windows-1256", "cp1256", "\u0627\u0644\u0639\u0631\u0628\u064a\u0629"),
    ("cp874", "cp874", "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22"),
    ("TIS-620", "cp874", "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22"),
    ("ISO-8859-3", "iso8859_3", "Malti \u0127a\u017c"),
    ("macintosh", "mac_roman", "caf\u00e9 cr\u00e8me"),
    ("UTF-8", "utf_8", "\u00e9l\u00e8ve \u4e2d\u6587 \U0001f600"),
    ("utf8", "utf_8", "na\u00efve"),
    ("UTF-16BE", "utf_16_be", "\u4e2d\u6587 mail"),
    ("UTF-16LE", "utf_16_le", "\u4e2d\u6587 mail"),
    ("US-ASCII", "ascii", "plain text"),
]


def q(data: bytes) -> str:
    out = []
    for b in data:
        c = chr(b)
        if b == 0x20:
            out.append("_")
        elif c.isalnum() and b < 0x80:
            out.append(c)
        else:
            out.append("=%02X" % b)
    return "".join(out)


def word(label: str, enc: str, data: bytes) -> str:
    text = base64.b64encode(data).decode() if enc == "B" else q(data)
    return "=?%s?%s?%s?=" % (label, enc, text)


def python_decodes(value: str) -> str:
    # Unfolded as a reader unfolds: the line break goes, the blank stays.
    return str(make_header(decode_header(value.replace("\n", ""))))


def rows():
    for label, codec, text in CHARSETS:
        data = text.encode(codec)
        assert data.decode(codec) == text
        mid = len(data) // 2
        for enc in "BQ":
            yield label, word(label, enc, data)
            # Split at a byte: inside a character when mid falls there.
            pair = (word(label, enc, data[:mid]), word(label, enc, data[mid:]))
            yield label, "%s %s" % pair
            yield label, "%s\n %s" % pair
        # Python's str(Header) puts a second blank around a us-ascii
        # word among plain text (it takes it for plain text); readers do not.
        if codec != "ascii":
            yield label, "Re: [list] " + word(label, "B", data) + " (2)"


# (source, header value as written, folds as \n)
REAL = [
    (
        "fj.mail article 2170 (Wed, 29 Jun 1994), From: field; ancientfj archive of the fj.* hierarchy, "
        "http://210.146.64.7/pub/misc/ancientfj/fj.mail.tgz (fj.mail/1679)",
        "ichikawa@lsi.melco.co.jp (Shuichi ICHIKAWA / =?ISO-2022-JP?B?GyRAO1RAbiEhPH4wbBsoSg==?=)",
    ),
    (
        "linux-ext4 list, 9 Sep 2025, Richter, Rafael, 'ext4: slow unmount with large clean page cache' "
        "(lore.kernel.org/linux-ext4)",
        "=?big5?B?ZXh0NDogc2xvdyB1bm1vdW50IHdpdGggbGFyZ2UgY2xlYW4gcGFnZSBjYWNoZTsg?=\n"
        " =?big5?B?aXMgZnNmcmVlemWh93Vtb3VudCByZWNvbW1lbmRlZD8=?=",
    ),
    (
        "openbmc list (lists.ozlabs.org), Chris Chen (TPI), Big5 B and Q words folded on three lines",
        "=?big5?B?pl7C0DogW3g4Ni1wb3dlci1jb250cm9sXTogcHJlc3MgdGhlIHBvd2VyIGJ1dHRv?=\n"
        " =?big5?B?biBmb3IgYSBsb25nIHRpbWUgdGhhdCBjYW4ndCBmb3JjZSB0dXJuIG9mZiBzeXN0?=\n"
        " =?big5?Q?em_power?=",
    ),
    (
        "Stack Overflow question 30057781 'Mail subject decoding?' (a GBK subject in two Q words)",
        "=?gbk?Q?=B3=F6=C3=C0=C1=E2=C7=BF=C1=A6=B3=E9=CA=AA=BB=FA=D2=BB=CC=A8?= "
        "=?gbk?Q?=A3=AC=D6=E9=BA=A3=B9=E3=D6=DD=C9=FA=BB=EE=B1=D8=B1=B8?=",
    ),
    (
        "zhguo.blogspot.com/2009/03/non-ascii-characters-in-email-and-http.html (a CSDN notice subject)",
        "=?gb2312?Q?[CSDN]=C2=DB=CC=B3=D3=C3=BB=A7=BC=A4=BB=EE=CD=A8=D6=AA?=",
    ),
    (
        "Stack Overflow question 5443723 (a UTF-8 character split between two Q words, folded)",
        "Re:\n =?UTF-8?Q?Th=E1=BA=A7y_g=E1=BB=ADi_b=C3=A0i_t=E1=BA=ADp_cho_em_v=E1=BB?=\n =?UTF-8?Q?=9Bi.?=",
    ),
    (
        "usefor-article-11 (June 2003), 4.4.1 Character Sets within Article Headers, example",
        "Technische =?iso-8859-1?Q?Universit=E4t_M=FCnchen?=",
    ),
    (
        "MIME::EncWords / MIME::Charset documentation (CPAN), 'a valid MIME header you might get'",
        "=?EUC-KR?B?sNTAuLinKGxhemluZXNzKSwgwvzB9ri7seIoaW1w?=\n =?EUC-KR?B?YXRpZW5jZSksILGzuLgoaHVicmlzKQ==?=",
    ),
    (
        "Gmail notice of 15 Feb 2014 kept in a public test corpus (KOI8-R, two B words folded)",
        "=?KOI8-R?B?9NLJINPP18XUwSDQzyDJ09DPzNjaz9fBzsnAIA==?=\n\t=?KOI8-R?B?R21haWw=?=",
    ),
    (
        "Odnoklassniki.ru registration notice quoted in ServiceStack's sources (KOI8-R, folded)",
        "=?KOI8-R?B?T2Rub2tsYXNzbmlraS5ydTog98HbxSDQ0g==?=\n =?KOI8-R?B?yczP1sXOycUg2sHSxcfJ09TSydLP18HOzw==?=",
    ),
    (
        "Mailman 3 test suite, a Japanese list message's subject",
        "=?ISO-2022-JP?B?UmU6IBskQiUkJXMlLSVlJVkhPCU/QjQ2SD1gSHcbKEI=?=",
    ),
]


def esc(s: str) -> str:
    return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def main():
    with open("words.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("# label\tvalue (\\n: a fold)\tdecoded by Python's email.header (gen.py)\n")
        for label, value in rows():
            f.write("%s\t%s\t%s\n" % (label, esc(value), esc(python_decodes(value))))
    with open("real.tsv", "w", encoding="utf-8", newline="\n") as f:
        f.write("# source\tvalue (\\n: a fold)\tdecoded by Python's email.header (gen.py)\n")
        for source, value in REAL:
            f.write("%s\t%s\t%s\n" % (source, esc(value), esc(python_decodes(value))))


if __name__ == "__main__":
    main()
