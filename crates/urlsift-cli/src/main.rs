//! The `urlsift` command: parse the arguments, run the search, exit with
//! grep's status (0 found, 1 nothing, 2 error).

mod args;
mod globs;
mod mail;
mod parse;
mod printer;
mod search;
mod walk;

use clap::Parser;

fn main() {
    let args = args::Args::parse();
    let code = match args.into_config() {
        Err(e) => {
            eprintln!("urlsift: {e}");
            2
        }
        Ok(cfg) => search::run(cfg),
    };
    std::process::exit(code);
}
