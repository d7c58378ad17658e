//! Colours and terminal hyperlinks: SGR sequences around paths, line
//! numbers and URLs (ripgrep's default colours: magenta paths, green
//! numbers, bold red matches), and OSC 8 hyperlinks around URLs.
//!
//! `--color auto` colours only when standard output is a terminal, `TERM`
//! is not `dumb` and `NO_COLOR` is unset or empty (no-color.org).
//! Hyperlinks (`--hyperlink`) follow the same terminal rule but not
//! `NO_COLOR` (a link is not a colour): on a terminal with `auto`, always
//! with `always`, never with `never`. Only a URL the scanner validated is
//! ever a link target, never a path or the text around it, and its bytes
//! outside `!`..`~` are percent-encoded, so no control byte (ESC, BEL)
//! from the input can end the sequence.

use crate::args::ColorChoice;

/// SGR for paths.
const PATH: &[u8] = b"\x1b[35m";
/// SGR for line and column numbers.
const NUMBER: &[u8] = b"\x1b[32m";
/// SGR for a URL (or a rejected candidate with `--invalid`).
const MATCH: &[u8] = b"\x1b[1;31m";
/// SGR reset.
const RESET: &[u8] = b"\x1b[0m";

/// What the plain output decorates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Colour paths, numbers and URLs.
    pub color: bool,
    /// Wrap URLs in OSC 8 hyperlinks.
    pub hyperlink: bool,
}

/// What a piece of output is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paint {
    /// A path.
    Path,
    /// A line or column number.
    Number,
    /// A URL or a rejected candidate.
    Match,
}

impl Style {
    /// The style for `--color choice` and `--hyperlink`, given whether
    /// standard output is a terminal and the `NO_COLOR` and `TERM`
    /// variables.
    pub fn new(
        choice: ColorChoice,
        hyperlink: bool,
        terminal: bool,
        no_color: Option<&str>,
        term: Option<&str>,
    ) -> Style {
        let tty = terminal && term != Some("dumb");
        let no_color = no_color.is_some_and(|v| !v.is_empty());
        let (color, links) = match choice {
            ColorChoice::Always => (true, true),
            ColorChoice::Never => (false, false),
            ColorChoice::Auto => (tty && !no_color, tty),
        };
        Style {
            color,
            hyperlink: hyperlink && links,
        }
    }

    /// The style for this process: its standard output and environment.
    pub fn detect(choice: ColorChoice, hyperlink: bool) -> Style {
        use std::io::IsTerminal;
        let var = |k| std::env::var(k).ok();
        Style::new(
            choice,
            hyperlink,
            std::io::stdout().is_terminal(),
            var("NO_COLOR").as_deref(),
            var("TERM").as_deref(),
        )
    }

    /// Starts colouring `what` (nothing when colour is off).
    pub fn open(&self, out: &mut Vec<u8>, what: Paint) {
        if self.color {
            out.extend_from_slice(match what {
                Paint::Path => PATH,
                Paint::Number => NUMBER,
                Paint::Match => MATCH,
            });
        }
    }

    /// Ends what [`Style::open`] started.
    pub fn close(&self, out: &mut Vec<u8>) {
        if self.color {
            out.extend_from_slice(RESET);
        }
    }

    /// Writes `bytes` (already safe to print) coloured as `what`.
    pub fn paint(&self, out: &mut Vec<u8>, what: Paint, bytes: &[u8]) {
        self.open(out, what);
        out.extend_from_slice(bytes);
        self.close(out);
    }

    /// Writes a file name, escaped ([`escape_path`](super::escape_path)),
    /// coloured as a path.
    pub fn path(&self, out: &mut Vec<u8>, path: &[u8]) {
        self.open(out, Paint::Path);
        super::escape_path(out, path);
        self.close(out);
    }

    /// Starts a hyperlink to `url` (nothing when links are off).
    pub fn link_open(&self, out: &mut Vec<u8>, url: &[u8]) {
        if self.hyperlink {
            out.extend_from_slice(b"\x1b]8;;");
            link_target(out, url);
            out.extend_from_slice(b"\x1b\\");
        }
    }

    /// Ends what [`Style::link_open`] started.
    pub fn link_close(&self, out: &mut Vec<u8>) {
        if self.hyperlink {
            out.extend_from_slice(b"\x1b]8;;\x1b\\");
        }
    }

    /// Writes a validated URL: coloured, and a link to itself.
    pub fn url(&self, out: &mut Vec<u8>, url: &[u8]) {
        self.link_open(out, url);
        self.paint(out, Paint::Match, url);
        self.link_close(out);
    }

    /// Whether anything is decorated.
    pub fn any(&self) -> bool {
        self.color || self.hyperlink
    }
}

/// Writes `url` as an OSC 8 target: bytes outside `!`..`~` as `%XX`.
fn link_target(out: &mut Vec<u8>, url: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for &b in url {
        if (0x21..=0x7e).contains(&b) {
            out.push(b);
        } else {
            out.extend_from_slice(&[b'%', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_only_on_a_terminal_without_no_color() {
        let s = |c, tty, nc, term| Style::new(c, true, tty, nc, term);
        assert_eq!(s(ColorChoice::Auto, false, None, None), Style::default());
        let on = s(ColorChoice::Auto, true, None, Some("xterm"));
        assert!(on.color && on.hyperlink);
        // NO_COLOR turns colours off, not links; an empty one is unset.
        let nc = s(ColorChoice::Auto, true, Some("1"), None);
        assert!(!nc.color && nc.hyperlink);
        assert!(s(ColorChoice::Auto, true, Some(""), None).color);
        assert_eq!(
            s(ColorChoice::Auto, true, None, Some("dumb")),
            Style::default()
        );
        let always = s(ColorChoice::Always, false, Some("1"), None);
        assert!(always.color && always.hyperlink);
        assert_eq!(s(ColorChoice::Never, true, None, None), Style::default());
        // Links only when asked for.
        assert!(!Style::new(ColorChoice::Always, false, true, None, None).hyperlink);
    }

    #[test]
    fn url_coloured_and_linked_with_a_safe_target() {
        let st = Style {
            color: true,
            hyperlink: true,
        };
        let mut out = Vec::new();
        st.url(&mut out, b"http://a.b/\x1b]x y");
        assert_eq!(
            out,
            b"\x1b]8;;http://a.b/%1B]x%20y\x1b\\\x1b[1;31mhttp://a.b/\x1b]x y\x1b[0m\x1b]8;;\x1b\\"
        );
        let mut out = Vec::new();
        Style::default().url(&mut out, b"http://a.b/");
        assert_eq!(out, b"http://a.b/");
    }
}
