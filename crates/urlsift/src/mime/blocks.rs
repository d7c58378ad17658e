//! Encoded lines decoded a block at a time: the complete lines from a
//! line start up to the first line that may be structure (a `From ` line,
//! or `--` in a multipart), which the reader would otherwise take one call
//! at a time (quoted-printable in [`Reader::qp_lines`](super::Reader),
//! base64 in `b64_line`). In quoted-printable HTML nearly every line ends
//! in a soft break, and in base64 every line is a few groups: the call per
//! line cost more than the decoding. The reading is the same as a line at
//! a time; the tests below compare the two.

/// Whether lines are decoded in blocks; the tests turn it off to compare
/// with the reading a line at a time.
#[inline]
pub(super) fn on() -> bool {
    #[cfg(test)]
    return !tests::ONE_LINE_AT_A_TIME.with(std::cell::Cell::get);
    #[cfg(not(test))]
    true
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use proptest::prelude::*;

    use crate::{Match, Scanner};

    thread_local! {
        pub(super) static ONE_LINE_AT_A_TIME: Cell<bool> = const { Cell::new(false) };
    }

    fn read(mail: &[u8], one_line: bool) -> Vec<Match> {
        ONE_LINE_AT_A_TIME.with(|c| c.set(one_line));
        let found = Scanner::new().rejected(true).extract(mail);
        ONE_LINE_AT_A_TIME.with(|c| c.set(false));
        found
    }

    fn part(ty: &str, encoding: &str, body: &str) -> String {
        format!(
            "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: {ty}\n\
             Content-Transfer-Encoding: {encoding}\n\n{body}\n--b--\n"
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Quoted-printable: every match, its offsets, line, column and
        /// spans, in text and HTML parts, with escapes, soft breaks (after
        /// blanks and CRs), `=` that is neither, line breaks encoded and
        /// raw, and lines that may be structure among them.
        #[test]
        fn quoted_printable_blocks_read_as_lines(
            body in "(<http://a.b/c>|&lt;URL:http://x.y/=\n=3D&gt;|<a href=3D\"http://h.i/j=\n=3Dk\">t</a>|=3C|=3E|=0A|=\n|= \t\r\n|=\r\n|=4|==|=zz|\r\n|\n|From x\n|--b\n|--b--\n|[a-z:/.<> ]{0,12}){0,40}",
            html in any::<bool>(),
        ) {
            let ty = if html { "text/html" } else { "text/plain" };
            let mail = part(ty, "quoted-printable", &body);
            prop_assert_eq!(read(mail.as_bytes(), false), read(mail.as_bytes(), true));
        }

        /// Base64: text whose encoding is cut into lines of any lengths
        /// (CRLF or LF), with bytes outside the alphabet among them.
        #[test]
        fn base64_blocks_read_as_lines(
            text in "(<http://a.b/c>|<URL:ftp://h/\n p>|<a href=\"http://h.i/\">t</a>|\n|x){0,12}",
            cuts in proptest::collection::vec(1usize..90, 1..12),
            crlf in any::<bool>(),
            junk in proptest::option::of(0usize..400),
            html in any::<bool>(),
        ) {
            let enc = b64(text.as_bytes());
            let mut body = String::new();
            let (mut at, mut i) = (0, 0);
            while at < enc.len() {
                let n = cuts[i % cuts.len()].min(enc.len() - at);
                body.push_str(&enc[at..at + n]);
                body.push_str(if crlf { "\r\n" } else { "\n" });
                at += n;
                i += 1;
            }
            if let Some(j) = junk {
                let j = j.min(body.len());
                if body.is_char_boundary(j) {
                    body.insert(j, '*');
                }
            }
            let ty = if html { "text/html" } else { "text/plain" };
            let mail = part(ty, "base64", &body);
            prop_assert_eq!(read(mail.as_bytes(), false), read(mail.as_bytes(), true));
        }
    }

    fn b64(data: &[u8]) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for c in data.chunks(3) {
            let n = (c[0] as u32) << 16
                | (*c.get(1).unwrap_or(&0) as u32) << 8
                | *c.get(2).unwrap_or(&0) as u32;
            for k in 0..4 {
                if k <= c.len() {
                    out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
                } else {
                    out.push('=');
                }
            }
        }
        out
    }
}
