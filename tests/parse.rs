//! Data-driven tests of RFC 1738 section 5, production by production, and
//! every example URL of the RFC text.

mod grammar;
use grammar::{check, Verdict};
use urlsift::{ErrorKind, FtpType, Host, News, Policy, Specific, Url, Wais, WarningKind};

use ErrorKind as K;
use Policy::{Lenient as L, Strict as S};

enum Exp {
    Ok(&'static [(&'static str, &'static str)]),
    Err(usize, ErrorKind),
}
use Exp::{Err as E, Ok as O};

fn run(table: &[(&str, Policy, Exp)]) {
    for (input, policy, exp) in table {
        let got = Url::parse_with(input.as_bytes(), *policy);
        match (exp, &got) {
            (O(comps), Ok(u)) => {
                assert_eq!(&u.components(), comps, "{input} {policy:?}");
                assert_eq!(u.to_string(), *input);
                assert_eq!(
                    check(input.as_bytes(), *policy),
                    Verdict::Accept,
                    "oracle: {input}"
                );
            }
            (E(off, kind), Err(e)) => {
                assert_eq!(
                    (e.offset(), e.kind()),
                    (*off, *kind),
                    "{input} {policy:?}: {e}"
                );
                assert_eq!(
                    check(input.as_bytes(), *policy),
                    Verdict::Reject(*off),
                    "oracle: {input}"
                );
            }
            (O(_), Err(e)) => panic!("{input} {policy:?}: expected Ok, got {e}"),
            (E(..), Ok(_)) => panic!("{input} {policy:?}: expected Err, got Ok"),
        }
    }
}

#[test]
fn rfc1738_s2_1_scheme() {
    run(&[
        ("foo:", S, O(&[("schemepart", "")])),
        ("X-Y.Z+1:abc", S, O(&[("schemepart", "abc")])),
        ("", S, E(0, K::SchemeMissingColon)),
        ("http", S, E(4, K::SchemeMissingColon)),
        (":x", S, E(0, K::SchemeEmpty)),
        ("ht_tp:x", S, E(2, K::SchemeChar)),
        ("h\u{e9}:x", S, E(1, K::NonAscii)),
        ("HtTp://h", S, O(&[("host", "h")])),
    ]);
}

#[test]
fn rfc1738_s3_1_hostport() {
    run(&[
        (
            "http://a.b-c.d9/",
            S,
            O(&[("host", "a.b-c.d9"), ("path", "")]),
        ),
        (
            "http://1.2.3.4:8080",
            S,
            O(&[("host", "1.2.3.4"), ("port", "8080")]),
        ),
        ("http://3com.net", S, O(&[("host", "3com.net")])),
        ("http://a", S, O(&[("host", "a")])),
        ("http://999.2.3.40000", S, O(&[("host", "999.2.3.40000")])),
        ("http://host-/", S, E(12, K::LabelEnd)),
        ("http://-h/", S, E(7, K::LabelStart)),
        ("http://a..b/", S, E(9, K::LabelStart)),
        ("http://a-.b/", S, E(9, K::LabelEnd)),
        ("http://a./", S, E(9, K::TrailingDot)),
        ("http://1.2.3/", S, E(12, K::TopLabel)),
        ("http://1.2.3.4.5/", S, E(16, K::TopLabel)),
        ("http://a.3com/", S, E(13, K::TopLabel)),
        ("http:///", S, E(7, K::HostEmpty)),
        ("http://h_x/", S, E(8, K::Unexpected)),
        ("http://host:/", S, E(12, K::PortEmpty)),
        ("http://host:x/", S, E(12, K::PortNotDigits)),
        ("http://host:80x/", S, E(14, K::PortNotDigits)),
        ("http://", S, E(7, K::Incomplete)),
        ("http://host-", S, E(12, K::Incomplete)),
        ("http:/host", S, E(6, K::MissingSlashes)),
    ]);
}

#[test]
fn rfc1738_s3_1_login() {
    run(&[
        (
            "ftp://@host.com/",
            S,
            O(&[("user", ""), ("host", "host.com"), ("path", "")]),
        ),
        (
            "ftp://host.com/",
            S,
            O(&[("host", "host.com"), ("path", "")]),
        ),
        (
            "ftp://foo:@host.com/",
            S,
            O(&[
                ("user", "foo"),
                ("password", ""),
                ("host", "host.com"),
                ("path", ""),
            ]),
        ),
        (
            "ftp://u;?&=%41:p;?&=@h",
            S,
            O(&[("user", "u;?&=%41"), ("password", "p;?&="), ("host", "h")]),
        ),
        (
            "ftp://a-:b@h.com",
            S,
            O(&[("user", "a-"), ("password", "b"), ("host", "h.com")]),
        ),
        (
            "ftp://a:1@h/",
            S,
            O(&[
                ("user", "a"),
                ("password", "1"),
                ("host", "h"),
                ("path", ""),
            ]),
        ),
        ("ftp://a_b/", S, E(9, K::Unexpected)),
        ("ftp://a:b:c@h", S, E(9, K::Unexpected)),
        ("ftp://a@b@c", S, E(9, K::Unexpected)),
        ("ftp://u/p@h", S, O(&[("host", "u"), ("path", "p@h")])),
        ("ftp://~u@h", S, E(6, K::HostEmpty)),
        ("ftp://~u@h", L, O(&[("user", "~u"), ("host", "h")])),
        (
            "telnet://u:p@h:2323/",
            S,
            O(&[
                ("user", "u"),
                ("password", "p"),
                ("host", "h"),
                ("port", "2323"),
            ]),
        ),
        ("telnet://h", S, O(&[("host", "h")])),
        ("telnet://h/x", S, E(11, K::Unexpected)),
    ]);
}

#[test]
fn rfc1738_s3_2_ftp() {
    run(&[
        (
            "ftp://h/a/b%2Fc",
            S,
            O(&[("host", "h"), ("path", "a/b%2Fc")]),
        ),
        ("ftp://h/?:@&=", S, O(&[("host", "h"), ("path", "?:@&=")])),
        (
            "ftp://h/x;type=i",
            S,
            O(&[("host", "h"), ("path", "x"), ("typecode", "i")]),
        ),
        (
            "ftp://h/;type=D",
            S,
            O(&[("host", "h"), ("path", ""), ("typecode", "D")]),
        ),
        ("ftp://h/x;type=x", S, E(15, K::FtpType)),
        ("ftp://h/x;TYPE=a", S, E(10, K::FtpType)),
        ("ftp://h/x;type=aa", S, E(16, K::Unexpected)),
        ("ftp://h/a%4G", S, E(11, K::BadEscape)),
        ("ftp://h/a%4", S, E(11, K::Incomplete)),
        ("ftp://h/a;b", S, E(10, K::FtpType)),
    ]);
}

#[test]
fn rfc1738_s3_3_http() {
    run(&[
        (
            "http://h/a;b:c@d&e=f/g?s;:@&=",
            S,
            O(&[
                ("host", "h"),
                ("path", "a;b:c@d&e=f/g"),
                ("search", "s;:@&="),
            ]),
        ),
        ("http://h?x", S, E(8, K::Unexpected)),
        ("http://h/?a/b", S, E(11, K::Unexpected)),
        (
            "http://h/?a/b?c",
            L,
            O(&[("host", "h"), ("path", ""), ("search", "a/b?c")]),
        ),
        ("http://h/~u", S, E(9, K::Unexpected)),
        ("http://h/~u", L, O(&[("host", "h"), ("path", "~u")])),
        ("http://user@host/", S, E(11, K::HttpUserinfo)),
        ("http://user:pw@host/", L, E(12, K::HttpUserinfo)),
        (
            "http://www.bank.example@evil.example/",
            L,
            E(23, K::HttpUserinfo),
        ),
        ("http://h/a@b", S, O(&[("host", "h"), ("path", "a@b")])),
    ]);
}

#[test]
fn rfc1738_s3_4_gopher() {
    run(&[
        ("gopher://h", S, O(&[("host", "h")])),
        ("gopher://h/", S, O(&[("host", "h")])),
        (
            "gopher://h:70/0sel",
            S,
            O(&[
                ("host", "h"),
                ("port", "70"),
                ("gtype", "0"),
                ("selector", "sel"),
            ]),
        ),
        (
            "gopher://h/7sel%09query%09+",
            S,
            O(&[
                ("host", "h"),
                ("gtype", "7"),
                ("selector", "sel"),
                ("search", "query"),
                ("gopher+", "+"),
            ]),
        ),
        (
            "gopher://h/1s%09%09!+ABSTRACT%20+SMELL",
            S,
            O(&[
                ("host", "h"),
                ("gtype", "1"),
                ("selector", "s"),
                ("search", ""),
                ("gopher+", "!+ABSTRACT%20+SMELL"),
            ]),
        ),
        (
            "gopher://h/0s%09%09+application/postscript%20Es_ES",
            S,
            O(&[
                ("host", "h"),
                ("gtype", "0"),
                ("selector", "s"),
                ("search", ""),
                ("gopher+", "+application/postscript%20Es_ES"),
            ]),
        ),
        ("gopher://h/ x", S, E(11, K::Unexpected)),
    ]);
}

#[test]
fn rfc1738_s3_5_mailto() {
    run(&[
        ("mailto:a@b.c", S, O(&[("address", "a@b.c")])),
        ("MAILTO:x%20y@z", S, O(&[("address", "x%20y@z")])),
        ("mailto:", S, E(7, K::Incomplete)),
        ("mailto:#x", S, E(7, K::Unexpected)),
        ("mailto:<a@b>", S, E(7, K::Unexpected)),
    ]);
}

#[test]
fn rfc1738_s3_6_news() {
    run(&[
        ("news:*", S, O(&[("group", "*")])),
        (
            "news:comp.infosystems.www-misc+x_y",
            S,
            O(&[("group", "comp.infosystems.www-misc+x_y")]),
        ),
        (
            "news:123abc@host.dom",
            S,
            O(&[("article", "123abc@host.dom")]),
        ),
        (
            "news:a/b?c:d&e=f;g@1.2.3.4",
            S,
            O(&[("article", "a/b?c:d&e=f;g@1.2.3.4")]),
        ),
        ("news:*@h", S, O(&[("article", "*@h")])),
        ("news:1group", S, E(11, K::Incomplete)),
        ("news:a/b", S, E(8, K::Incomplete)),
        ("news:a/b#x", S, E(8, K::Unexpected)),
        ("news:@h", S, E(5, K::Unexpected)),
        ("news:a@", S, E(7, K::Incomplete)),
        ("news:a@b@c", S, E(8, K::Unexpected)),
        ("news:", S, E(5, K::Incomplete)),
    ]);
}

#[test]
fn rfc1738_s3_7_nntp() {
    run(&[
        (
            "nntp://h/comp.lang/123",
            S,
            O(&[("host", "h"), ("group", "comp.lang"), ("article", "123")]),
        ),
        (
            "nntp://h:119/g",
            S,
            O(&[("host", "h"), ("port", "119"), ("group", "g")]),
        ),
        ("nntp://h", S, E(8, K::Incomplete)),
        ("nntp://h/1g", S, E(9, K::Unexpected)),
        ("nntp://h/g/", S, E(11, K::Incomplete)),
        ("nntp://h/g/1x", S, E(12, K::Unexpected)),
    ]);
}

#[test]
fn rfc1738_s3_9_wais() {
    run(&[
        ("wais://h/", S, O(&[("host", "h"), ("database", "")])),
        (
            "wais://h/db?a;b:c",
            S,
            O(&[("host", "h"), ("database", "db"), ("search", "a;b:c")]),
        ),
        (
            "wais://h:210/db/TEXT/x%2Fy",
            S,
            O(&[
                ("host", "h"),
                ("port", "210"),
                ("database", "db"),
                ("wtype", "TEXT"),
                ("wpath", "x%2Fy"),
            ]),
        ),
        ("wais://h/db/t", S, E(13, K::Incomplete)),
        ("wais://h/db/t#", S, E(13, K::Unexpected)),
        ("wais://h/db/t/p/q", S, E(15, K::Unexpected)),
    ]);
}

#[test]
fn rfc1738_s3_10_file() {
    run(&[
        (
            "file://vms.host.edu/disk$user/my/notes/note12345.txt",
            S,
            O(&[
                ("host", "vms.host.edu"),
                ("path", "disk$user/my/notes/note12345.txt"),
            ]),
        ),
        ("file:///etc/motd", S, O(&[("path", "etc/motd")])),
        (
            "file://localhost/x",
            S,
            O(&[("host", "localhost"), ("path", "x")]),
        ),
        ("file://h:1/", S, E(8, K::Unexpected)),
        ("file://h", S, E(8, K::Incomplete)),
    ]);
}

#[test]
fn rfc1738_s3_11_prospero() {
    run(&[
        (
            "prospero://host.dom//pros/name",
            S,
            O(&[("host", "host.dom"), ("hsoname", "/pros/name")]),
        ),
        (
            "prospero://h/a;f=v;g=",
            S,
            O(&[("host", "h"), ("hsoname", "a"), ("fields", ";f=v;g=")]),
        ),
        ("prospero://h/a;f", S, E(16, K::Incomplete)),
        ("prospero://h/a;f/", S, E(16, K::Unexpected)),
        ("prospero://h/a;f=v=w", S, E(18, K::Unexpected)),
    ]);
}

#[test]
fn rfc1738_s2_2_fragment_and_generic() {
    run(&[
        (
            "http://ds.internic.net/instructions/overview.html#WARNING",
            S,
            O(&[
                ("host", "ds.internic.net"),
                ("path", "instructions/overview.html"),
                ("fragment", "WARNING"),
            ]),
        ),
        ("http://h/#a#b", S, E(11, K::Unexpected)),
        (
            "foo://u:p@h:9/x",
            S,
            O(&[
                ("user", "u"),
                ("password", "p"),
                ("host", "h"),
                ("port", "9"),
                ("path", "x"),
            ]),
        ),
        ("foo://u:p@h:9/x<", S, E(15, K::Unexpected)),
        ("foo:a b", S, E(5, K::Unexpected)),
        ("urn:x-y:%41", S, O(&[("schemepart", "x-y:%41")])),
    ]);
}

#[test]
fn rfc1738_examples_in_text() {
    for (u, host) in [
        (
            "http://www.acl.lanl.gov/URI/archive/uri-archive.index.html",
            "www.acl.lanl.gov",
        ),
        ("ftp://info.cern.ch/pub/www/doc;type=d", "info.cern.ch"),
        ("ftp://ds.internic.net/rfc", "ds.internic.net"),
        (
            "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
            "ds.internic.net",
        ),
        (
            "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
            "boombox.micro.umn.edu",
        ),
        ("ftp://ds.internic.net/rfc/rfc1630.txt", "ds.internic.net"),
        (
            "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z",
            "info.cern.ch",
        ),
        (
            "ftp://quake.think.com/pub/wais/doc/protspec.txt",
            "quake.think.com",
        ),
        (
            "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
            "ds.internic.net",
        ),
        (
            "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
            "prospero.isi.edu",
        ),
        ("ftp://uu.psi.com/wp/nir.txt", "uu.psi.com"),
        (
            "http://ds.internic.net/instructions/overview.html#WARNING",
            "ds.internic.net",
        ),
        (
            "file://vms.host.edu/disk$user/my/notes/note12345.txt",
            "vms.host.edu",
        ),
        ("prospero://host.dom//pros/name", "host.dom"),
    ] {
        for p in [S, L] {
            let url = Url::parse_with(u.as_bytes(), p).unwrap_or_else(|e| panic!("{u}: {e}"));
            assert_eq!(url.host_str(), Some(host));
            assert!(url.warnings().is_empty(), "{u}");
        }
    }
    assert_eq!(
        Url::parse("news:*").unwrap().specific(),
        Specific::News(News::All)
    );
}

fn ftp_commands(u: &str) -> Vec<String> {
    let u = Url::parse(u).unwrap();
    let Specific::Ftp(f) = u.specific() else {
        panic!("not ftp")
    };
    f.commands().iter().map(ToString::to_string).collect()
}

#[test]
fn rfc1738_s3_2_2_ftp_examples() {
    assert_eq!(
        ftp_commands("ftp://myname@host.dom/%2Fetc/motd"),
        ["USER myname", "CWD /etc", "RETR motd"]
    );
    assert_eq!(
        ftp_commands("ftp://myname@host.dom/etc/motd"),
        ["USER myname", "CWD etc", "RETR motd"]
    );
    assert_eq!(
        ftp_commands("ftp://myname@host.dom//etc/motd"),
        ["USER myname", "CWD ", "CWD etc", "RETR motd"]
    );
    assert_eq!(
        ftp_commands("ftp://ds.internic.net/rfc/rfc1436.txt;type=a"),
        [
            "USER anonymous",
            "PASS <the user's e-mail address>",
            "CWD rfc",
            "TYPE A",
            "RETR rfc1436.txt"
        ]
    );
    let u = Url::parse("ftp://info.cern.ch/pub/www/doc;type=d").unwrap();
    let Specific::Ftp(f) = u.specific() else {
        panic!()
    };
    assert_eq!(f.typecode, Some(FtpType::Directory));
    assert_eq!(f.cwd().collect::<Vec<_>>(), ["pub", "www"]);
    assert_eq!(f.name(), "doc");
}

#[test]
fn rfc1738_s3_4_gopher_plus_strings() {
    let u = Url::parse("gopher://h/1sel%09%09+%091%0D%0A+-1%0D%0Av1%0D%0A.%0D%0A").unwrap();
    let Specific::Gopher(g) = u.specific() else {
        panic!()
    };
    assert_eq!(g.gopher_type(), b'1');
    assert_eq!(g.selector(), "sel");
    assert_eq!(g.search(), Some(""));
    assert_eq!(g.gopher_plus(), Some("+%091%0D%0A+-1%0D%0Av1%0D%0A.%0D%0A"));
    assert!(u.warnings().contains(WarningKind::EncodedControl));
    let Specific::Gopher(g) = Url::parse("gopher://h").unwrap().specific() else {
        panic!()
    };
    assert_eq!(g.gopher_type(), b'1');
    for plus in [
        "+",
        "?",
        "!",
        "$",
        "!+ABSTRACT",
        "!+ABSTRACT%20+SMELL",
        "+application/postscript%20Es_ES",
    ] {
        let s = format!("gopher://h/0x%09%09{plus}");
        let u = Url::parse_with(s.as_bytes(), S).unwrap();
        let Specific::Gopher(g) = u.specific() else {
            panic!()
        };
        assert_eq!(g.gopher_plus(), Some(plus));
    }
}

#[test]
fn rfc1738_specific_views() {
    let u = Url::parse("wais://h/db/t/p").unwrap();
    assert_eq!(
        u.specific(),
        Specific::Wais(Wais::Doc {
            database: "db",
            wtype: "t",
            wpath: "p"
        })
    );
    let u = Url::parse("prospero://h/a/b;x=1;y=2").unwrap();
    let Specific::Prospero(p) = u.specific() else {
        panic!()
    };
    assert_eq!(p.fields().collect::<Vec<_>>(), [("x", "1"), ("y", "2")]);
    let u = Url::parse("nntp://h/g/12").unwrap();
    assert_eq!(
        u.specific(),
        Specific::Nntp {
            group: "g",
            article: Some("12")
        }
    );
    let u = Url::parse("http://10.1.2.3/x?q").unwrap();
    assert_eq!(u.host(), Some(Host::Number("10.1.2.3")));
    let Specific::Http(h) = u.specific() else {
        panic!()
    };
    assert_eq!((h.hpath, h.search), (Some("x"), Some("q")));
}

#[test]
fn rfc1738_s6_warnings() {
    let codes = |s: &str, p| -> Vec<(&'static str, usize)> {
        Url::parse_with(s.as_bytes(), p)
            .unwrap()
            .warnings()
            .iter()
            .map(|w| (w.kind.code(), w.offset))
            .collect()
    };
    assert_eq!(codes("ftp://u:secret@h/", S), [("password", 8)]);
    assert_eq!(codes("http://h:8080/", S), [("non-default-port", 9)]);
    assert_eq!(
        codes("http://h:25/", S),
        [("non-default-port", 9), ("reserved-port", 9)]
    );
    assert_eq!(
        codes("http://h:70000/", S),
        [("non-default-port", 9), ("port-range", 9)]
    );
    assert_eq!(codes("http://h:80/", S), []);
    assert!(
        Url::parse("telnet://h/%0D%0Aquit").is_err(),
        "telnet path must be empty"
    );
    assert_eq!(
        codes("telnet://u%0D%0A:p@h:23", S),
        [("encoded-control", 10), ("password", 17)]
    );
    assert_eq!(
        codes("gopher://h/0%0d%0aquit", S),
        [("encoded-control", 12)]
    );
    assert_eq!(codes("http://1.2.3.256/", S), [("hostnumber-range", 13)]);
    assert_eq!(
        codes("http://h/~a/?b/c?d", L),
        [("tilde", 9), ("search-slash", 14), ("search-question", 16)]
    );
}
