//! The parameters of a MIME header value (`Content-Type: text/plain;
//! charset=big5`, `Content-Disposition: attachment; filename*=...`): RFC
//! 2045's `; name=value` (a token or a quoted string), found by search as
//! Python's `email` package finds them, and RFC 2231's extended and
//! continued ones (`name*=charset'language'%XX`, `name*0=`, `name*1*=`),
//! joined and decoded to UTF-8.

use std::borrow::Cow;

use memchr::memchr;

use crate::charset::Charset;

/// Blanks as Python's `bytes.strip` and `str.split` see them (the
/// reference reads headers with them).
pub(crate) const fn py_space(b: u8) -> bool {
    matches!(b, 0x09..=0x0d | 0x1c..=0x20 | 0x85 | 0xa0)
}

/// A parameter as [`param`] reads it: its name as written, its value
/// (unquoted) and where it ends.
pub(crate) type Param<'a> = (&'a [u8], Cow<'a, [u8]>, usize);

/// The parameter at `v[i] == b';'`, or `None` when no `name=` follows.
pub(crate) fn param(v: &[u8], i: usize) -> Option<Param<'_>> {
    let mut j = i + 1;
    j += v[j..].iter().take_while(|&&b| py_space(b)).count();
    let n = v[j..]
        .iter()
        .take_while(|&&b| !py_space(b) && b != b'=' && b != b';')
        .count();
    if n == 0 {
        return None;
    }
    let name = &v[j..j + n];
    j += n;
    j += v[j..].iter().take_while(|&&b| py_space(b)).count();
    if v.get(j) != Some(&b'=') {
        return None;
    }
    j += 1;
    j += v[j..].iter().take_while(|&&b| py_space(b)).count();
    if v.get(j) == Some(&b'"') {
        // Most quoted strings have no escape: the bytes as they stand.
        let rest = &v[j + 1..];
        if let Some(q) = memchr::memchr2(b'"', b'\\', rest) {
            if rest[q] == b'"' {
                return Some((name, Cow::Borrowed(&rest[..q]), j + 1 + q + 1));
            }
        }
        // A quoted string with backslash escapes; unterminated: the
        // unquoted reading of the same bytes.
        let mut value = Vec::new();
        let mut k = j + 1;
        while k < v.len() {
            match v[k] {
                b'"' => return Some((name, Cow::Owned(value), k + 1)),
                b'\\' if k + 1 < v.len() => {
                    value.push(v[k + 1]);
                    k += 2;
                }
                b'\\' => break,
                b => {
                    value.push(b);
                    k += 1;
                }
            }
        }
    }
    let m = v[j..]
        .iter()
        .take_while(|&&b| !py_space(b) && b != b';')
        .count();
    Some((name, Cow::Borrowed(&v[j..j + m]), j + m))
}

/// The parameters of `v` from offset `i` (past `type/subtype`): names in
/// lower case, the first of each name kept, in order; then those written
/// only in RFC 2231's form, joined and decoded (a plain `name=` wins over
/// `name*=`, as Python's `get_param` has it).
pub(crate) fn params(v: &[u8], mut i: usize) -> Vec<(String, Vec<u8>)> {
    let mut plain: Vec<(String, Vec<u8>)> = Vec::new();
    let mut ext: Vec<(String, Vec<u8>)> = Vec::new();
    while let Some(k) = memchr(b';', &v[i..]) {
        i += k;
        match param(v, i) {
            Some((name, value, end)) => {
                let name = String::from_utf8_lossy(name).to_ascii_lowercase();
                let list = match name.contains('*') {
                    true => &mut ext,
                    false => &mut plain,
                };
                if !list.iter().any(|(n, _)| *n == name) {
                    list.push((name, value.into_owned()));
                }
                i = end;
            }
            None => i += 1,
        }
    }
    let mut bases: Vec<&str> = Vec::new();
    for base in ext.iter().filter_map(|(n, _)| n.split('*').next()) {
        if !bases.contains(&base) {
            bases.push(base);
        }
    }
    for base in bases {
        if plain.iter().any(|(n, _)| n == base) {
            continue;
        }
        if let Some(value) = extended(base, &ext) {
            plain.push((base.to_string(), value));
        }
    }
    plain
}

/// The value of parameter `base` from its RFC 2231 pieces among `ext`
/// (`base*`, or `base*0`, `base*1*`, ... up to the first missing number),
/// decoded to UTF-8 by the charset its first extended piece names (the
/// bytes as they are when the charset is not known or they are not text
/// in it).
fn extended(base: &str, ext: &[(String, Vec<u8>)]) -> Option<Vec<u8>> {
    let piece = |suffix: &str| {
        ext.iter()
            .find(|(n, _)| {
                n.len() == base.len() + suffix.len() && n.starts_with(base) && n.ends_with(suffix)
            })
            .map(|(_, v)| v.as_slice())
    };
    let mut bytes = Vec::new();
    let mut charset = None;
    let mut first = true;
    let mut add = |value: &[u8], encoded: bool, bytes: &mut Vec<u8>| {
        let mut value = value;
        if encoded && first {
            // `charset'language'`: the language is not part of the value.
            let mut quotes = value.iter().enumerate().filter(|(_, &b)| b == b'\'');
            if let (Some((a, _)), Some((b, _))) = (quotes.next(), quotes.next()) {
                charset = Charset::for_label(&value[..a]);
                value = &value[b + 1..];
            }
        }
        first = false;
        match encoded {
            true => bytes.extend_from_slice(&crate::percent::decode(value)),
            false => bytes.extend_from_slice(value),
        }
    };
    if let Some(v) = piece("*") {
        add(v, true, &mut bytes);
    } else {
        let mut n = 0usize;
        loop {
            let num = format!("*{n}");
            if let Some(v) = piece(&format!("{num}*")) {
                add(v, true, &mut bytes);
            } else if let Some(v) = piece(&num) {
                add(v, false, &mut bytes);
            } else {
                break;
            }
            n += 1;
        }
        if n == 0 {
            return None;
        }
    }
    Some(
        match charset.and_then(|c| c.decode(&bytes).map(Cow::into_owned)) {
            Some(s) => s.into_bytes(),
            None => bytes,
        },
    )
}

/// The charset a `Content-Type` value's `charset` parameter names, if
/// any and known.
pub(crate) fn charset(v: &[u8]) -> Option<Charset> {
    Charset::for_label(&charset_label(v)?)
}

/// The `charset` parameter of a `Content-Type` value, if any: found
/// without allocating unless it is quoted with escapes or written in RFC
/// 2231's form (each text part's header is read for it).
pub(crate) fn charset_label(v: &[u8]) -> Option<Cow<'_, [u8]>> {
    let mut i = 0;
    let mut extended = false;
    while let Some(k) = memchr(b';', &v[i..]) {
        i += k;
        match param(v, i) {
            Some((name, value, end)) => {
                if name.eq_ignore_ascii_case(b"charset") {
                    return Some(value);
                }
                extended |= name.len() > 7 && name[..8].eq_ignore_ascii_case(b"charset*");
                i = end;
            }
            None => i += 1,
        }
    }
    if !extended {
        return None;
    }
    let all = params(v, 0);
    let (_, value) = all.into_iter().find(|(n, _)| n == "charset")?;
    Some(Cow::Owned(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(v: &str, name: &str) -> Option<String> {
        params(v.as_bytes(), 0)
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| String::from_utf8_lossy(&v).into_owned())
    }

    #[test]
    fn plain_and_quoted() {
        let v = "text/plain; Charset=\"big5\"; format=flowed;x; boundary=a\\b";
        assert_eq!(get(v, "charset").as_deref(), Some("big5"));
        assert_eq!(get(v, "format").as_deref(), Some("flowed"));
        assert_eq!(get(v, "boundary").as_deref(), Some("a\\b"));
        assert_eq!(
            get("text/plain; a=\"x\\\"y\"", "a").as_deref(),
            Some("x\"y")
        );
    }

    #[test]
    fn rfc2231_extended_and_continued() {
        // RFC 2231's own examples.
        let v = "application/x-stuff; title*=us-ascii'en-us'This%20is%20%2A%2A%2Afun%2A%2A%2A";
        assert_eq!(get(v, "title").as_deref(), Some("This is ***fun***"));
        let v = "message/external-body; access-type=URL;\n URL*0=\"ftp://\";\n URL*1=\"cs.utk.edu/pub/moore/bulk-mailer/bulk-mailer.tar\"";
        assert_eq!(
            get(v, "url").as_deref(),
            Some("ftp://cs.utk.edu/pub/moore/bulk-mailer/bulk-mailer.tar")
        );
        let v = "application/x-stuff;\n title*0*=us-ascii'en'This%20is%20even%20more%20;\n title*1*=%2A%2A%2Afun%2A%2A%2A%20;\n title*2=\"isn't it!\"";
        assert_eq!(
            get(v, "title").as_deref(),
            Some("This is even more ***fun*** isn't it!")
        );
        // Out of order, and a gap ends the value.
        assert_eq!(get("a/b; n*1=b; n*0=a; n*3=d", "n").as_deref(), Some("ab"));
        // A plain one wins.
        assert_eq!(
            get("a/b; n=plain; n*=utf-8''x", "n").as_deref(),
            Some("plain")
        );
        // A charset that is not known, or bytes not in it: the bytes.
        assert_eq!(
            params(b"a/b; f*=x-none''%FF", 0),
            vec![("f".to_string(), vec![0xff])]
        );
        assert_eq!(
            get(
                "attachment; filename*=UTF-8''%E2%82%AC%20rates.txt",
                "filename"
            )
            .as_deref(),
            Some("€ rates.txt")
        );
    }

    #[cfg(feature = "charsets")]
    #[test]
    fn filenames_and_charsets_in_other_charsets() {
        assert_eq!(
            get(
                "attachment; filename*=iso-2022-jp'ja'%1B%24B%24F%249%24H%1B%28B.txt",
                "filename"
            )
            .as_deref(),
            Some("てすと.txt")
        );
        assert_eq!(
            get(
                "attachment; filename*0*=big5''%A4%A4; filename*1*=%A4%E5.doc",
                "filename"
            )
            .as_deref(),
            Some("中文.doc")
        );
    }

    #[test]
    fn the_charset_parameter() {
        let cs = |v: &str| charset(v.as_bytes()).map(Charset::name);
        assert_eq!(cs("text/plain; charset=utf-8"), Some("UTF-8"));
        assert_eq!(
            cs("text/plain; CHARSET=\"UTF-8\"; format=flowed"),
            Some("UTF-8")
        );
        assert_eq!(cs("text/plain; charset*=us-ascii'en'utf-8"), Some("UTF-8"));
        assert_eq!(cs("text/plain"), None);
        assert_eq!(cs("text/plain; charset=no-such"), None);
        #[cfg(feature = "charsets")]
        assert_eq!(cs("text/plain;\n\tcharset=big5"), Some("Big5"));
    }
}
