//! `--unwrap`: wrapped links (Safe Links, Proofpoint, ...) printed as their
//! targets, and in JSON beside the URL as found; without the flag nothing
//! changes.

mod util;

use serde_json::Value;

/// An HTML message in quoted-printable whose hrefs are a Safe Link (broken
/// by soft line breaks, `&amp;` between its parameters), a Proofpoint v3
/// link, a link that is no wrapper, a Mimecast link and a Safe Link whose
/// target is no URL.
const MESSAGE: &str = "From: a@example.org\r
To: b@example.org\r
Subject: links\r
Message-ID: <u1@example.org>\r
MIME-Version: 1.0\r
Content-Type: text/html; charset=utf-8\r
Content-Transfer-Encoding: quoted-printable\r
\r
<html><body><p>See <a href=3D\"https://eur03.safelinks.protection.outlook.co=\r
m/?url=3Dhttps%3A%2F%2Fwww.rfc-editor.org%2Frfc%2Frfc1738&amp;data=3D05%7C0=\r
1%7Cb%40example.org&amp;reserved=3D0\">the RFC</a> and\r
<a href=3D\"https://urldefense.com/v3/__https://example.com/*newsletter__;Iw!=\r
!x!y$\">the letter</a>, <a href=3D\"https://example.org/plain\">this</a>,\r
<a href=3D\"https://protect-eu.mimecast.com/s/zM1FB7zDRiZ\">that</a> and\r
<a href=3D\"https://nam02.safelinks.protection.outlook.com/?url=3Dhttp%3A%2F%2F=\r
a.example%2F%3Cx%3E&amp;data=3D1\">the other</a>.</p>\r
</body></html>\r
";

const SAFE: &str = "https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Fwww.rfc-editor.org%2Frfc%2Frfc1738&data=05%7C01%7Cb%40example.org&reserved=0";
const PROOF: &str = "https://urldefense.com/v3/__https://example.com/*newsletter__;Iw!!x!y$";
const MIME: &str = "https://protect-eu.mimecast.com/s/zM1FB7zDRiZ";
const BAD: &str =
    "https://nam02.safelinks.protection.outlook.com/?url=http%3A%2F%2Fa.example%2F%3Cx%3E&data=1";

fn run(args: &[&str], input: &str) -> String {
    let dir = util::tmp();
    let r = util::run_stdin(dir.path(), args, input.as_bytes());
    assert!(r.code < 2, "{args:?}: {}", r.stderr);
    r.out()
}

fn json(args: &[&str], input: &str) -> Vec<Value> {
    run(args, input)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object a line"))
        .collect()
}

#[test]
fn json_keeps_the_wrapper_and_adds_target_and_via() {
    let objects = json(&["--json", "--unwrap"], MESSAGE);
    let urls: Vec<&str> = objects.iter().map(|o| o["url"].as_str().unwrap()).collect();
    assert_eq!(urls, [SAFE, PROOF, "https://example.org/plain", MIME, BAD]);
    let targets: Vec<Option<&str>> = objects.iter().map(|o| o["target"].as_str()).collect();
    assert_eq!(
        targets,
        [
            Some("https://www.rfc-editor.org/rfc/rfc1738"),
            Some("https://example.com/#newsletter"),
            None,
            None,
            None
        ]
    );
    let via: Vec<Value> = objects.iter().map(|o| o["via"].clone()).collect();
    assert_eq!(
        via,
        [
            serde_json::json!(["safelinks"]),
            serde_json::json!(["proofpoint-v3"]),
            serde_json::json!([]),
            serde_json::json!(["mimecast"]),
            serde_json::json!(["safelinks"]),
        ]
    );
    // Each href's raw place: where its value starts in the encoded message
    // (line, column and offset of the raw bytes).
    for (o, head) in objects.iter().zip([
        "https://eur03",
        "https://urldefense",
        "https://example.org/plain",
        "https://protect-eu",
        "https://nam02",
    ]) {
        let offset = MESSAGE.find(head).unwrap();
        let line = MESSAGE[..offset].matches('\n').count() + 1;
        let column = offset - MESSAGE[..offset].rfind('\n').map_or(0, |k| k + 1) + 1;
        assert_eq!(o["offset"], offset, "{head}");
        assert_eq!(
            (o["line"].as_u64(), o["column"].as_u64()),
            (Some(line as u64), Some(column as u64)),
            "{head}"
        );
        assert_eq!(o["encoding"], "qp");
    }
}

#[test]
fn without_unwrap_nothing_changes() {
    let plain = run(&[], MESSAGE);
    assert_eq!(
        plain,
        format!("{SAFE}\n{PROOF}\nhttps://example.org/plain\n{MIME}\n{BAD}\n")
    );
    // The JSON objects with --unwrap are those without it plus the two
    // fields, in the same order, the other fields untouched.
    let mut with = json(&["--json", "--unwrap"], MESSAGE);
    let without = json(&["--json"], MESSAGE);
    for o in &mut with {
        let o = o.as_object_mut().unwrap();
        assert!(o.remove("target").is_some() && o.remove("via").is_some());
    }
    assert_eq!(with, without);
    assert!(!run(&["--json"], MESSAGE).contains("\"target\""));
}

#[test]
fn plain_output_prints_targets() {
    assert_eq!(
        run(&["--unwrap"], MESSAGE),
        format!(
            "https://www.rfc-editor.org/rfc/rfc1738\nhttps://example.com/#newsletter\n\
             https://example.org/plain\n{MIME}\n{BAD}\n"
        )
    );
}

#[test]
fn unique_tally_scheme_and_max_count_act_on_the_target() {
    let text = "<https://slack-redir.net/link?url=ftp%3A%2F%2Fa.example%2Fx>\n\
                <ftp://a.example/x>\n\
                <https://l.facebook.com/l.php?u=ftp%3A%2F%2Fa.example%2Fx&h=1>\n\
                <https://example.org/>\n";
    assert_eq!(
        run(&["--unwrap", "-u"], text),
        "ftp://a.example/x\nhttps://example.org/\n"
    );
    assert_eq!(
        run(&["--unwrap", "--scheme", "ftp"], text),
        "ftp://a.example/x\n".repeat(3)
    );
    assert_eq!(run(&["--scheme", "ftp"], text), "ftp://a.example/x\n");
    assert_eq!(
        run(&["--unwrap", "-m", "2"], text),
        "ftp://a.example/x\n".repeat(2)
    );
    let tally = run(&["--unwrap", "--tally"], text);
    let first = tally.lines().next().unwrap();
    assert!(
        first.contains("ftp://a.example/x") && first.starts_with('3'),
        "{tally}"
    );
    assert_eq!(tally.lines().count(), 2, "{tally}");
}

#[test]
fn invalid_shows_wrappers_whose_target_does_not_parse() {
    let out = run(&["--unwrap", "--invalid"], MESSAGE);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains(BAD), "{out}");
    assert!(out.contains("\tthe target is no URL: "), "{out}");
    let objects = json(&["--unwrap", "--invalid", "--json"], MESSAGE);
    assert_eq!(objects.len(), 1);
    assert_eq!(objects[0]["url"], BAD);
    assert_eq!(objects[0]["target"], Value::Null);
    assert_eq!(objects[0]["decoded"], "http://a.example/<x>");
    assert_eq!(objects[0]["error_offset"], 17);
    // Without --unwrap, --invalid shows rejected candidates only.
    assert_eq!(run(&["--invalid"], MESSAGE), "");
}

#[test]
fn unwrap_does_not_combine_with_parse() {
    let dir = util::tmp();
    let r = util::run(dir.path(), &["--parse", "--unwrap", "http://a.example/"]);
    assert_eq!(r.code, 2);
}
