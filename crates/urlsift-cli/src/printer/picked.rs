//! The records `--pick` reads from the search: one line per URL,
//! `key TAB form TAB url TAB context LF`, where the key is the normalized
//! URL (the picker shows each key once), the URL is the reading as written,
//! and the context is one line of the raw text around it, its tabs and
//! control characters made spaces. URLs and keys hold no whitespace, so
//! the fields split without quoting, and the record costs about what
//! `--unique`'s key does.

#[cfg(any(test, feature = "pick"))]
use urlsift::Form;
use urlsift::{Match, Url};

/// Most bytes of context kept on either side of a URL's start: a line of
/// HTML can be a whole message long.
pub const CONTEXT_REACH: usize = 240;

/// Writes one record, the key `url` normalized (written in place: no
/// allocation a URL).
pub fn push(out: &mut Vec<u8>, url: &Url<'_>, m: &Match, reading: &[u8], context: Option<&[u8]>) {
    url.normalize_into(out);
    out.push(b'\t');
    out.extend_from_slice(m.form().as_str().as_bytes());
    out.push(b'\t');
    out.extend_from_slice(reading);
    out.push(b'\t');
    if let Some(c) = context {
        let c = c.strip_suffix(b"\r").unwrap_or(c);
        let control = |b: u8| b < 0x20 || b == 0x7f;
        // A fold, not `any`: without an early exit the check is vectorized,
        // and most lines have no control byte to stop at.
        if c.iter().fold(false, |seen, &b| seen | control(b)) {
            out.extend(c.iter().map(|&b| if control(b) { b' ' } else { b }));
        } else {
            // Most lines: copied whole.
            out.extend_from_slice(c);
        }
    }
    out.push(b'\n');
}

/// The line of `bytes` around byte `at`, at most [`CONTEXT_REACH`] bytes
/// on either side of `at`, its line feed left out.
pub fn line_at(bytes: &[u8], at: usize) -> &[u8] {
    let at = at.min(bytes.len());
    let lo = at.saturating_sub(CONTEXT_REACH);
    let start = memchr::memrchr(b'\n', &bytes[lo..at]).map_or(lo, |i| lo + i + 1);
    let hi = (at + CONTEXT_REACH).min(bytes.len());
    let end = memchr::memchr(b'\n', &bytes[at..hi]).map_or(hi, |i| at + i);
    &bytes[start..end]
}

/// One record read back (by the picker).
#[cfg(any(test, feature = "pick"))]
#[derive(Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// The normalized URL.
    pub key: &'a [u8],
    /// How it was written.
    pub form: Form,
    /// The URL as written (its first reading).
    pub url: &'a [u8],
    /// The raw text around it (lossily UTF-8).
    pub context: &'a [u8],
}

#[cfg(any(test, feature = "pick"))]
impl<'a> Record<'a> {
    /// Reads one record (its line feed left out); `None` if it is not one.
    pub fn parse(line: &'a [u8]) -> Option<Record<'a>> {
        let field = |rest: &'a [u8]| {
            let k = memchr::memchr(b'\t', rest)?;
            Some((&rest[..k], &rest[k + 1..]))
        };
        let (key, rest) = field(line)?;
        let (form, rest) = field(rest)?;
        let form = match form {
            b"wrapped" => Form::Wrapped,
            b"bracketed" => Form::Bracketed,
            b"naked" => Form::Naked,
            b"href" => Form::Href,
            _ => return None,
        };
        let (url, context) = field(rest)?;
        Some(Record {
            key,
            form,
            url,
            context,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_at_cuts_at_line_ends_and_reach() {
        let text = b"one\ntwo <http://a.b/> three\nfour";
        assert_eq!(line_at(text, 8), b"two <http://a.b/> three");
        assert_eq!(line_at(text, 0), b"one");
        assert_eq!(line_at(text, text.len()), b"four");
        let long = vec![b'x'; 2000];
        assert_eq!(line_at(&long, 1000).len(), 2 * CONTEXT_REACH);
    }

    #[test]
    fn records_read_back() {
        let m = urlsift::Scanner::new().extract(b"see <URL:http://A.example/x>\tnow\r");
        let m = &m[0];
        let mut out = Vec::new();
        let url = m.url().unwrap();
        push(&mut out, &url, m, m.as_bytes(), Some(b"see\t<x>\r"));
        assert_eq!(
            out,
            b"http://a.example/x\twrapped\thttp://A.example/x\tsee <x>\n"
        );
        let r = Record::parse(&out[..out.len() - 1]).unwrap();
        assert_eq!(r.key, b"http://a.example/x");
        assert_eq!(r.form, Form::Wrapped);
        assert_eq!(r.url, b"http://A.example/x");
        assert_eq!(r.context, b"see <x>");
        assert_eq!(Record::parse(b"a\tweird\tb\tc"), None);
        assert_eq!(Record::parse(b"a\thref"), None);
    }
}
