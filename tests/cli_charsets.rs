//! The command on mail in other charsets: subjects as UTF-8 text in
//! `--json`, and context lines decoded from their part's or message's
//! charset for a terminal (`--color always` stands for one here) and in
//! JSON, their line numbers the raw file's.

mod util;

use serde_json::Value;
use util::{run, tmp, write};

/// An mbox: an ISO-2022-JP B subject, a GB2312 Q subject, a raw Big5
/// subject and body in a message declaring big5, and a multipart whose
/// Shift_JIS part is quoted-printable.
const MBOX: &[u8] = b"From a@b Tue Jan 12 14:02:11 1993\n\
Subject: =?ISO-2022-JP?B?GyRCJEYkOSRIGyhC?=\n\
\n\
see <http://jp.example/>\n\
\n\
From a@b Tue Jan 12 14:02:11 1993\n\
Subject: =?GB2312?Q?=D6=D0=CE=C4=D3=CA=BC=FE?=\n\
\n\
<http://cn.example/>\n\
\n\
From a@b Tue Jan 12 14:02:11 1993\n\
Subject: \xa4\xa4\xa4\xe5\n\
Content-Type: text/plain; charset=big5\n\
\n\
\xa4\xa4\xa4\xe5 <http://tw.example/> \xa4\xa4\n\
\xa4\xe5\n\
\n\
From a@b Tue Jan 12 14:02:11 1993\n\
Subject: =?shift_jis?B?k/qWew==?=\n\
Content-Type: multipart/mixed; boundary=XX\n\
\n\
--XX\n\
Content-Type: text/plain; charset=shift_jis\n\
Content-Transfer-Encoding: 8bit\n\
\n\
\x93\xfa\x96\x7b <http://sjis.example/>\n\
--XX--\n";

fn objects(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn subjects_in_json_are_utf8_text() {
    let d = tmp();
    write(d.path(), "m.mbox", MBOX);
    let r = run(d.path(), &["--json", "m.mbox"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let subjects: Vec<Value> = objects(&r.out())
        .iter()
        .map(|v| v["subject"].clone())
        .collect();
    assert_eq!(subjects, ["てすと", "中文邮件", "中文", "日本"]);
    // Plain output with the field, too.
    let r = run(d.path(), &["--fields", "subject", "m.mbox"]);
    assert!(
        r.out().contains("中文邮件\thttp://cn.example/"),
        "{}",
        r.out()
    );
}

#[test]
fn context_lines_decoded_in_json_and_for_a_terminal() {
    let d = tmp();
    write(d.path(), "m.mbox", MBOX);
    let r = run(d.path(), &["--json", "-C1", "m.mbox"]);
    let vs = objects(&r.out());
    assert_eq!(
        vs[2]["lines"],
        serde_json::json!(["中文 <http://tw.example/> 中"])
    );
    assert_eq!(vs[2]["line"], 15);
    assert_eq!(
        vs[3]["lines"],
        serde_json::json!(["日本 <http://sjis.example/>"])
    );
    // For a terminal: decoded; line numbers the raw file's.
    let r = run(d.path(), &["-n", "-C1", "--color", "always", "m.mbox"]);
    let plain = r
        .out()
        .replace("\x1b[0m", "")
        .replace("\x1b[1;31m", "")
        .replace("\x1b[32m", "");
    assert!(plain.contains("中文 <http://tw.example/> 中"), "{plain}");
    assert!(plain.contains("16-文"), "{plain}");
    assert!(plain.contains("日本 <http://sjis.example/>"), "{plain}");
    // Into a pipe, as it always was: bytes that are not UTF-8 escaped.
    let r = run(d.path(), &["-n", "-C1", "m.mbox"]);
    assert!(
        r.out()
            .contains("15:\\xa4\\xa4\\xa4\\xe5 <http://tw.example/>"),
        "{}",
        r.out()
    );
}
