//! Prints `name<TAB>line<TAB>url` for each URL of each file named, as
//! `ref-extract` does (`--raw` for the raw reading): the library alone,
//! through the reader front end, for cross-checks.

use std::fs::File;
use std::io::BufWriter;
use std::io::Write;

fn main() -> std::io::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let raw = args.first().map(String::as_str) == Some("--raw");
    if raw {
        args.remove(0);
    }
    let scanner = urlsift::Scanner::new().mime(!raw);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for name in &args {
        for m in urlsift::Extractor::with_scanner(File::open(name)?, scanner) {
            let m = m?;
            writeln!(out, "{}\t{}\t{}", name, m.line(), m.as_str())?;
        }
    }
    Ok(())
}
