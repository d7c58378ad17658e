//! The keyword options of `extract` and `extract_file` and the one place
//! they become the library's settings.

use urlsift::{Policy, Scanner};

/// `naked=`, `raw=`, `strict=`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Also URLs written without brackets (issue 15).
    pub naked: bool,
    /// Read MIME parts as written, without decoding them (issue 14).
    pub raw: bool,
    /// Exactly the RFC 1738 grammar (`--strict`).
    pub strict: bool,
}

/// An option the library does not offer yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported(pub &'static str);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}=True is not available yet: this build of the urlsift library has no such option",
            self.0
        )
    }
}

impl Options {
    /// The scanner settings for these options.
    pub fn scanner(self) -> Result<Scanner, Unsupported> {
        if self.naked {
            return Err(Unsupported("naked"));
        }
        let policy = if self.strict {
            Policy::Strict
        } else {
            Policy::Lenient
        };
        Ok(Scanner::new().policy(policy).mime(!self.raw))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_to_settings() {
        let lenient = Options::default().scanner().unwrap();
        assert_eq!(lenient.get_policy(), Policy::Lenient);
        let strict = Options {
            strict: true,
            ..Options::default()
        };
        assert_eq!(strict.scanner().unwrap().get_policy(), Policy::Strict);
        let naked = Options {
            naked: true,
            ..Options::default()
        };
        assert_eq!(naked.scanner().unwrap_err(), Unsupported("naked"));
        assert!(Unsupported("raw").to_string().contains("raw=True"));
    }
}
