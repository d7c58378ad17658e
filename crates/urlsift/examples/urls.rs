//! Reads a file (or standard input) as a stream and prints each URL with
//! its line: what an embedder's first program looks like.
//!
//! ```sh
//! cargo run -p urlsift --example urls -- samples/mail/inbox.mbox
//! ```

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use urlsift::Extractor;

fn main() -> ExitCode {
    let path = std::env::args_os().nth(1);
    let input: Box<dyn Read> = match &path {
        Some(p) if p != "-" => match File::open(p) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("urls: {}: {e}", p.to_string_lossy());
                return ExitCode::from(2);
            }
        },
        _ => Box::new(io::stdin().lock()),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    for found in Extractor::new(input) {
        let result =
            found.and_then(|m| writeln!(out, "{}:{}\t{}", m.line(), m.form().as_str(), m.as_str()));
        if let Err(e) = result {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return ExitCode::SUCCESS;
            }
            eprintln!("urls: {e}");
            return ExitCode::from(2);
        }
    }
    match out.flush() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("urls: {e}");
            ExitCode::from(2)
        }
    }
}
