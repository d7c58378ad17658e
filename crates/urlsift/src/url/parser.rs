//! The hand-written section 5 parser: one function per production, a small
//! cursor, byte tables from [`crate::class`], no allocation, no panics.
//!
//! Error offsets follow the DFA rule (see [`crate::ErrorKind`]): where a
//! production is ambiguous (`login`: `user[:password]@` versus `hostport`,
//! `grouppart`: `group` versus `article`) both readings are followed and
//! the later death wins, exactly like a DFA for the grammar.

use super::{Parts, Policy, Scheme, Span};
use crate::class::{self, hex_val, is, run, Run};
use crate::error::{ErrorKind, ParseError};
use crate::warning::{WarningKind, Warnings};

type R<T> = Result<T, ParseError>;

/// The later of two errors (the DFA dies only when every reading has died);
/// on a tie the first one, the primary reading.
fn later(a: ParseError, b: ParseError) -> ParseError {
    if b.offset() > a.offset() {
        b
    } else {
        a
    }
}

/// The first position from `pos` on, at most 15 bytes before the end, that
/// may hold a byte outside `class` (the caller's loop a byte at a time goes
/// on from there): 16 bytes a step where the CPU has SSSE3 (nearly every
/// x86-64 one; checked once, then a load and a test), `pos` elsewhere.
#[inline]
fn skip_class(s: &[u8], pos: usize, class: &Run) -> usize {
    #[cfg(target_arch = "x86_64")]
    if pos + 16 <= s.len() && std::is_x86_feature_detected!("ssse3") {
        // SAFETY: SSSE3 is available, checked just above.
        return unsafe { skip_class_ssse3(s, pos, class) };
    }
    let _ = (s, class);
    pos
}

/// [`skip_class`] with SSSE3: each of 16 bytes looks its low nibble up in
/// the class's table and its high nibble up in a table of bits, and is in
/// the class iff the two share a bit (see [`Run`]).
///
/// # Safety
/// The CPU must support SSSE3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
unsafe fn skip_class_ssse3(s: &[u8], mut pos: usize, class: &Run) -> usize {
    use std::arch::x86_64::*;
    let lo = _mm_loadu_si128(class.lo.as_ptr().cast());
    // Bit `h` for the high nibble `h` of an ASCII byte; none for the rest.
    let hi = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
    let nibble = _mm_set1_epi8(0x0f);
    while pos + 16 <= s.len() {
        // SAFETY: `pos + 16 <= s.len()`.
        let v = _mm_loadu_si128(s.as_ptr().add(pos).cast());
        let l = _mm_shuffle_epi8(lo, _mm_and_si128(v, nibble));
        let h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), nibble));
        let out = _mm_cmpeq_epi8(_mm_and_si128(l, h), _mm_setzero_si128());
        let out = _mm_movemask_epi8(out) as u32;
        if out != 0 {
            return pos + out.trailing_zeros() as usize;
        }
        pos += 16;
    }
    pos
}

pub(super) struct Cursor<'a> {
    s: &'a [u8],
    pos: usize,
    lenient: bool,
    pub(super) w: Warnings,
    rule: &'static str,
    scheme: Scheme,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Error at the cursor: `Incomplete` at the end of input, `NonAscii`
    /// on a byte >= 0x80, else `kind`.
    #[cold]
    #[inline(never)]
    fn err(&self, kind: ErrorKind, rule: &'static str) -> ParseError {
        let kind = match self.peek() {
            None => ErrorKind::Incomplete,
            Some(b) if b >= 0x80 => ErrorKind::NonAscii,
            Some(_) => kind,
        };
        ParseError::new(self.pos, kind, rule)
    }

    /// The current production cannot take the byte at the cursor.
    #[cold]
    #[inline(never)]
    fn unexpected(&self) -> ParseError {
        if self.rule == "port" {
            self.err(ErrorKind::PortNotDigits, "port")
        } else {
            self.err(ErrorKind::Unexpected, self.rule)
        }
    }

    /// `escape = "%" hex hex` (section 2.2), cursor on the `%`.
    fn escape(&mut self) -> R<()> {
        let p = self.pos;
        let mut v = 0u8;
        for k in 1..=2 {
            self.pos = p + k;
            match self.peek().and_then(hex_val) {
                Some(h) => v = v << 4 | h,
                None => return Err(self.err(ErrorKind::BadEscape, "escape")),
            }
        }
        // A gopher URL's %09 is its own field separator (3.4), not an
        // injection; any other control octet is worth a warning (section 6).
        if (v < 0x20 || v == 0x7f) && !(v == 0x09 && self.scheme == Scheme::Gopher) {
            self.w.add(WarningKind::EncodedControl, p);
        }
        self.pos = p + 3;
        Ok(())
    }

    /// `*[ <class> ]` for a production built on `uchar`: the bytes of
    /// `class`, escapes, and under the lenient policy an unencoded `~`
    /// (warned).
    fn run(&mut self, class: &Run, rule: &'static str) -> R<()> {
        self.rule = rule;
        // The cursor is kept in a local: the loop is one load, one table
        // test and one branch per byte, after a pass 16 bytes a step.
        let s = self.s;
        let mut pos = self.pos;
        loop {
            pos = skip_class(s, pos, class);
            while pos < s.len() && is(s[pos], class.mask) {
                pos += 1;
            }
            match s.get(pos) {
                Some(b'%') => {
                    self.pos = pos;
                    self.escape()?;
                    pos = self.pos;
                }
                Some(b'~') if self.lenient => {
                    self.w.add(WarningKind::Tilde, pos);
                    pos += 1;
                }
                _ => break,
            }
        }
        self.pos = pos;
        Ok(())
    }

    fn expect(&mut self, b: u8, kind: ErrorKind, rule: &'static str) -> R<()> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(self.err(kind, rule))
        }
    }

    /// `"//"` of `ip-schemepart` (section 3.1).
    fn slashes(&mut self) -> R<()> {
        self.expect(b'/', ErrorKind::MissingSlashes, "ip-schemepart")?;
        self.expect(b'/', ErrorKind::MissingSlashes, "ip-schemepart")
    }

    /// The end of the scheme-specific part: end of input, or `"#" *xchar`.
    fn end(&mut self, p: &mut Parts) -> R<()> {
        match self.peek() {
            None => {
                p.body_end = self.s.len() as u32;
                Ok(())
            }
            Some(b'#') => {
                p.body_end = self.pos as u32;
                self.pos += 1;
                self.run(&run::XCHAR, "fragment")?;
                if self.pos == self.s.len() {
                    Ok(())
                } else {
                    Err(self.unexpected())
                }
            }
            Some(_) => Err(self.unexpected()),
        }
    }

    /// `host = hostname | hostnumber` (section 3.1, section 5):
    /// `hostname = *[ domainlabel "." ] toplabel`,
    /// `hostnumber = digits "." digits "." digits "." digits`.
    /// Returns whether it is a hostnumber.
    fn host(&mut self) -> R<bool> {
        self.rule = "host";
        let s = self.s;
        let start = self.pos;
        let mut pos = start;
        let mut label = start;
        let mut dots = 0u32;
        let mut all_digits = true; // every finished label is digits only
        let mut cur_digits = true;
        loop {
            // A run of letters and digits, most of a host: one table test
            // per byte, the letters seen noted once for the run.
            let mut kinds = 0;
            while let Some(&b) = s.get(pos) {
                let c = class::TABLE[b as usize];
                if c & class::ALPHADIGIT == 0 {
                    break;
                }
                kinds |= c;
                pos += 1;
            }
            cur_digits &= kinds & class::ALPHA == 0;
            match s.get(pos) {
                Some(b'-') => {
                    if pos == label {
                        self.pos = pos;
                        return Err(self.err(ErrorKind::LabelStart, "hostname"));
                    }
                    cur_digits = false;
                }
                Some(b'.') => {
                    if pos == label {
                        self.pos = pos;
                        return Err(self.err(ErrorKind::LabelStart, "hostname"));
                    }
                    // (The label is not empty: a byte before it.)
                    if s[pos - 1] == b'-' {
                        self.pos = pos;
                        return Err(self.err(ErrorKind::LabelEnd, "hostname"));
                    }
                    all_digits &= cur_digits;
                    cur_digits = true;
                    dots += 1;
                    label = pos + 1;
                }
                _ => break,
            }
            pos += 1;
        }
        self.pos = pos;
        if self.pos == start {
            return Err(self.err(ErrorKind::HostEmpty, "host"));
        }
        if self.pos == label {
            return Err(self.err(ErrorKind::TrailingDot, "hostname"));
        }
        if self.s[pos - 1] == b'-' {
            return Err(self.err(ErrorKind::LabelEnd, "hostname"));
        }
        if is(self.s[label], class::ALPHA) {
            return Ok(false);
        }
        if all_digits && cur_digits && dots == 3 {
            self.hostnumber_range(start);
            return Ok(true);
        }
        Err(self.err(ErrorKind::TopLabel, "hostname"))
    }

    /// Section 6-style sanity: a hostnumber group above 255 is warned.
    fn hostnumber_range(&mut self, start: usize) {
        let mut g = start;
        let mut v = 0u32;
        for i in start..=self.pos {
            match self.s.get(i) {
                Some(&d) if d.is_ascii_digit() && i < self.pos => {
                    v = v.saturating_mul(10).saturating_add(u32::from(d - b'0'));
                }
                _ => {
                    if v > 255 {
                        self.w.add(WarningKind::HostnumberRange, g);
                    }
                    v = 0;
                    g = i + 1;
                }
            }
        }
    }

    /// `host`, recorded in the parts.
    fn host_part(&mut self, p: &mut Parts) -> R<()> {
        let hs = self.pos;
        p.host_number = self.host()?;
        p.host = Span::new(hs, self.pos);
        Ok(())
    }

    /// `hostport = host [ ":" port ]`, `port = digits` (section 3.1).
    fn hostport(&mut self, p: &mut Parts) -> R<()> {
        self.host_part(p)?;
        if self.eat(b':') {
            let ps = self.pos;
            while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1;
            }
            if self.pos == ps {
                let kind = match self.peek() {
                    Some(b'/' | b'#') => ErrorKind::PortEmpty,
                    _ => ErrorKind::PortNotDigits,
                };
                return Err(self.err(kind, "port"));
            }
            p.port = Span::new(ps, self.pos);
            self.rule = "port";
            self.port_warnings(ps);
        }
        Ok(())
    }

    fn port_warnings(&mut self, ps: usize) {
        let v = super::digits_value(&self.s[ps..self.pos]);
        if v > 65535 {
            self.w.add(WarningKind::PortRange, ps);
        }
        if let Some(d) = self.scheme.default_port() {
            if v != u32::from(d) {
                self.w.add(WarningKind::NonDefaultPort, ps);
                if v < 1024 {
                    self.w.add(WarningKind::ReservedPort, ps);
                }
            }
        }
    }

    /// `login = [ user [ ":" password ] "@" ] hostport` (section 3.1).
    /// When the hostport reading is taken, returns where the user reading
    /// began: its error ([`Cursor::user_error`]) is read again only when
    /// a later error is to be combined with it, which is rare.
    fn login(&mut self, p: &mut Parts) -> R<Option<usize>> {
        let start = self.pos;
        // The user reading ends at an `@` or dies: with none left (nearly
        // every URL) it dies, and only the hostport reading is run. The
        // user reading's pass and its error were a sixth of the parse of
        // an `https` URL, whose generic reading tries a login.
        if memchr::memchr(b'@', &self.s[start..]).is_some() {
            if let Some((at, colon)) = self.user() {
                match colon {
                    Some(c) => {
                        p.user = Span::new(start, c);
                        p.password = Span::new(c + 1, at);
                        if at > c + 1 {
                            self.w.add(WarningKind::Password, c + 1);
                        }
                    }
                    None => p.user = Span::new(start, at),
                }
                self.pos = at + 1;
                self.hostport(p)?;
                return Ok(None);
            }
        }
        match self.hostport(p) {
            Ok(()) => Ok(Some(start)),
            Err(he) => Err(later(he, self.user_error(start))),
        }
    }

    /// The `user [ ":" password ] "@"` reading from the cursor: where its
    /// `@` and `:` are, with the cursor and warnings as it leaves them, or
    /// `None` with them as they were.
    fn user(&mut self) -> Option<(usize, Option<usize>)> {
        let (start, saved) = (self.pos, self.w);
        let read = self.user_reading().ok();
        if read.is_none() {
            self.pos = start;
            self.w = saved;
        }
        read
    }

    /// `user [ ":" password ]` from the cursor up to its `@`: where the
    /// `@` and the `:` are, or where the reading dies.
    fn user_reading(&mut self) -> R<(usize, Option<usize>)> {
        let mut colon = None;
        loop {
            let rule = if colon.is_some() { "password" } else { "user" };
            self.run(&run::USER, rule)?;
            match self.peek() {
                Some(b':') if colon.is_none() => {
                    colon = Some(self.pos);
                    self.pos += 1;
                }
                Some(b'@') => return Ok((self.pos, colon)),
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// Where the user reading from `start` dies (it does: [`Cursor::login`]
    /// took the hostport reading), read on a copy of the cursor.
    #[cold]
    #[inline(never)]
    fn user_error(&self, start: usize) -> ParseError {
        let mut c = Cursor {
            pos: start,
            ..*self
        };
        match c.user_reading() {
            Err(e) => e,
            // (Not met: a reading that reaches an `@` is taken.)
            Ok(_) => c.unexpected(),
        }
    }

    fn mark_slash(&mut self, p: &mut Parts) {
        p.slash = self.pos as u32;
        self.pos += 1;
    }

    /// The `/` a scheme requires before its path (nntp, wais, file,
    /// prospero).
    fn path_slash(&mut self, p: &mut Parts) -> R<()> {
        if self.peek() != Some(b'/') {
            return Err(self.unexpected());
        }
        self.mark_slash(p);
        Ok(())
    }

    /// `fpath = fsegment *[ "/" fsegment ]` (also `ppath`, section 3.2.2).
    fn fpath(&mut self, rule: &'static str) -> R<()> {
        // Segments may be empty: any run of fsegment bytes and "/".
        self.run(&run::FPATH, rule)
    }

    /// `httpurl = "http://" hostport [ "/" hpath [ "?" search ]]` (3.3).
    fn http(&mut self, p: &mut Parts) -> R<()> {
        self.slashes()?;
        let auth = self.pos;
        self.http_rest(p).map_err(|e| {
            // Section 6 / contract rule 7: user info in http is invalid.
            let region = &self.s[auth..];
            let stop = region
                .iter()
                .position(|&b| matches!(b, b'/' | b'#'))
                .unwrap_or(region.len());
            match region[..stop].iter().position(|&b| b == b'@') {
                Some(at) if e.offset() <= auth + at => e.with_kind(ErrorKind::HttpUserinfo, "http"),
                _ => e,
            }
        })
    }

    fn http_rest(&mut self, p: &mut Parts) -> R<()> {
        self.hostport(p)?;
        if self.peek() == Some(b'/') {
            self.mark_slash(p);
            // hpath = hsegment *[ "/" hsegment ]: segments may be empty,
            // so it is any run of hsegment bytes and "/".
            self.run(&run::HPATH, "hsegment")?;
            if self.eat(b'?') {
                loop {
                    self.run(&run::SEARCH, "search")?;
                    match self.peek() {
                        Some(b'/') if self.lenient => {
                            self.w.add(WarningKind::SearchSlash, self.pos);
                        }
                        Some(b'?') if self.lenient => {
                            self.w.add(WarningKind::SearchQuestion, self.pos);
                        }
                        _ => break,
                    }
                    self.pos += 1;
                }
            }
        }
        self.end(p)
    }

    /// `ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]` (3.2).
    fn ftp(&mut self, p: &mut Parts) -> R<()> {
        self.slashes()?;
        let fallback = self.login(p)?;
        self.ftp_rest(p)
            .map_err(|e| fallback.map_or(e, |u| later(e, self.user_error(u))))
    }

    fn ftp_rest(&mut self, p: &mut Parts) -> R<()> {
        if self.peek() == Some(b'/') {
            self.mark_slash(p);
            self.fpath("fsegment")?;
            if self.peek() == Some(b';') {
                for &b in b";type=" {
                    self.expect(b, ErrorKind::FtpType, "ftptype")?;
                }
                match self.peek().and_then(super::ftp::FtpType::from_byte) {
                    Some(_) => self.pos += 1,
                    None => return Err(self.err(ErrorKind::FtpType, "ftptype")),
                }
                self.rule = "ftptype";
            }
        }
        self.end(p)
    }

    /// `gopherurl = "gopher://" hostport [ / [ gtype [ selector
    /// [ "%09" search [ "%09" gopher+_string ] ] ] ] ]` (3.4): after the
    /// `/`, any `*xchar`.
    fn gopher(&mut self, p: &mut Parts) -> R<()> {
        self.slashes()?;
        self.hostport(p)?;
        if self.peek() == Some(b'/') {
            self.mark_slash(p);
            self.run(&run::XCHAR, "selector")?;
        }
        self.end(p)
    }

    /// `mailtourl = "mailto:" encoded822addr`, `encoded822addr = 1*xchar` (3.5).
    fn mailto(&mut self, p: &mut Parts) -> R<()> {
        let start = self.pos;
        self.run(&run::XCHAR, "encoded822addr")?;
        if self.pos == start {
            return Err(self.unexpected());
        }
        self.end(p)
    }

    /// `newsurl = "news:" grouppart`, `grouppart = "*" | group | article`,
    /// `article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host` (3.6).
    fn news(&mut self, p: &mut Parts) -> R<()> {
        let start = self.pos;
        // Every group byte (and "*") is also an article byte: scan as article.
        self.run(&run::ARTICLE, "article")?;
        let u = self.pos;
        if u > start && self.peek() == Some(b'@') {
            self.pos += 1;
            self.host_part(p)?;
            return self.end(p);
        }
        let region = &self.s[start..u];
        let group = region == b"*"
            || (region.first().is_some_and(|&b| is(b, class::ALPHA))
                && region[1..].iter().all(|&b| is(b, class::GROUP)));
        if group && matches!(self.peek(), None | Some(b'#')) {
            return self.end(p);
        }
        self.rule = if group { "grouppart" } else { "article" };
        Err(self.unexpected())
    }

    /// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`
    fn group(&mut self) -> R<()> {
        self.rule = "group";
        if !self.peek().is_some_and(|b| is(b, class::ALPHA)) {
            return Err(self.unexpected());
        }
        while self.peek().is_some_and(|b| is(b, class::GROUP)) {
            self.pos += 1;
        }
        Ok(())
    }

    /// `nntpurl = "nntp://" hostport "/" group [ "/" digits ]` (3.7).
    fn nntp(&mut self, p: &mut Parts) -> R<()> {
        self.slashes()?;
        self.hostport(p)?;
        self.path_slash(p)?;
        self.group()?;
        if self.eat(b'/') {
            self.rule = "digits";
            let ds = self.pos;
            while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1;
            }
            if self.pos == ds {
                return Err(self.unexpected());
            }
        }
        self.end(p)
    }

    /// `telneturl = "telnet://" login [ "/" ]` (3.8).
    fn telnet(&mut self, p: &mut Parts) -> R<()> {
        self.slashes()?;
        let fallback = self.login(p)?;
        if self.peek() == Some(b'/') {
            self.mark_slash(p);
            self.rule = "telneturl";
        }
        self.end(p)
            .map_err(|e| fallback.map_or(e, |u| later(e, self.user_error(u))))
    }

    /// `waisurl = waisdatabase | waisindex | waisdoc` (3.9):
    /// `"wais://" hostport "/" database [ "?" search | "/" wtype "/" wpath ]`.
    fn wais(&mut self, p: &mut Parts) -> R<()> {
        self.slashes()?;
        self.hostport(p)?;
        self.path_slash(p)?;
        self.run(&run::UCHAR, "database")?;
        if self.eat(b'?') {
            self.run(&run::SEARCH, "search")?;
        } else if self.eat(b'/') {
            self.run(&run::UCHAR, "wtype")?;
            if !self.eat(b'/') {
                return Err(self.unexpected());
            }
            self.run(&run::UCHAR, "wpath")?;
        }
        self.end(p)
    }

    /// `fileurl = "file://" [ host | "localhost" ] "/" fpath` (3.10).
    fn file(&mut self, p: &mut Parts) -> R<()> {
        self.slashes()?;
        if self.peek() != Some(b'/') {
            self.host_part(p)?;
        }
        self.path_slash(p)?;
        self.fpath("fsegment")?;
        self.end(p)
    }

    /// `prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]`,
    /// `fieldspec = ";" fieldname "=" fieldvalue` (3.11).
    fn prospero(&mut self, p: &mut Parts) -> R<()> {
        self.slashes()?;
        self.hostport(p)?;
        self.path_slash(p)?;
        self.fpath("psegment")?;
        while self.eat(b';') {
            self.run(&run::FIELDNAME, "fieldname")?;
            if !self.eat(b'=') {
                return Err(self.unexpected());
            }
            self.run(&run::FIELDVALUE, "fieldvalue")?;
        }
        self.end(p)
    }

    /// `genericurl = scheme ":" schemepart`, `schemepart = *xchar |
    /// ip-schemepart` (2.1, 3.1). Validity is `*xchar`; the ip-schemepart
    /// reading, when it fits, only adds the login and path parts.
    fn generic(&mut self, p: &mut Parts) -> R<()> {
        let start = self.pos;
        self.run(&run::XCHAR, "schemepart")?;
        self.end(p)?;
        let body = p.body_end as usize;
        if self.s[start..body].starts_with(b"//") {
            let mut sub = Cursor {
                s: &self.s[..body],
                pos: start + 2,
                lenient: self.lenient,
                w: self.w,
                rule: "login",
                scheme: Scheme::Other,
            };
            let mut q = *p;
            if sub.login(&mut q).is_ok() && matches!(sub.peek(), None | Some(b'/')) {
                if sub.peek() == Some(b'/') {
                    q.slash = sub.pos as u32;
                }
                *p = q;
                self.w = sub.w;
            }
        }
        Ok(())
    }
}

/// Parses a whole URL into its parts.
pub(super) fn parse(s: &[u8], policy: Policy) -> R<Parts> {
    if s.len() >= u32::MAX as usize {
        return Err(ParseError::new(
            u32::MAX as usize,
            ErrorKind::TooLong,
            "url",
        ));
    }
    // scheme = 1*[ lowalpha | digit | "+" | "-" | "." ] (2.1, any case)
    let i = class::scheme_run(s);
    match s.get(i) {
        None => return Err(ParseError::new(i, ErrorKind::SchemeMissingColon, "scheme")),
        Some(b':') if i > 0 => {}
        Some(_) if i == 0 => return Err(ParseError::new(0, ErrorKind::SchemeEmpty, "scheme")),
        Some(&b) => {
            let kind = if b >= 0x80 {
                ErrorKind::NonAscii
            } else {
                ErrorKind::SchemeChar
            };
            return Err(ParseError::new(i, kind, "scheme"));
        }
    }
    let scheme = Scheme::from_prefix(s, i);
    let mut p = Parts {
        scheme_end: i as u32,
        scheme,
        policy,
        user: Span::ABSENT,
        password: Span::ABSENT,
        host: Span::ABSENT,
        port: Span::ABSENT,
        host_number: false,
        slash: super::NONE,
        body_end: s.len() as u32,
        warnings: Warnings::default(),
    };
    let mut c = Cursor {
        s,
        pos: i + 1,
        lenient: policy == Policy::Lenient,
        w: Warnings::default(),
        rule: "schemepart",
        scheme,
    };
    match scheme {
        Scheme::Http => c.http(&mut p)?,
        Scheme::Ftp => c.ftp(&mut p)?,
        Scheme::Gopher => c.gopher(&mut p)?,
        Scheme::Mailto => c.mailto(&mut p)?,
        Scheme::News => c.news(&mut p)?,
        Scheme::Nntp => c.nntp(&mut p)?,
        Scheme::Telnet => c.telnet(&mut p)?,
        Scheme::Wais => c.wais(&mut p)?,
        Scheme::File => c.file(&mut p)?,
        Scheme::Prospero => c.prospero(&mut p)?,
        Scheme::Other => c.generic(&mut p)?,
    }
    p.warnings = c.w;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str, policy: Policy) -> Parts {
        parse(s.as_bytes(), policy).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn err(s: &str) -> (usize, ErrorKind, &'static str) {
        let e = parse(s.as_bytes(), Policy::Strict).expect_err(s);
        (e.offset(), e.kind(), e.rule())
    }

    #[test]
    fn s2_2_escape() {
        assert_eq!(err("foo:%4G"), (6, ErrorKind::BadEscape, "escape"));
        assert_eq!(err("foo:%G4"), (5, ErrorKind::BadEscape, "escape"));
        assert_eq!(err("foo:%4"), (6, ErrorKind::Incomplete, "escape"));
        let p = ok("foo:%0a%7F", Policy::Strict);
        assert!(p.warnings.contains(WarningKind::EncodedControl));
        // Section 6 vs 3.4: gopher's %09 separators are syntax, not injection.
        let p = ok("gopher://h/7sel%09search%09+", Policy::Strict);
        assert!(!p.warnings.contains(WarningKind::EncodedControl));
        let p = ok("gopher://h/7sel%0d%0a", Policy::Strict);
        assert!(p.warnings.contains(WarningKind::EncodedControl));
    }

    #[test]
    fn s2_1_scheme() {
        assert_eq!(err("a b:"), (1, ErrorKind::SchemeChar, "scheme"));
        assert_eq!(err(":"), (0, ErrorKind::SchemeEmpty, "scheme"));
        assert_eq!(ok("A.b-C+1:", Policy::Strict).scheme, Scheme::Other);
    }

    #[test]
    fn s3_1_host() {
        assert_eq!(err("http://host-/"), (12, ErrorKind::LabelEnd, "hostname"));
        assert_eq!(err("http://a.-b/"), (9, ErrorKind::LabelStart, "hostname"));
        assert_eq!(err("http://1.2.3/"), (12, ErrorKind::TopLabel, "hostname"));
        assert!(ok("http://1.2.3.4", Policy::Strict).host_number);
        assert!(!ok("http://1.2.3.a4", Policy::Strict).host_number);
        let p = ok("http://1.2.3.999/", Policy::Strict);
        assert!(p.warnings.contains(WarningKind::HostnumberRange));
    }

    #[test]
    fn s3_1_port() {
        assert_eq!(err("http://host:/"), (12, ErrorKind::PortEmpty, "port"));
        assert_eq!(
            err("http://host:1a"),
            (13, ErrorKind::PortNotDigits, "port")
        );
        let e = parse(b"http://h:x", Policy::Strict).unwrap_err();
        assert_eq!(e.to_string(), "port: not digits at byte 9");
    }

    /// The vector pass over a class stops no later than the first byte
    /// outside it, and no earlier unless fewer than 16 bytes are left, for
    /// every class, every byte and every place around the 16-byte steps.
    #[test]
    fn skip_class_stops_at_the_first_byte_outside() {
        let runs = [
            &run::USER,
            &run::UCHAR,
            &run::XCHAR,
            &run::SEARCH,
            &run::ARTICLE,
            &run::FIELDNAME,
            &run::FIELDVALUE,
            &run::FPATH,
            &run::HPATH,
        ];
        for class in runs {
            for b in 0..=255u8 {
                for (len, at) in [
                    (40, 0),
                    (40, 7),
                    (40, 15),
                    (40, 16),
                    (40, 31),
                    (40, 39),
                    (16, 3),
                ] {
                    let mut s = vec![b'a'; len];
                    s[at] = b;
                    for from in [0, 1, at.min(5)] {
                        let stop = skip_class(&s, from, class);
                        let first_out = (from..len).find(|&k| !is(s[k], class.mask)).unwrap_or(len);
                        assert!(
                            stop <= first_out,
                            "{:?} byte {b} at {at} from {from}",
                            class.lo
                        );
                        assert!(
                            stop == first_out || stop + 16 > len || !cfg!(target_arch = "x86_64"),
                            "byte {b} at {at} from {from}: {stop} against {first_out}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn s3_1_login() {
        let p = ok("ftp://u:p@h:21", Policy::Strict);
        assert_eq!((p.user, p.password), (Span::new(6, 7), Span::new(8, 9)));
        assert!(p.warnings.contains(WarningKind::Password));
        // user reading outlives the hostport reading: the DFA dies at '/'
        assert_eq!(err("ftp://a_b/").0, 9);
        // hostport reading wins on a tie
        assert_eq!(err("ftp://h-/"), (8, ErrorKind::LabelEnd, "hostname"));
        // no warnings from the abandoned user reading
        let p = ok("ftp://h/", Policy::Lenient);
        assert!(p.warnings.is_empty());
        let p = ok("ftp://h~x@h/", Policy::Lenient);
        assert!(p.warnings.contains(WarningKind::Tilde));
        assert_eq!(ok("ftp://h/~x@y", Policy::Lenient).host, Span::new(6, 7));
    }

    /// With no `@` left the user reading is not run; its error, read again
    /// when a later error is combined with it, is the one it would give.
    #[test]
    fn s3_1_login_user_error_read_again() {
        // The password reading outlives a host that ends in a hyphen.
        assert_eq!(err("ftp://a-:b"), (10, ErrorKind::Incomplete, "password"));
        // A later error after the hostport reading wins over the user's.
        assert_eq!(err("ftp://h/a;type=q"), (15, ErrorKind::FtpType, "ftptype"));
        // The user reading's error wins when it is the later one.
        assert_eq!(
            err("telnet://h:2x"),
            (13, ErrorKind::Incomplete, "password")
        );
        assert_eq!(
            err("telnet://h:2x/"),
            (13, ErrorKind::Unexpected, "password")
        );
        // An `@` after the authority: the user reading runs, and dies.
        assert_eq!(err("ftp://h-/@"), (8, ErrorKind::LabelEnd, "hostname"));
        // A bad escape kills the user reading where it stands.
        assert_eq!(err("ftp://a%zz:b"), (8, ErrorKind::BadEscape, "escape"));
    }

    #[test]
    fn s3_3_http() {
        assert_eq!(
            err("http://user@host/"),
            (11, ErrorKind::HttpUserinfo, "http")
        );
        assert_eq!(err("http://h/?a?b").0, 11);
        let p = ok("http://h/?a?b/c", Policy::Lenient);
        assert!(p.warnings.contains(WarningKind::SearchQuestion));
        assert!(p.warnings.contains(WarningKind::SearchSlash));
    }

    #[test]
    fn s3_2_ftp() {
        assert_eq!(err("ftp://h/a;type=q"), (15, ErrorKind::FtpType, "ftptype"));
        assert_eq!(err("ftp://h/a;typo=a"), (13, ErrorKind::FtpType, "ftptype"));
        assert_eq!(ok("ftp://h/a;type=I#x", Policy::Strict).body_end, 16);
    }

    #[test]
    fn s3_4_to_3_11_bodies() {
        ok("gopher://h/0%09", Policy::Strict);
        assert_eq!(err("mailto:"), (7, ErrorKind::Incomplete, "encoded822addr"));
        assert_eq!(err("news:a.b~"), (8, ErrorKind::Unexpected, "grouppart"));
        ok("news:a.b~@h", Policy::Lenient);
        assert_eq!(err("nntp://h/g/x"), (11, ErrorKind::Unexpected, "digits"));
        assert_eq!(
            err("telnet://h/x"),
            (11, ErrorKind::Unexpected, "telneturl")
        );
        assert_eq!(err("wais://h/d/t"), (12, ErrorKind::Incomplete, "wtype"));
        assert_eq!(err("file://h"), (8, ErrorKind::Incomplete, "host"));
        assert_eq!(
            err("prospero://h/p;n"),
            (16, ErrorKind::Incomplete, "fieldname")
        );
    }

    #[test]
    fn s3_1_generic_ip_schemepart() {
        let p = ok("x://u:p@h:1/q", Policy::Strict);
        assert_eq!(
            (p.host, p.port, p.slash),
            (Span::new(8, 9), Span::new(10, 11), 11)
        );
        let p = ok("x://h_/q", Policy::Strict);
        assert_eq!(p.host, Span::ABSENT);
        let p = ok("x:h/q", Policy::Strict);
        assert_eq!(p.host, Span::ABSENT);
    }
}
