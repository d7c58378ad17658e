//! The text of an `a` element whose `href` is reported: its anchor text.
//!
//! The HTML reader hands it the element's text as it writes it (bytes in
//! the part's charset, character references as UTF-8), only while such an
//! element is open. Blanks (the standard's white space: space, tab, line
//! feed, form feed, CR) are collapsed as they come, which keeps what is
//! held small: at most [`RAW_CAP`] bytes wait to be decoded, and the text
//! keeps [`MAX_CHARS`] characters. The part's charset is decoded to UTF-8
//! with `encoding_rs` (the `charsets` feature; without it, and when no
//! charset is declared, the text is read as UTF-8, bytes that are not
//! replaced by U+FFFD). Collapsing bytes before decoding is safe: in every
//! charset read here (those whose ASCII bytes are ASCII) a blank byte is a
//! blank, never part of a multi-byte character. The charset is the part's
//! [`Charset`], read as the part's other text is (labels, mail's aliases).

use crate::charset::Charset;

/// Characters an anchor text keeps.
pub(crate) const MAX_CHARS: usize = 200;

/// Bytes held before decoding (collapsed; a character of these charsets
/// takes at most four, and ISO-2022-JP escapes three more).
const RAW_CAP: usize = 4 * MAX_CHARS + 64;

/// An anchor text being collected.
#[derive(Debug, Default)]
pub(crate) struct LinkText {
    /// Bytes in the part's charset, collapsed, not decoded yet.
    raw: Vec<u8>,
    /// The text decoded so far.
    text: String,
    /// Characters in `text`.
    chars: usize,
    /// A blank came since the last byte that is none.
    blank: bool,
    /// The part's declared charset (`None`: UTF-8, or none declared).
    charset: Option<Charset>,
    #[cfg(feature = "charsets")]
    decoder: Option<Decoder>,
    /// No more text is taken.
    full: bool,
}

/// A decoder that has started (`encoding_rs`'s, which older versions do
/// not show with `Debug`).
#[cfg(feature = "charsets")]
struct Decoder(encoding_rs::Decoder);

#[cfg(feature = "charsets")]
impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.encoding().name())
    }
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0c | b'\r')
}

impl LinkText {
    /// Starts another anchor text (the buffers are kept).
    pub fn start(&mut self, charset: Option<Charset>) {
        self.raw.clear();
        self.text.clear();
        self.chars = 0;
        self.blank = false;
        self.charset = charset;
        #[cfg(feature = "charsets")]
        {
            self.decoder = None;
        }
        self.full = false;
    }

    /// Whether no more text is taken (the text is decided).
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Text bytes in the part's charset.
    pub fn push_bytes(&mut self, bytes: &[u8]) {
        if self.full {
            return;
        }
        if self.raw.is_empty() && self.plain() && bytes.is_ascii() && !bytes.contains(&0x1b) {
            // Most link texts: ASCII, the same in every charset read here
            // (ISO-2022-JP too, before its first escape): no decoding.
            return self.push_ascii(bytes);
        }
        for &b in bytes {
            if self.full {
                return;
            }
            if is_blank(b) {
                self.blank = true;
                continue;
            }
            if self.blank {
                self.blank = false;
                if !self.raw.is_empty() || self.chars > 0 {
                    self.raw.push(b' ');
                }
            }
            self.raw.push(b);
            if self.raw.len() >= RAW_CAP {
                self.decode(false);
                self.full = self.full || self.chars >= MAX_CHARS;
                if self.raw.len() >= RAW_CAP {
                    // Bytes that decode to nothing yet (a hostile run of
                    // escapes): enough is enough.
                    self.full = true;
                }
            }
        }
    }

    /// Text already decoded (a character reference's).
    pub fn push_str(&mut self, s: &str) {
        if self.full {
            return;
        }
        self.decode(false);
        for c in s.chars() {
            self.push_char(c);
        }
    }

    /// Appends ASCII text a word at a time, as [`LinkText::push_char`]
    /// would a character at a time.
    fn push_ascii(&mut self, mut rest: &[u8]) {
        loop {
            let k = rest
                .iter()
                .position(|&b| !is_blank(b))
                .unwrap_or(rest.len());
            if k > 0 {
                self.blank = true;
                rest = &rest[k..];
            }
            if rest.is_empty() {
                return;
            }
            if self.chars >= MAX_CHARS {
                self.full = true;
                return;
            }
            if self.blank {
                self.blank = false;
                if self.chars > 0 {
                    self.text.push(' ');
                    self.chars += 1;
                    if self.chars >= MAX_CHARS {
                        self.full = true;
                        return;
                    }
                }
            }
            let w = rest.iter().position(|&b| is_blank(b)).unwrap_or(rest.len());
            let take = w.min(MAX_CHARS - self.chars);
            // ASCII: one character per byte.
            self.text
                .push_str(std::str::from_utf8(&rest[..take]).unwrap_or_default());
            self.chars += take;
            if take < w {
                self.full = true;
                return;
            }
            rest = &rest[w..];
        }
    }

    /// Appends a decoded character, collapsing blanks.
    #[inline]
    fn push_char(&mut self, c: char) {
        if self.chars >= MAX_CHARS {
            self.full = true;
            return;
        }
        if c.is_ascii() && is_blank(c as u8) {
            self.blank = true;
            return;
        }
        if self.blank {
            self.blank = false;
            if self.chars > 0 {
                self.text.push(' ');
                self.chars += 1;
                if self.chars >= MAX_CHARS {
                    self.full = true;
                    return;
                }
            }
        }
        self.text.push(c);
        self.chars += 1;
    }

    /// Decodes the bytes held (`last`: no more come).
    fn decode(&mut self, last: bool) {
        if self.raw.is_empty() && !last {
            return;
        }
        let raw = std::mem::take(&mut self.raw);
        // A blank after the bytes held comes after their text.
        let blank = std::mem::replace(&mut self.blank, false);
        let wait = if self.plain() && raw.is_ascii() && !raw.contains(&0x1b) {
            // Most link texts: ASCII, the same in every charset read here
            // (ISO-2022-JP too, before its first escape).
            for &b in &raw {
                self.push_char(b as char);
            }
            0
        } else {
            let mut out = String::new();
            let wait = self.decode_into(&raw, last, &mut out);
            for c in out.chars() {
                self.push_char(c);
            }
            wait
        };
        self.blank |= blank;
        self.raw = raw;
        let n = self.raw.len();
        self.raw.drain(..n - wait);
    }

    /// No decoder has started (a stateful one, once started, reads on).
    fn plain(&self) -> bool {
        #[cfg(feature = "charsets")]
        return self.decoder.is_none();
        #[cfg(not(feature = "charsets"))]
        true
    }

    /// Decodes `raw` into `out`; returns how many bytes at its end wait for
    /// the next ones (an incomplete character).
    fn decode_into(&mut self, raw: &[u8], last: bool, out: &mut String) -> usize {
        #[cfg(feature = "charsets")]
        {
            // A charset whose ASCII bytes are not ASCII (UTF-16) is no
            // charset an HTML part's markup is read in: read as UTF-8.
            let enc = match self.charset.filter(|c| c.lines_are_ascii_compatible()) {
                Some(c) => c.encoding(),
                // Undeclared: ISO-2022-JP is known by its escapes.
                None if raw.contains(&0x1b) => encoding_rs::ISO_2022_JP,
                None => encoding_rs::UTF_8,
            };
            let Decoder(d) = self
                .decoder
                .get_or_insert_with(|| Decoder(enc.new_decoder_without_bom_handling()));
            out.reserve(d.max_utf8_buffer_length(raw.len()).unwrap_or(raw.len() * 3));
            let _ = d.decode_to_string(raw, out, last);
            0
        }
        #[cfg(not(feature = "charsets"))]
        {
            let mut rest = raw;
            loop {
                match std::str::from_utf8(rest) {
                    Ok(s) => {
                        out.push_str(s);
                        return 0;
                    }
                    Err(e) => {
                        let (ok, bad) = rest.split_at(e.valid_up_to());
                        out.push_str(std::str::from_utf8(ok).unwrap_or_default());
                        match e.error_len() {
                            Some(n) => {
                                out.push('\u{fffd}');
                                rest = &bad[n..];
                            }
                            None if last => {
                                out.push('\u{fffd}');
                                return 0;
                            }
                            None => return bad.len(),
                        }
                    }
                }
            }
        }
    }

    /// The anchor text: collapsed, trimmed, at most [`MAX_CHARS`]
    /// characters.
    pub fn finish(&mut self) -> Box<str> {
        self.full = false;
        self.decode(true);
        self.full = true;
        // One allocation, of its size; the buffer serves the next text.
        Box::from(self.text.trim_end_matches(' '))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(parts: &[&[u8]], charset: Option<&[u8]>) -> String {
        let mut t = LinkText::default();
        t.start(
            charset
                .and_then(Charset::for_label)
                .filter(|c| !c.is_utf8()),
        );
        for p in parts {
            t.push_bytes(p);
        }
        t.finish().into()
    }

    #[test]
    fn blanks_collapse_and_trim() {
        assert_eq!(
            text(&[b"  Read\n\t the ", b" ", b"news  "], None),
            "Read the news"
        );
        let mut t = LinkText::default();
        t.start(None);
        t.push_bytes(b"a ");
        t.push_str("&\u{a0}");
        t.push_bytes(b"\n b");
        assert_eq!(&*t.finish(), "a &\u{a0} b");
        // The buffers serve the next text.
        t.start(None);
        t.push_bytes(b" x ");
        assert_eq!(&*t.finish(), "x");
    }

    #[test]
    fn at_most_200_characters() {
        let long = "\u{e9}".repeat(500);
        let t = text(&[long.as_bytes()], None);
        assert_eq!(t.chars().count(), MAX_CHARS);
        let words = "ab ".repeat(300);
        let t = text(&[words.as_bytes()], None);
        assert_eq!(t.chars().count(), MAX_CHARS);
        assert!(t.ends_with("ab"));
        let t = text(&["abcd ".repeat(100).as_bytes()], None);
        assert_eq!(t.chars().count(), MAX_CHARS - 1, "no blank at the end");
    }

    #[test]
    fn utf8_cut_anywhere() {
        let s = "h\u{e9}llo \u{65e5}\u{672c}";
        for cut in 0..s.len() {
            let b = s.as_bytes();
            assert_eq!(text(&[&b[..cut], &b[cut..]], Some(b"utf-8")), s);
        }
        assert_eq!(text(&[b"a\xffb"], None), "a\u{fffd}b");
    }

    #[cfg(feature = "charsets")]
    #[test]
    fn charsets_decode() {
        // "日本" in Shift_JIS, Big5 "中文", EUC-KR "한국", KOI8-R "Мир".
        assert_eq!(
            text(&[b"\x93\xfa", b"\x96\x7b"], Some(b"Shift_JIS")),
            "\u{65e5}\u{672c}"
        );
        assert_eq!(
            text(&[b"\xa4\xa4\xa4\xe5"], Some(b"big5")),
            "\u{4e2d}\u{6587}"
        );
        assert_eq!(
            text(&[b"\xc7\xd1\xb1\xb9"], Some(b"euc-kr")),
            "\u{d55c}\u{ad6d}"
        );
        assert_eq!(
            text(&[b"\xed\xc9\xd2"], Some(b"koi8-r")),
            "\u{41c}\u{438}\u{440}"
        );
        // ISO-2022-JP, declared or known by its escapes.
        let jis: &[u8] = b"\x1b$BF|K\\\x1b(B site";
        assert_eq!(text(&[jis], Some(b"iso-2022-jp")), "\u{65e5}\u{672c} site");
        assert_eq!(text(&[jis], None), "\u{65e5}\u{672c} site");
        // UTF-16 is no charset an HTML part's bytes are read in here.
        assert_eq!(text(&[b"ok"], Some(b"utf-16le")), "ok");
    }
}
