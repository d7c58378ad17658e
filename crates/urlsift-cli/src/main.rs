//! The `urlsift` command: parse the arguments, run the search, exit with
//! grep's status (0 found, 1 nothing, 2 error).

mod args;
mod generate;
mod globs;
mod input;
mod parse;
#[cfg(feature = "pick")]
mod pick;
mod pool;
mod printer;
mod progress;
mod search;
mod walk;

use std::io::{self, IsTerminal, Write};

use clap::Parser;

fn main() {
    let code = match args::Args::try_parse() {
        // --help and --version: written here, not by clap, which ignores
        // write errors (a full disk would exit 0).
        Err(e) if !e.use_stderr() => {
            let text = if io::stdout().is_terminal() {
                e.render().ansi().to_string()
            } else {
                e.render().to_string()
            };
            print_all(text.as_bytes())
        }
        // Usage errors in the command's own form, `urlsift: ...`, clap's
        // hints after it.
        Err(e) => {
            let text = e.render().to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text);
            warn(format_args!("urlsift: {}", text.trim_end()));
            2
        }
        Ok(args) => match args.generate {
            Some(kind) => print_all(&generate::render(kind)),
            None => match args.into_config() {
                Err(e) => {
                    warn(format_args!("urlsift: {e}"));
                    2
                }
                #[cfg(feature = "pick")]
                Ok(cfg) if cfg.pick.is_some() => pick::run(cfg),
                #[cfg(not(feature = "pick"))]
                Ok(cfg) if cfg.pick.is_some() => {
                    warn(format_args!(
                        "urlsift: --pick: built without the pick feature"
                    ));
                    2
                }
                Ok(cfg) => search::run(cfg),
            },
        },
    };
    std::process::exit(code);
}

/// Writes `bytes` to standard output: 0, or 2 on a write error (reported;
/// a closed pipe is quiet, as for the search).
fn print_all(bytes: &[u8]) -> i32 {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            warn(format_args!("urlsift: writing output: {e}"));
            2
        }
    }
}

/// Writes one line on standard error. A failure there has nowhere to be
/// reported, so it is ignored (`eprintln!` would panic, and abort).
pub fn warn(msg: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(msg).and_then(|()| err.write_all(b"\n"));
}
