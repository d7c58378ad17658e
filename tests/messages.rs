//! Message metadata on matches (`Scanner::fields`): the same whatever the
//! chunking, in every front end and both readings.

use proptest::prelude::*;
use urlsift::{Extractor, Fields, Match, PushScanner, Scanner};

/// What a match says of its message, with its place.
fn key(m: &Match) -> String {
    let info = m.message();
    format!(
        "{}@{} id={:?} date={:?} groups={:?} subject={:?}",
        m.as_str(),
        m.offset(),
        info.and_then(|i| i.message_id()),
        info.and_then(|i| i.date())
            .map(|(t, s)| (t.to_string(), s.as_str())),
        info.and_then(|i| i.newsgroups()),
        info.and_then(|i| i.subject()),
    )
}

fn pushed(scanner: Scanner, input: &[u8], cuts: &[usize]) -> Vec<String> {
    let mut push = PushScanner::with_buffer(scanner, 7);
    let mut got = Vec::new();
    let mut from = 0;
    for &c in cuts {
        let c = c.clamp(from, input.len());
        push.feed_each(&input[from..c], &mut |m| got.push(key(m)));
        from = c;
    }
    push.feed_each(&input[from..], &mut |m| got.push(key(m)));
    push.finish_each(&mut |m| got.push(key(m)));
    got
}

fn extracted(scanner: Scanner, input: &[u8], piece: usize) -> Vec<String> {
    Extractor::with_buffer(input, scanner, piece)
        .map(|m| key(&m.unwrap()))
        .collect()
}

/// One message of an mbox or news spool, from generated parts.
fn message() -> impl Strategy<Value = Vec<u8>> {
    let field = prop_oneof![
        Just(&b"Subject: hello <http://s.example/>\n"[..]),
        Just(&b"Subject: =?ISO-8859-1?Q?caf=E9?=\n =?utf-8?B?w6k=?=\n"[..]),
        Just(&b"Message-ID: <a@b>\n"[..]),
        Just(&b"Message-Id:\n\t<folded@b>\n"[..]),
        Just(&b"Date: Tue, 12 Jan 93 14:02:11 EST\n"[..]),
        Just(&b"Date: garbage\n"[..]),
        Just(&b"Posted: Tue Jan 12 14:02:11 1993\n"[..]),
        Just(&b"NNTP-Posting-Date: 12 Jan 1993 19:02:11 GMT\n"[..]),
        Just(&b"Newsgroups: comp.mail.misc,\n  news.admin\n"[..]),
        Just(&b"Received: from x\r\n"[..]),
        Just(&b"Content-Type: text/plain; charset=us-ascii\n"[..]),
        Just(&b"Content-Transfer-Encoding: quoted-printable\n"[..]),
    ];
    let body = prop_oneof![
        Just(&b"text <http://b.example/x>\n"[..]),
        Just(&b"\n"[..]),
        Just(&b"From inside a body\n"[..]),
        Just(&b"<URL:ftp://f.example/\n  pub>\n"[..]),
        // Read otherwise when quoted-printable.
        Just(&b"see <http://q.example/ab=\ncd> =3D\n"[..]),
    ];
    (
        prop::bool::ANY,
        prop::collection::vec(field, 0..6),
        prop::collection::vec(body, 0..5),
    )
        .prop_map(|(from, fields, body)| {
            let mut m = Vec::new();
            if from {
                m.extend_from_slice(b"From x@y Tue Jan 12 14:02:11 1993\n");
            }
            m.extend(fields.concat());
            m.push(b'\n');
            m.extend(body.concat());
            m.push(b'\n');
            m
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_chunking_gives_the_same_metadata(
        msgs in prop::collection::vec(message(), 1..5),
        cuts in prop::collection::vec(0usize..2000, 0..6),
        piece in 1usize..300,
        mime in prop::bool::ANY,
    ) {
        let input = msgs.concat();
        let mut cuts = cuts;
        cuts.sort_unstable();
        let scanner = Scanner::new().mime(mime).fields(Fields::ALL);
        let whole: Vec<String> = scanner.extract(&input).iter().map(key).collect();
        prop_assert_eq!(&pushed(scanner, &input, &cuts), &whole);
        prop_assert_eq!(&extracted(scanner, &input, piece), &whole);
    }

    /// Asking for fields finds the same URLs at the same places (the MIME
    /// reading's survey then takes the message starts the tracker found).
    #[test]
    fn fields_change_no_match(
        msgs in prop::collection::vec(message(), 1..6),
        crlf in prop::bool::ANY,
        cuts in prop::collection::vec(0usize..2000, 0..6),
    ) {
        let mut input = msgs.concat();
        if crlf {
            input = String::from_utf8_lossy(&input).replace('\n', "\r\n").into_bytes();
        }
        let mut cuts = cuts;
        cuts.sort_unstable();
        let place = |m: &Match| format!("{}@{}:{}:{}", m.as_str(), m.offset(), m.line(), m.column());
        let found = |scanner: Scanner| -> Vec<String> {
            let mut push = PushScanner::with_buffer(scanner, 7);
            let mut got = Vec::new();
            let mut from = 0;
            for &c in &cuts {
                let c = c.clamp(from, input.len());
                push.feed_each(&input[from..c], &mut |m| got.push(place(m)));
                from = c;
            }
            push.feed_each(&input[from..], &mut |m| got.push(place(m)));
            push.finish_each(&mut |m| got.push(place(m)));
            got
        };
        let without: Vec<String> = Scanner::new().extract(&input).iter().map(place).collect();
        let with: Vec<String> = Scanner::new().fields(Fields::ALL).extract(&input).iter().map(place).collect();
        prop_assert_eq!(&with, &without);
        prop_assert_eq!(&found(Scanner::new().fields(Fields::ALL)), &without);
    }
}

#[test]
fn fields_cost_nothing_unless_asked() {
    let mail = b"From x Tue Jan 12 14:02:11 1993\nSubject: s\n\n<http://a/>\n";
    let plain = Scanner::new().extract(mail);
    assert!(plain[0].message().is_none());
    let asked = Scanner::new().fields(Fields::SUBJECT).extract(mail);
    let info = asked[0].message().unwrap();
    assert_eq!(info.subject(), Some(&b"s"[..]));
    assert_eq!((info.date(), info.message_id()), (None, None));
}

#[test]
fn a_message_start_after_plain_text_is_seen_with_fields() {
    // The second message's body is quoted-printable: read as such only
    // when its start is seen.
    let mut input = Vec::new();
    for _ in 0..3 {
        input.extend_from_slice(b"From a@b Tue Jan 12 14:02:11 1993\nSubject: plain\n\nbody\n\n");
        input.extend_from_slice(b"From c@d Tue Jan 12 14:02:11 1993\nContent-Transfer-Encoding: quoted-printable\n\nsee <http://q.example/ab=\ncd>\n\n");
    }
    let urls = |scanner: Scanner| -> Vec<String> {
        scanner
            .extract(&input)
            .iter()
            .map(|m| format!("{}@{}", m.as_str(), m.offset()))
            .collect()
    };
    let without = urls(Scanner::new());
    assert_eq!(without.len(), 3);
    assert!(
        without[0].starts_with("http://q.example/abcd@"),
        "{without:?}"
    );
    assert_eq!(urls(Scanner::new().fields(Fields::ALL)), without);
}
