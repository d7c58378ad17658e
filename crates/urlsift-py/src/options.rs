//! The keyword options of `extract` and `extract_file` and the one place
//! they become the library's settings.

use urlsift::{Fields, HtmlMode, Policy, Scanner};

/// `naked=`, `raw=`, `strict=`, `html=`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Also URLs written without brackets (`--naked`, contract rules 14-17).
    pub naked: bool,
    /// Every byte read as text, no MIME decoding (`--raw`).
    pub raw: bool,
    /// Exactly the RFC 1738 grammar (`--strict`).
    pub strict: bool,
    /// Which HTML parts are read (`--html`, contract rules 18-22).
    pub html: HtmlMode,
}

/// `html=`'s value, as the command's `--html` takes it.
pub fn html_mode(value: &str) -> Result<HtmlMode, String> {
    match value {
        "fallback" => Ok(HtmlMode::Fallback),
        "always" => Ok(HtmlMode::Always),
        "never" => Ok(HtmlMode::Never),
        other => Err(format!(
            "html={other:?}: expected 'fallback', 'always' or 'never'"
        )),
    }
}

impl Options {
    /// The scanner settings for these options: the command's for the same
    /// flags, with every message field (`--json`'s default), and each
    /// match keeping its parse (a record's `fragment` and `warnings`, and
    /// the Spark job's columns of them, read it rather than parse again).
    pub fn scanner(self) -> Scanner {
        let policy = if self.strict {
            Policy::Strict
        } else {
            Policy::Lenient
        };
        Scanner::new()
            .policy(policy)
            .mime(!self.raw)
            .naked(self.naked)
            .html(self.html)
            .fields(Fields::ALL)
            .keep_parse(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_to_settings() {
        let lenient = Options::default().scanner();
        assert_eq!(lenient.get_policy(), Policy::Lenient);
        assert!(lenient.get_mime() && !lenient.get_naked());
        assert_eq!(lenient.get_html(), HtmlMode::Fallback);
        let all = Options {
            naked: true,
            raw: true,
            strict: true,
            html: HtmlMode::Never,
        }
        .scanner();
        assert_eq!(all.get_policy(), Policy::Strict);
        assert!(!all.get_mime() && all.get_naked());
        assert_eq!(all.get_html(), HtmlMode::Never);
        assert_eq!(html_mode("always"), Ok(HtmlMode::Always));
        assert!(html_mode("sometimes").unwrap_err().contains("fallback"));
    }
}
