//! The `urlsift` command: parse the arguments, run the search, exit with
//! grep's status (0 found, 1 nothing, 2 error).

use clap::Parser;

fn main() {
    let args = urlsift::cli::Args::parse();
    let code = match args.into_config() {
        Err(e) => {
            eprintln!("urlsift: {e}");
            2
        }
        Ok(cfg) => urlsift::search::run(cfg),
    };
    std::process::exit(code);
}
