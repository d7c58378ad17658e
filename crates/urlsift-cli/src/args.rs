//! Command-line arguments of the `urlsift` binary: the literal flags
//! ([`Args`], parsed by clap) and the validated [`Config`] the search
//! and printer modules are built from.

use std::ffi::OsString;

use clap::{Parser, ValueEnum};

use urlsift::Policy;
use urlsift::{Form, HyphenChoice, Limits};

const EXAMPLES: &str = "\
EXAMPLES:
  urlsift mail.mbox                   URLs in a mailbox, one per line
  urlsift -n --column ~/News          with line and column, a tree walked
  urlsift -c archive/                 number of URLs per file
  urlsift -l --scheme ftp,gopher .    files holding ftp or gopher URLs
  urlsift --json --message-id a.mbox  one JSON object per URL
  urlsift -u < digest.txt             each URL once (normalized)
  urlsift --invalid msg.eml           the rejected <...> candidates, why
  urlsift --naked README              also URLs without <...> around them
  urlsift --parse 'http://a.b/c?d'    parse URLs given as arguments
  zcat x.gz | urlsift -               read stdin

Exit status: 0 if something was found, 1 if not, 2 on an error.";

/// The `--form` values: `<URL:scheme:...>`, `<scheme:...>`, or naked
/// (with `--naked`). (Plain comments on the variants keep `--help` to one
/// line per option.)
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormArg {
    Wrapped,
    Bracketed,
    Naked,
}

/// The `--hyphen` values: the hyphen-kept reading (the contract's
/// choice), the hyphen-dropped one when both are valid, or both.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HyphenArg {
    Keep,
    Drop,
    Both,
}

/// The literal flags.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "urlsift",
    version,
    about = "Print the RFC 1738 URLs written in mail and news (<URL:...> and <scheme:...>)",
    after_help = EXAMPLES
)]
pub struct Args {
    /// Print the path before each URL (urlsift -H one.txt)
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,
    /// Never print paths (urlsift --no-filename dir/)
    #[arg(long, overrides_with = "with_filename")]
    pub no_filename: bool,
    /// Print the line of the opening '<' (urlsift -n a.mbox)
    #[arg(short = 'n', long)]
    pub line_number: bool,
    /// Print the byte column of the opening '<' (urlsift --column a.txt)
    #[arg(long)]
    pub column: bool,
    /// Print the number of URLs per input (urlsift -c dir/)
    #[arg(short = 'c', long, conflicts_with_all = ["files_with_matches", "json", "parse"])]
    pub count: bool,
    /// Print only the paths of inputs with URLs (urlsift -l dir/)
    #[arg(short = 'l', long, conflicts_with_all = ["json", "parse"])]
    pub files_with_matches: bool,
    /// One JSON object per line and URL (urlsift --json a.mbox)
    #[arg(long)]
    pub json: bool,
    /// Only these schemes, comma-separated (urlsift --scheme http,ftp a.txt)
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub scheme: Vec<String>,
    /// Only URLs written in this form (urlsift --form wrapped a.txt)
    #[arg(long, value_enum, value_name = "FORM")]
    pub form: Option<FormArg>,
    /// Each normalized URL once, at its first occurrence (urlsift -u dir/)
    #[arg(short = 'u', long)]
    pub unique: bool,
    /// Print rejected candidates and why instead of URLs (urlsift --invalid a.txt)
    #[arg(long, conflicts_with = "parse")]
    pub invalid: bool,
    /// Exactly the RFC 1738 grammar, no lenient deviations (urlsift --strict a.txt)
    #[arg(long)]
    pub strict: bool,
    /// Also URLs without <...>, ends guessed by rule (urlsift --naked README)
    #[arg(long)]
    pub naked: bool,
    /// Reading to report after a line break that follows '-' (urlsift --hyphen both a.txt)
    #[arg(long, value_enum, value_name = "HOW", default_value = "keep")]
    pub hyphen: HyphenArg,
    /// Number of search threads, default: available cores (urlsift -j2 big.mbox)
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print files, bytes, URLs, time and speed on stderr (urlsift --stats dir/)
    #[arg(long)]
    pub stats: bool,
    /// Print the Message-ID of each URL's message (urlsift --message-id a.mbox)
    #[arg(long)]
    pub message_id: bool,
    /// Most bytes of one <...> candidate (urlsift --max-bytes 4096 a.txt)
    #[arg(long, value_name = "N")]
    pub max_bytes: Option<usize>,
    /// Most line breaks in one <...> candidate (urlsift --max-lines 10 a.txt)
    #[arg(long, value_name = "N")]
    pub max_lines: Option<usize>,
    /// Parse the URL arguments (or stdin lines) and print JSON (urlsift --parse 'ftp://a.b/c')
    #[arg(long)]
    pub parse: bool,
    /// Files or directories to search ('-' or none: stdin); with --parse, URLs
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,
}

/// What is printed for the matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One URL per line (`grep -o`).
    Plain,
    /// Number of URLs per input.
    Count,
    /// Paths of inputs with URLs.
    FilesWithMatches,
    /// One JSON object per URL.
    Json,
}

/// Validated settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Output mode.
    pub mode: Mode,
    /// `Some(true)`: -H, `Some(false)`: --no-filename, `None`: automatic.
    pub with_filename: Option<bool>,
    /// Print line numbers.
    pub line_number: bool,
    /// Print columns.
    pub column: bool,
    /// Lower-case scheme names to keep (empty: all).
    pub schemes: Vec<String>,
    /// Form to keep.
    pub form: Option<Form>,
    /// First occurrence per normalized URL only.
    pub unique: bool,
    /// Print rejected candidates instead of URLs.
    pub invalid: bool,
    /// Also report naked URLs (contract rules 14 to 17).
    pub naked: bool,
    /// Validation policy.
    pub policy: Policy,
    /// Hyphen reading choice.
    pub hyphen: HyphenChoice,
    /// Search threads (>= 1).
    pub threads: usize,
    /// Print statistics.
    pub stats: bool,
    /// Print Message-IDs (plain output).
    pub message_id: bool,
    /// Candidate limits.
    pub limits: Limits,
    /// `--parse` mode.
    pub parse: bool,
    /// Paths (or URLs with `--parse`).
    pub paths: Vec<OsString>,
}

impl Config {
    /// Whether the Message-ID of each match must be computed.
    pub fn needs_message_id(&self) -> bool {
        self.message_id || self.mode == Mode::Json
    }
}

impl Args {
    /// Checks the flags and builds the [`Config`].
    pub fn into_config(self) -> Result<Config, String> {
        let mode = if self.count {
            Mode::Count
        } else if self.files_with_matches {
            Mode::FilesWithMatches
        } else if self.json {
            Mode::Json
        } else {
            Mode::Plain
        };
        let threads = match self.threads {
            Some(0) => return Err("--threads must be at least 1".into()),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let mut schemes = Vec::new();
        for s in &self.scheme {
            let s = s.trim();
            if s.is_empty() {
                continue;
            }
            if urlsift::Scheme::name_len(s.as_bytes()) != s.len() {
                return Err(format!("--scheme: {s:?} is not a scheme name"));
            }
            schemes.push(s.to_ascii_lowercase());
        }
        let defaults = Limits::default();
        let limits = Limits {
            max_bytes: self.max_bytes.unwrap_or(defaults.max_bytes),
            max_lines: self.max_lines.unwrap_or(defaults.max_lines),
        };
        if limits.max_bytes < 8 {
            return Err("--max-bytes must be at least 8".into());
        }
        if self.form == Some(FormArg::Naked) && !self.naked {
            return Err("--form naked needs --naked".into());
        }
        Ok(Config {
            mode,
            with_filename: if self.with_filename {
                Some(true)
            } else if self.no_filename {
                Some(false)
            } else {
                None
            },
            line_number: self.line_number,
            column: self.column,
            schemes,
            form: self.form.map(|f| match f {
                FormArg::Wrapped => Form::Wrapped,
                FormArg::Bracketed => Form::Bracketed,
                FormArg::Naked => Form::Naked,
            }),
            naked: self.naked,
            unique: self.unique,
            invalid: self.invalid,
            policy: if self.strict {
                Policy::Strict
            } else {
                Policy::Lenient
            },
            hyphen: match self.hyphen {
                HyphenArg::Keep => HyphenChoice::Keep,
                HyphenArg::Drop => HyphenChoice::Drop,
                HyphenArg::Both => HyphenChoice::Both,
            },
            threads,
            stats: self.stats,
            message_id: self.message_id,
            limits,
            parse: self.parse,
            paths: self.paths,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(args: &[&str]) -> Config {
        let mut v = vec!["urlsift"];
        v.extend_from_slice(args);
        Args::try_parse_from(v).unwrap().into_config().unwrap()
    }

    fn fails(args: &[&str]) -> bool {
        let mut v = vec!["urlsift"];
        v.extend_from_slice(args);
        match Args::try_parse_from(v) {
            Err(_) => true,
            Ok(a) => a.into_config().is_err(),
        }
    }

    #[test]
    fn defaults() {
        let c = cfg(&[]);
        assert_eq!(c.mode, Mode::Plain);
        assert_eq!(c.with_filename, None);
        assert_eq!(c.policy, Policy::Lenient);
        assert_eq!(c.hyphen, HyphenChoice::Keep);
        assert_eq!(c.limits, Limits::default());
        assert!(c.threads >= 1);
        assert!(c.paths.is_empty());
        assert!(!c.needs_message_id());
    }

    #[test]
    fn filename_flags() {
        assert_eq!(cfg(&["-H"]).with_filename, Some(true));
        assert_eq!(cfg(&["--with-filename"]).with_filename, Some(true));
        assert_eq!(cfg(&["--no-filename"]).with_filename, Some(false));
        assert_eq!(cfg(&["-H", "--no-filename"]).with_filename, Some(false));
        assert_eq!(cfg(&["--no-filename", "-H"]).with_filename, Some(true));
    }

    #[test]
    fn line_and_column() {
        let c = cfg(&["-n", "--column"]);
        assert!(c.line_number && c.column);
        assert!(cfg(&["--line-number"]).line_number);
    }

    #[test]
    fn modes() {
        assert_eq!(cfg(&["-c"]).mode, Mode::Count);
        assert_eq!(cfg(&["--count"]).mode, Mode::Count);
        assert_eq!(cfg(&["-l"]).mode, Mode::FilesWithMatches);
        assert_eq!(cfg(&["--files-with-matches"]).mode, Mode::FilesWithMatches);
        assert_eq!(cfg(&["--json"]).mode, Mode::Json);
        assert!(cfg(&["--json"]).needs_message_id());
        assert!(fails(&["-c", "-l"]));
        assert!(fails(&["-c", "--json"]));
        assert!(fails(&["-l", "--json"]));
    }

    #[test]
    fn scheme_list() {
        assert_eq!(
            cfg(&["--scheme", "HTTP,ftp"]).schemes,
            vec!["http".to_string(), "ftp".to_string()]
        );
        assert_eq!(cfg(&["--scheme", "x-y.z+1"]).schemes, ["x-y.z+1"]);
        assert!(fails(&["--scheme", "ht tp"]));
    }

    #[test]
    fn form() {
        assert_eq!(cfg(&["--form", "wrapped"]).form, Some(Form::Wrapped));
        assert_eq!(cfg(&["--form", "bracketed"]).form, Some(Form::Bracketed));
        assert!(fails(&["--form", "naked"]));
        assert_eq!(cfg(&["--naked", "--form", "naked"]).form, Some(Form::Naked));
        assert!(cfg(&["--naked"]).naked);
        assert!(!cfg(&[]).naked);
    }

    #[test]
    fn unique_invalid_strict() {
        assert!(cfg(&["-u"]).unique);
        assert!(cfg(&["--unique"]).unique);
        assert!(cfg(&["--invalid"]).invalid);
        assert_eq!(cfg(&["--strict"]).policy, Policy::Strict);
    }

    #[test]
    fn hyphen() {
        assert_eq!(cfg(&["--hyphen", "drop"]).hyphen, HyphenChoice::Drop);
        assert_eq!(cfg(&["--hyphen", "both"]).hyphen, HyphenChoice::Both);
        assert_eq!(cfg(&["--hyphen", "keep"]).hyphen, HyphenChoice::Keep);
        assert!(fails(&["--hyphen", "maybe"]));
    }

    #[test]
    fn threads() {
        assert_eq!(cfg(&["-j", "3"]).threads, 3);
        assert_eq!(cfg(&["-j2"]).threads, 2);
        assert_eq!(cfg(&["--threads", "1"]).threads, 1);
        assert!(fails(&["-j0"]));
        assert!(fails(&["-j", "x"]));
    }

    #[test]
    fn stats_and_message_id() {
        assert!(cfg(&["--stats"]).stats);
        let c = cfg(&["--message-id"]);
        assert!(c.message_id && c.needs_message_id());
    }

    #[test]
    fn limits() {
        let c = cfg(&["--max-bytes", "4096", "--max-lines", "3"]);
        assert_eq!(
            c.limits,
            Limits {
                max_bytes: 4096,
                max_lines: 3
            }
        );
        assert!(fails(&["--max-bytes", "2"]));
        assert!(fails(&["--max-lines", "-1"]));
    }

    #[test]
    fn parse_mode() {
        let c = cfg(&["--parse", "http://a.b/", "ftp://c.d/"]);
        assert!(c.parse);
        assert_eq!(c.paths.len(), 2);
        assert!(fails(&["--parse", "--invalid"]));
        assert!(fails(&["--parse", "-c"]));
    }

    #[test]
    fn paths() {
        let c = cfg(&["a", "-", "b/c"]);
        assert_eq!(c.paths, ["a", "-", "b/c"]);
    }

    #[test]
    fn help_and_version() {
        let e = Args::try_parse_from(["urlsift", "--help"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp);
        assert!(e.to_string().contains("EXAMPLES"));
        let e = Args::try_parse_from(["urlsift", "--version"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayVersion);
    }
}
