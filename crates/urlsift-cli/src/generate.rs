//! `--generate`: the man page and the shell completion scripts, made from
//! the same clap definition as the flags, so they never fall behind them.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::args::{Args, GenerateArg};

/// The text of `kind`, whole: the generators are handed a buffer, never
/// standard output, since clap_complete panics when a write fails and
/// every write error must be an error the command reports.
pub fn render(kind: GenerateArg) -> Vec<u8> {
    let mut cmd = Args::command();
    let mut out = Vec::new();
    let shell = match kind {
        GenerateArg::Man => {
            // Writing into a Vec cannot fail.
            let _ = clap_mangen::Man::new(cmd).render(&mut out);
            return out;
        }
        GenerateArg::CompleteBash => Shell::Bash,
        GenerateArg::CompleteZsh => Shell::Zsh,
        GenerateArg::CompleteFish => Shell::Fish,
        GenerateArg::CompletePowershell => Shell::PowerShell,
    };
    clap_complete::generate(shell, &mut cmd, "urlsift", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn man_page_is_roff_with_every_flag() {
        let man = String::from_utf8(render(GenerateArg::Man)).unwrap();
        assert!(man.starts_with(".ie") || man.contains("\n.TH "), "{man}");
        assert!(man.contains(".TH urlsift 1"), "{man}");
        assert!(man.contains(".SH NAME") && man.contains(".SH OPTIONS"));
        for flag in ["max\\-bytes", "json", "generate", "threads"] {
            assert!(man.contains(flag), "{flag} missing");
        }
    }

    #[test]
    fn completions_name_the_command_and_its_flags() {
        for (kind, mark) in [
            (GenerateArg::CompleteBash, "complete -F"),
            (GenerateArg::CompleteZsh, "#compdef urlsift"),
            (GenerateArg::CompleteFish, "complete -c urlsift"),
            (
                GenerateArg::CompletePowershell,
                "Register-ArgumentCompleter",
            ),
        ] {
            let text = String::from_utf8(render(kind)).unwrap();
            assert!(text.contains(mark), "{kind:?}: {mark}");
            assert!(text.contains("max-bytes"), "{kind:?}");
        }
    }
}
