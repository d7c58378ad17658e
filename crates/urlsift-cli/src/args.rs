//! Command-line arguments of the `urlsift` binary: the literal flags
//! ([`Args`], parsed by clap) and the validated [`Config`] the search
//! and printer modules are built from.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

use crate::globs::Globs;
use crate::input::ArchiveOpts;
use urlsift::{Fields, Policy, Timestamp};
use urlsift::{Form, HtmlMode, HyphenChoice, Limits};

const EXAMPLES: &str = "\
EXAMPLES:
  urlsift mail.mbox                   URLs in a mailbox, one per line
  urlsift -n --column ~/News          with line and column, a tree walked
  urlsift -c archive/                 number of URLs per file
  urlsift -l --scheme ftp,gopher .    files holding ftp or gopher URLs
  urlsift --json a.mbox               one JSON object per URL, with its message's date, groups, subject, id
  urlsift --since 1993-01-01 --until 1994-01-01 --fields date,newsgroups ~/News   the URLs of 1993, dated
  urlsift -u < digest.txt             each URL once (normalized)
  urlsift --invalid msg.eml           the rejected <...> candidates, why
  urlsift --unwrap -u msg.eml         where Safe Links, Proofpoint... links go, each once
  urlsift --naked README              also URLs without <...> around them
  urlsift --parse 'http://a.b/c?d'    parse URLs given as arguments
  urlsift news.zip spool.tar.xz       members of archives, as a.zip{dir/m}
  find . -print0 | urlsift --files0-from - -l -0   a path list in, NUL-ended paths out
  zcat x.gz | urlsift -               read stdin
  urlsift -g '*.mbox' ~/Mail          only the .mbox files of a tree
  urlsift -m 5 huge.mbox              the first 5 URLs of each input
  urlsift --tally ~/News              each URL, how often, where first
  urlsift -C 1 -n msg.eml             each URL's lines, one line around
  urlsift --hyperlink -C 1 a.txt      clickable URLs in their lines

Exit status: 0 if something was found, 1 if not, 2 on an error.";

/// Most search threads: `-j` above it is clamped (each thread keeps a few
/// piece buffers in flight; thousands of them only cost memory and
/// start-up time).
pub const MAX_THREADS: usize = 64;

/// Most bytes of one candidate: `--max-bytes` above it is clamped. A
/// piece of input is read with enough lookahead to finish the candidates
/// that start in it, so this bounds the memory a candidate may cost
/// whatever the flag says (no URL in real text comes near a megabyte).
pub const MAX_CANDIDATE_BYTES: usize = 1 << 20;

/// Most context lines on either side: `-A`, `-B` and `-C` above it are
/// clamped. Up to `-B` lines (each up to 64 KiB) are kept while the text
/// after them is read, so this bounds that memory (64 MiB) whatever the
/// flags say.
pub const MAX_CONTEXT: usize = 1024;

/// The `--form` values: `<URL:scheme:...>`, `<scheme:...>`, naked
/// (with `--naked`), or the `href` of an HTML link. (Plain comments on the variants keep `--help` to one
/// line per option.)
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormArg {
    Wrapped,
    Bracketed,
    Naked,
    Href,
}

/// The `--html` values: HTML parts that are no alternative to plain text
/// (the default), every HTML part, or none.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HtmlArg {
    Fallback,
    Always,
    Never,
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

/// The `--generate` values: a man page (roff) or a shell's completion
/// script.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenerateArg {
    Man,
    CompleteBash,
    CompleteZsh,
    CompleteFish,
    CompletePowershell,
}

/// The `--tally` orders: most frequent first, or as first seen.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TallyOrder {
    Count,
    First,
}

/// The `--color` values.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
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
    /// Read every byte as text: no MIME decoding, HTML and attachments read too (urlsift --raw a.mbox)
    #[arg(long)]
    pub raw: bool,
    /// Which HTML parts of mail to read: fallback (not beside plain text), always, never (urlsift --html never a.mbox)
    #[arg(long, value_enum, value_name = "WHICH", default_value = "fallback")]
    pub html: HtmlArg,

    /// Also URLs without <...>, ends guessed by rule (urlsift --naked README)
    #[arg(long)]
    pub naked: bool,
    /// Reading to report after a line break that follows '-' (urlsift --hyphen both a.txt)
    #[arg(long, value_enum, value_name = "HOW", default_value = "keep")]
    pub hyphen: HyphenArg,
    /// Number of search threads, default: available cores, at most 64 (urlsift -j2 big.mbox)
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,
    /// Print files, bytes, URLs, time and speed on stderr (urlsift --stats dir/)
    #[arg(long)]
    pub stats: bool,
    /// Print the Message-ID of each URL's message: --fields message-id, added to the others (urlsift --message-id a.mbox)
    #[arg(long)]
    pub message_id: bool,
    /// Message fields computed and printed for each URL, of date,newsgroups,subject,message-id,list-id (the List-Id: of a mailing list), or none; default: the first four with --json (list-id, asked for, adds "list_id"), none otherwise (no cost); in plain output each goes before the URL with a TAB, '-' when unknown; --tally with date adds each URL's first and last date (urlsift --fields date,subject a.mbox)
    #[arg(long, value_name = "LIST")]
    pub fields: Option<String>,
    /// Only URLs of messages dated at or after DATE (YYYY, YYYY-MM, YYYY-MM-DD or YYYY-MM-DDThh:mm[:ss], UTC unless +hh:mm); URLs with no known date are left out (urlsift --since 1993-01 a.mbox)
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Only URLs of messages dated before DATE, not at it (as --since); URLs with no known date are left out (urlsift --since 1993 --until 1994 a.mbox)
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// Most bytes of one <...> candidate, 8 to 1048576 (urlsift --max-bytes 4096 a.txt)
    #[arg(long, value_name = "N")]
    pub max_bytes: Option<usize>,
    /// Most line breaks in one <...> candidate (urlsift --max-lines 10 a.txt)
    #[arg(long, value_name = "N")]
    pub max_lines: Option<usize>,
    /// Write each output line at once, even into a pipe (urlsift --line-buffered - | ...)
    #[arg(long)]
    pub line_buffered: bool,
    /// Bytes per piece of input (tests move every boundary with tiny ones)
    #[arg(long, value_name = "N", hide = true, value_parser = clap::value_parser!(u32).range(16..=1 << 30))]
    pub piece_size: Option<u32>,
    /// Parse the URL arguments (or stdin lines) and print JSON (urlsift --parse 'ftp://a.b/c')
    #[arg(long)]
    pub parse: bool,
    /// Read each member of zip and tar archives, to this depth of nesting (urlsift --archive-depth 1 a.zip)
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub archive_depth: usize,
    /// Search archives as their bytes, members not opened (urlsift --no-archive a.tar.gz)
    #[arg(long)]
    pub no_archive: bool,
    /// Search compressed files and archives as their bytes (urlsift --no-decompress a.gz)
    #[arg(long)]
    pub no_decompress: bool,
    /// Most bytes one archive member may decompress to, e.g. 512M (urlsift --max-member-size 1G a.zip)
    #[arg(long, value_name = "SIZE")]
    pub max_member_size: Option<String>,
    /// Most bytes one archive may decompress to, e.g. 8G (urlsift --max-archive-size 100G a.tgz)
    #[arg(long, value_name = "SIZE")]
    pub max_archive_size: Option<String>,
    /// Search the paths listed in FILE, one a line ('-': stdin) (urlsift --files-from list.txt)
    #[arg(long, value_name = "FILE", conflicts_with_all = ["files0_from", "parse"])]
    pub files_from: Option<OsString>,
    /// Search the paths listed in FILE, each ended by NUL (find . -print0 | urlsift --files0-from -)
    #[arg(long, value_name = "FILE", conflicts_with = "parse")]
    pub files0_from: Option<OsString>,
    /// End each printed path with NUL instead of ':' or newline (urlsift -l -0 dir/)
    #[arg(short = '0', long)]
    pub null: bool,
    /// Print a man page or a shell completion script and exit (urlsift --generate man)
    #[arg(long, value_enum, value_name = "KIND", exclusive = true)]
    pub generate: Option<GenerateArg>,
    /// At most N URLs per input (urlsift -m 5 huge.mbox)
    #[arg(short = 'm', long, value_name = "N")]
    pub max_count: Option<u64>,
    /// Search only walked files matching GLOB, '!' to exclude; later wins (urlsift -g '*.mbox' -g '!old/' ~/Mail)
    #[arg(short = 'g', long, value_name = "GLOB")]
    pub glob: Vec<String>,
    /// As --glob, ignoring case (urlsift --iglob '*.EML' dir/)
    #[arg(long, value_name = "GLOB")]
    pub iglob: Vec<String>,
    /// Each normalized URL with its count and first place, most frequent first or =first as first seen; --fields date adds its first and last date (urlsift --tally --fields date dir/)
    #[arg(
        long,
        value_enum,
        value_name = "ORDER",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "count",
        conflicts_with_all = ["count", "files_with_matches", "parse", "unique"]
    )]
    pub tally: Option<TallyOrder>,
    /// Write the derivatives (timeline, domains, groups as CSV, a graph as GEXF and GraphML) and a report page, DIR/index.html, instead of printing URLs (urlsift --report out/ ~/News)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["count", "files_with_matches", "parse", "unique", "tally", "json", "invalid"])]
    pub report: Option<PathBuf>,
    /// Print each URL's lines and N lines after them, N at most 1024 (urlsift -A 2 a.txt)
    #[arg(short = 'A', long, value_name = "N", conflicts_with_all = ["count", "files_with_matches", "parse", "unique", "tally"])]
    pub after_context: Option<usize>,
    /// Print each URL's lines and N lines before them, N at most 1024 (urlsift -B 2 a.txt)
    #[arg(short = 'B', long, value_name = "N", conflicts_with_all = ["count", "files_with_matches", "parse", "unique", "tally"])]
    pub before_context: Option<usize>,
    /// Print each URL's lines and N lines around them, N at most 1024 (urlsift -C 1 a.txt)
    #[arg(short = 'C', long, value_name = "N", conflicts_with_all = ["count", "files_with_matches", "parse", "unique", "tally"])]
    pub context: Option<usize>,
    /// Colour paths, line numbers and URLs: auto (a terminal, no NO_COLOR), always, never (urlsift --color always a.txt | less -R)
    #[arg(
        long,
        visible_alias = "colour",
        value_enum,
        value_name = "WHEN",
        default_value = "auto"
    )]
    pub color: ColorChoice,
    /// Make each URL a hyperlink (OSC 8) on a terminal, or with --color always (urlsift --hyperlink a.txt)
    #[arg(long)]
    pub hyperlink: bool,
    /// Print where wrapped links go (Safe Links, Proofpoint, ...: docs/unwrap.md); --json adds target and via (urlsift --unwrap a.eml)
    #[arg(long, conflicts_with = "parse")]
    pub unwrap: bool,
    /// Choose URLs in a full-screen list, then open, print or copy them; keys on '?' (urlsift --pick msg.eml)
    #[arg(long, conflicts_with_all = ["count", "files_with_matches", "json", "tally", "invalid", "parse", "after_context", "before_context", "context", "max_count", "report"])]
    pub pick: bool,
    /// With --pick: print the chosen URLs, one a line, instead of opening them (urlsift --pick --print msg | xargs ...)
    #[arg(long, requires = "pick")]
    pub print: bool,
    /// With --pick: open with CMD, split into words once, {} the URL as one argument, no shell (urlsift --pick --run 'chromium {}' msg.eml)
    #[arg(long, value_name = "CMD", requires = "pick", conflicts_with = "print")]
    pub run: Option<String>,
    /// With --pick --run: run CMD with sh -c, {} the URL quoted for the shell
    #[arg(long, requires = "run")]
    pub run_shell: bool,
    /// With --pick: run the opener on the terminal and come back when it ends (w3m, lynx)
    #[arg(long, requires = "pick", conflicts_with = "print")]
    pub wait: bool,
    /// With --pick: leave out naked URLs (the picker reads them by default)
    #[arg(long, requires = "pick")]
    pub no_naked: bool,
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
    /// Each distinct URL with its count and first place (`--tally`).
    Tally(TallyOrder),
    /// Paths of inputs with URLs.
    FilesWithMatches,
    /// One JSON object per URL.
    Json,
    /// The derivatives and the report page (`--report`).
    Report,
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
    /// The message fields printed (plain output; JSON has them all).
    pub fields: Fields,
    /// The message fields computed: those printed, and the date for
    /// `--since`, `--until` and `--tally`.
    pub compute: Fields,
    /// `--since`: only URLs of messages dated at or after it.
    pub since: Option<Timestamp>,
    /// `--until`: only URLs of messages dated before it.
    pub until: Option<Timestamp>,
    /// Candidate limits.
    pub limits: Limits,
    /// `--raw`: no MIME reading (contract rules 10-13 off).
    pub raw: bool,
    /// Which HTML parts are read (contract rules 18-22).
    pub html: HtmlMode,
    /// `--parse` mode.
    pub parse: bool,
    /// The hidden `--piece-size`: bytes per piece instead of the default.
    pub piece_size: Option<usize>,
    /// Flush the output after each line (`--line-buffered`; always on a
    /// terminal).
    pub line_buffered: bool,
    /// Paths (or URLs with `--parse`).
    pub paths: Vec<OsString>,
    /// A path list to search after `paths`.
    pub list: Option<PathListArg>,
    /// End printed paths with NUL (`-0`).
    pub null: bool,
    /// How archives and compressed files are read.
    pub archive: ArchiveOpts,
    /// At most this many records per input (`-m`).
    pub max_count: Option<u64>,
    /// `--glob` and `--iglob`: the walked files searched.
    pub globs: Globs,
    /// Lines of context (`-A`, `-B`, `-C`), when asked for.
    pub context: Option<Context>,
    /// `--color`.
    pub color: ColorChoice,
    /// `--hyperlink`.
    pub hyperlink: bool,
    /// `--json` (with `--tally` too).
    pub json: bool,
    /// `--report`: the directory written.
    pub report: Option<PathBuf>,
    /// `--unwrap`: wrappers' targets printed, and in JSON beside the URL.
    pub unwrap: bool,
    /// `--pick` and how the chosen URLs are acted on.
    pub pick: Option<PickOpts>,
}

/// What `--pick` does with the chosen URLs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PickOpts {
    /// `--print`: write them to stdout and exit.
    pub print: bool,
    /// `--run CMD`: the opener's command line (`{}` the URL).
    pub run: Option<String>,
    /// `--run-shell`: `--run`'s command goes through `sh -c`.
    pub shell: bool,
    /// `--wait`: the opener runs on the terminal, waited for.
    pub wait: bool,
}

/// `--files-from` or `--files0-from`: the list's path and what ends each
/// path in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathListArg {
    /// The list's path (`-`: stdin).
    pub path: OsString,
    /// `b'\n'` or NUL.
    pub end: u8,
}

/// Reads a size: a number with an optional binary suffix K, M, G or T
/// (`512M`, `8G`); at least 1.
pub fn parse_size(flag: &str, s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t.strip_suffix(['b', 'B']).unwrap_or(t);
    let (digits, shift) = match t.as_bytes().last() {
        Some(b'k' | b'K') => (&t[..t.len() - 1], 10),
        Some(b'm' | b'M') => (&t[..t.len() - 1], 20),
        Some(b'g' | b'G') => (&t[..t.len() - 1], 30),
        Some(b't' | b'T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let bad = || format!("{flag}: {s:?} is not a size (a number, optionally with K, M, G or T)");
    let n: u64 = digits.parse().map_err(|_| bad())?;
    let n = n
        .checked_shl(shift)
        .filter(|v| v >> shift == n)
        .ok_or_else(bad)?;
    if n == 0 {
        return Err(format!("{flag} must be at least 1 byte"));
    }
    Ok(n)
}

/// Lines of context around each URL's own lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context {
    /// Lines before.
    pub before: usize,
    /// Lines after.
    pub after: usize,
}

impl Config {
    /// Whether each match's message must be known (its messages read in
    /// order).
    pub fn needs_messages(&self) -> bool {
        !self.compute.is_empty()
    }
}

impl Args {
    /// Checks the flags and builds the [`Config`].
    pub fn into_config(self) -> Result<Config, String> {
        let mode = if self.count {
            Mode::Count
        } else if let Some(order) = self.tally {
            Mode::Tally(order)
        } else if self.files_with_matches {
            Mode::FilesWithMatches
        } else if self.report.is_some() {
            Mode::Report
        } else if self.json {
            Mode::Json
        } else {
            Mode::Plain
        };
        let threads = match self.threads {
            Some(0) => return Err("--threads must be at least 1".into()),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
        .min(MAX_THREADS);
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
        let mut fields = match &self.fields {
            Some(list) if list.trim().eq_ignore_ascii_case("none") => Fields::NONE,
            Some(list) => list
                .parse::<Fields>()
                .map_err(|e| format!("--fields: {e}"))?,
            None => match mode {
                Mode::Json => Fields::ALL,
                _ => Fields::NONE,
            },
        };
        if self.message_id {
            fields |= Fields::MESSAGE_ID;
        }
        let date = |flag: &str, v: &Option<String>| -> Result<Option<Timestamp>, String> {
            v.as_deref()
                .map(|s| Timestamp::parse_user(s).map_err(|e| format!("{flag}: {e}")))
                .transpose()
        };
        let (since, until) = (date("--since", &self.since)?, date("--until", &self.until)?);
        let mut compute = fields;
        if since.is_some() || until.is_some() {
            compute |= Fields::DATE;
        }
        if mode == Mode::Report {
            // What the derivatives count by (a message by its Message-ID).
            compute |= Fields::DATE | Fields::NEWSGROUPS | Fields::MESSAGE_ID | Fields::LIST_ID;
        }
        let defaults = Limits::default();
        let limits = Limits {
            max_bytes: self
                .max_bytes
                .unwrap_or(defaults.max_bytes)
                .min(MAX_CANDIDATE_BYTES),
            max_lines: self.max_lines.unwrap_or(defaults.max_lines),
        };
        if limits.max_bytes < 8 {
            return Err("--max-bytes must be at least 8".into());
        }
        // The picker reads naked URLs unless told not to: a person chooses,
        // so a doubtful candidate costs nothing.
        let naked = self.naked || (self.pick && !self.no_naked);
        let pick = self.pick.then(|| PickOpts {
            print: self.print,
            run: self.run.clone(),
            shell: self.run_shell,
            wait: self.wait,
        });
        if self.form == Some(FormArg::Naked) && !naked {
            return Err("--form naked needs --naked".into());
        }
        let defaults = ArchiveOpts::default();
        let archive = ArchiveOpts {
            decompress: !self.no_decompress,
            depth: if self.no_archive || self.no_decompress {
                0
            } else {
                self.archive_depth
            },
            member_cap: match &self.max_member_size {
                Some(s) => parse_size("--max-member-size", s)?,
                None => defaults.member_cap,
            },
            archive_cap: match &self.max_archive_size {
                Some(s) => parse_size("--max-archive-size", s)?,
                None => defaults.archive_cap,
            },
        };
        let list = match (self.files_from, self.files0_from) {
            (Some(path), _) => Some(PathListArg { path, end: b'\n' }),
            (None, Some(path)) => Some(PathListArg { path, end: 0 }),
            (None, None) => None,
        };
        if list.as_ref().is_some_and(|l| l.path == "-") && self.paths.iter().any(|p| p == "-") {
            return Err("standard input cannot be both the path list and an input".into());
        }
        // -A and -B win over -C for their side (as grep).
        let context = (self.after_context.is_some()
            || self.before_context.is_some()
            || self.context.is_some())
        .then(|| Context {
            before: self
                .before_context
                .or(self.context)
                .unwrap_or(0)
                .min(MAX_CONTEXT),
            after: self
                .after_context
                .or(self.context)
                .unwrap_or(0)
                .min(MAX_CONTEXT),
        });
        // Context lines are decoded by their message's charset, which its
        // metadata carries.
        if context.is_some() {
            compute |= Fields::MESSAGE_ID;
        }
        // The --glob patterns, then the --iglob ones (as ripgrep adds them):
        // the later a pattern, the higher its precedence.
        let mut globs: Vec<(String, bool)> = Vec::new();
        globs.extend(self.glob.iter().map(|g| (g.clone(), false)));
        globs.extend(self.iglob.iter().map(|g| (g.clone(), true)));
        let globs = Globs::new(&globs).map_err(|e| e.to_string())?;
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
                FormArg::Href => Form::Href,
            }),
            naked,
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
            stats: self.stats,
            fields,
            compute,
            since,
            until,
            limits,
            raw: self.raw,
            html: match self.html {
                HtmlArg::Fallback => HtmlMode::Fallback,
                HtmlArg::Always => HtmlMode::Always,
                HtmlArg::Never => HtmlMode::Never,
            },
            parse: self.parse,
            piece_size: self.piece_size.map(|n| n as usize),
            line_buffered: self.line_buffered,
            paths: self.paths,
            list,
            null: self.null,
            archive,
            max_count: self.max_count,
            globs,
            // The context lines are read in order, one input at a time.
            threads: if context.is_some() { 1 } else { threads },
            context,
            color: self.color,
            hyperlink: self.hyperlink,
            json: self.json,
            pick,
            report: self.report,
            unwrap: self.unwrap,
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
        assert!(!c.needs_messages());
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
        assert_eq!(cfg(&["--json"]).fields, Fields::ALL);
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
    fn pick_flags() {
        let c = cfg(&["--pick"]);
        assert_eq!(c.pick, Some(PickOpts::default()));
        assert!(c.naked, "the picker reads naked URLs by default");
        assert!(!cfg(&["--pick", "--no-naked"]).naked);
        let c = cfg(&["--pick", "--run", "w3m {}", "--run-shell", "--wait"]);
        let p = c.pick.unwrap();
        assert_eq!(p.run.as_deref(), Some("w3m {}"));
        assert!(p.shell && p.wait && !p.print);
        assert!(cfg(&["--pick", "--print"]).pick.unwrap().print);
        assert!(cfg(&["--pick", "--form", "naked"]).naked);
        // Flags of the picker need it; output modes conflict with it.
        for bad in [
            &["--print"][..],
            &["--run", "x"],
            &["--pick", "--run-shell"],
            &["--no-naked"],
            &["--pick", "--json"],
            &["--pick", "-c"],
            &["--pick", "--tally"],
            &["--pick", "-C", "1"],
            &["--pick", "-m", "3"],
            &["--pick", "--report", "out"],
            &["--pick", "--print", "--run", "x"],
        ] {
            assert!(fails(bad), "{bad:?}");
        }
        assert_eq!(cfg(&[]).pick, None);
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
        // Clamped, as --help says.
        assert_eq!(cfg(&["-j", "100000"]).threads, MAX_THREADS);
        let c = cfg(&["-B", "18446744073709551615", "-A", "3"])
            .context
            .unwrap();
        assert_eq!((c.before, c.after), (MAX_CONTEXT, 3));
        assert!(cfg(&[]).threads <= MAX_THREADS);
        assert!(fails(&["-j", "18446744073709551616"]));
        assert!(fails(&["-j", "-1"]));
        assert!(fails(&["-j", "x"]));
    }

    #[test]
    fn stats_and_message_id() {
        assert!(cfg(&["--stats"]).stats);
        let c = cfg(&["--message-id"]);
        assert!(c.fields == Fields::MESSAGE_ID && c.needs_messages());
    }

    #[test]
    fn fields_and_dates() {
        let c = cfg(&["--fields", "subject,date"]);
        assert_eq!(c.fields, Fields::SUBJECT | Fields::DATE);
        let c = cfg(&["--json", "--fields", "message-id"]);
        assert_eq!(c.fields, Fields::MESSAGE_ID);
        let c = cfg(&["--json", "--fields", "none", "--message-id"]);
        assert_eq!(c.fields, Fields::MESSAGE_ID);
        assert_eq!(cfg(&["--tally"]).fields, Fields::NONE);
        assert_eq!(cfg(&["--tally", "--json"]).fields, Fields::NONE);
        assert!(fails(&["--fields", "from"]));
        let c = cfg(&["--json", "--fields", "date,list-id"]);
        assert_eq!(c.fields, Fields::DATE | Fields::LIST_ID);
        // --since and --until compute the date without printing it.
        let c = cfg(&["--since", "1993-01-01", "--until", "1994-01-01T00:00:00Z"]);
        assert_eq!((c.fields, c.compute), (Fields::NONE, Fields::DATE));
        assert_eq!(c.since.unwrap().to_string(), "1993-01-01T00:00:00Z");
        assert_eq!(c.until.unwrap().to_string(), "1994-01-01T00:00:00Z");
        assert!(fails(&["--since", "yesterday"]));
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
        // Clamped, as --help says; never an abort.
        let c = cfg(&["--max-bytes", "18446744073709551615"]);
        assert_eq!(c.limits.max_bytes, MAX_CANDIDATE_BYTES);
        assert_eq!(
            cfg(&["--max-lines", "18446744073709551615"])
                .limits
                .max_lines,
            usize::MAX
        );
        assert!(fails(&["--max-bytes", "18446744073709551616"]));
        assert!(fails(&["--max-bytes", ""]));
        assert!(fails(&["--max-lines", "-1"]));
    }

    #[test]
    fn line_buffered() {
        assert!(cfg(&["--line-buffered"]).line_buffered);
        assert!(!cfg(&[]).line_buffered);
    }

    #[test]
    fn piece_size() {
        assert_eq!(cfg(&["--piece-size", "64"]).piece_size, Some(64));
        assert_eq!(cfg(&[]).piece_size, None);
        assert!(fails(&["--piece-size", "15"]));
        assert!(fails(&["--piece-size", "2000000000"]));
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
    fn archive_flags() {
        let c = cfg(&[]);
        assert_eq!(c.archive, ArchiveOpts::default());
        assert_eq!(c.archive.depth, 3);
        assert!(c.archive.decompress);
        assert_eq!(cfg(&["--archive-depth", "1"]).archive.depth, 1);
        assert_eq!(cfg(&["--no-archive"]).archive.depth, 0);
        let c = cfg(&["--no-decompress"]);
        assert_eq!((c.archive.depth, c.archive.decompress), (0, false));
        let c = cfg(&["--max-member-size", "512M", "--max-archive-size", "3g"]);
        assert_eq!(c.archive.member_cap, 512 << 20);
        assert_eq!(c.archive.archive_cap, 3 << 30);
        assert_eq!(cfg(&["--max-member-size", "100"]).archive.member_cap, 100);
        assert_eq!(cfg(&["--max-member-size", "2KB"]).archive.member_cap, 2048);
        assert!(fails(&["--max-member-size", "0"]));
        assert!(fails(&["--max-member-size", "x"]));
        assert!(fails(&["--max-member-size", "-1M"]));
        assert!(fails(&["--max-archive-size", "99999999999T"]));
        assert!(fails(&["--archive-depth", "-1"]));
    }

    #[test]
    fn path_lists_and_null() {
        let c = cfg(&["--files-from", "l.txt", "a"]);
        assert_eq!(
            c.list,
            Some(PathListArg {
                path: "l.txt".into(),
                end: b'\n'
            })
        );
        assert_eq!(c.paths, ["a"]);
        assert_eq!(cfg(&["--files0-from", "-"]).list.unwrap().end, 0);
        assert!(fails(&["--files-from", "a", "--files0-from", "b"]));
        assert!(fails(&["--files-from", "a", "--parse"]));
        assert!(fails(&["--files-from", "-", "-"]));
        assert!(!fails(&["--files-from", "l", "-"]));
        assert!(cfg(&["-0"]).null);
        assert!(cfg(&["--null"]).null);
        assert!(!cfg(&[]).null);
    }

    #[test]
    fn max_count_and_globs() {
        assert_eq!(cfg(&[]).max_count, None);
        assert_eq!(cfg(&["-m", "5"]).max_count, Some(5));
        assert_eq!(cfg(&["--max-count=0"]).max_count, Some(0));
        assert!(fails(&["-m", "x"]));
        assert!(cfg(&[]).globs.is_empty());
        let c = cfg(&["-g", "*.mbox", "--iglob", "!OLD/", "--glob=!x*"]);
        assert!(c.globs.allows(b"a.mbox", false));
        assert!(!c.globs.allows(b"xa.mbox", false));
        assert!(!c.globs.allows(b"d/old", true));
        assert!(fails(&["-g", "a[b"]));
    }

    #[test]
    fn tally() {
        assert_eq!(cfg(&["--tally"]).mode, Mode::Tally(TallyOrder::Count));
        assert_eq!(cfg(&["--tally=first"]).mode, Mode::Tally(TallyOrder::First));
        // Without '=', what follows is a path.
        let c = cfg(&["--tally", "first"]);
        assert_eq!((c.mode, c.paths.len()), (Mode::Tally(TallyOrder::Count), 1));
        assert!(cfg(&["--tally", "--json"]).json);
        assert!(fails(&["--tally=often"]));
        assert!(fails(&["--tally", "-u"]));
        assert!(fails(&["--tally", "-l"]));
    }

    #[test]
    fn context_sides_and_one_thread() {
        assert_eq!(cfg(&[]).context, None);
        let c = cfg(&["-C", "2", "-A", "1", "-j4"]);
        assert_eq!(
            c.context,
            Some(Context {
                before: 2,
                after: 1
            })
        );
        assert_eq!(c.threads, 1, "context lines are read in order");
        assert_eq!(
            cfg(&["-B3"]).context,
            Some(Context {
                before: 3,
                after: 0
            })
        );
        assert!(fails(&["-C", "1", "-c"]));
        assert!(fails(&["-A", "1", "--tally"]));
        assert!(!fails(&["-C", "1", "--json"]));
    }

    #[test]
    fn color_and_hyperlink() {
        assert_eq!(cfg(&[]).color, ColorChoice::Auto);
        assert_eq!(cfg(&["--color", "never"]).color, ColorChoice::Never);
        assert_eq!(cfg(&["--colour=always"]).color, ColorChoice::Always);
        assert!(fails(&["--color", "sometimes"]));
        assert!(cfg(&["--hyperlink"]).hyperlink);
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
