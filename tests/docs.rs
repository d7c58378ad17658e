//! The shell examples of README.md and of every page of docs/, run against
//! the built binary, and the README's option table against `urlsift --help`.
//!
//! A ```` ```console ```` block is an example run: each `$ ` line is a command,
//! the lines up to the next one its standard output, exactly. Commands run
//! under bash in a temporary directory holding a link to `samples/`, with
//! the binary first on `PATH`. `$ cat NAME` of a file that is not there
//! writes the block's text to it, so an example can set up its own input;
//! of one that is there, it is compared as any other command. Every
//! console block is run: an example that cannot be (a file only the reader
//! has) belongs in a ```` ```sh ```` or ```` ```text ```` block.

mod util;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of a console block and the output written under it.
struct Step {
    /// Where the block starts, for messages.
    place: String,
    command: String,
    expected: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The commands of every ```console block of a Markdown page, one list per
/// block.
fn console_blocks(page: &str) -> Vec<Vec<Step>> {
    let text = std::fs::read_to_string(root().join(page)).expect("page readable");
    let mut blocks = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        if line.trim_end() != "```console" {
            continue;
        }
        let mut steps: Vec<Step> = Vec::new();
        for (m, line) in lines.by_ref() {
            if line.starts_with("```") {
                break;
            }
            if let Some(command) = line.strip_prefix("$ ") {
                steps.push(Step {
                    place: format!("{page}:{}", m + 1),
                    command: command.to_string(),
                    expected: String::new(),
                });
            } else {
                let step = steps
                    .last_mut()
                    .unwrap_or_else(|| panic!("{page}:{}: output before any `$ ` command", n + 1));
                step.expected.push_str(line);
                step.expected.push('\n');
            }
        }
        assert!(
            !steps.is_empty(),
            "{page}:{}: a console block with no command",
            n + 1
        );
        blocks.push(steps);
    }
    blocks
}

/// Runs every console block of `page` in its own directory; returns how
/// many commands ran.
fn run_page(page: &str) -> usize {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_urlsift"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for block in console_blocks(page) {
        let dir = util::tmp();
        std::os::unix::fs::symlink(root().join("samples"), dir.path().join("samples"))
            .expect("link to samples/");
        for step in block {
            let first = step.command.split_whitespace().next().unwrap_or("");
            assert!(
                ["urlsift", "cat", "printf", "echo"].contains(&first),
                "{}: `{}` is not a command the docs test runs",
                step.place,
                step.command
            );
            if let Some(name) = step.command.strip_prefix("cat ") {
                let file = dir.path().join(name.trim());
                if !file.exists() {
                    std::fs::write(&file, &step.expected).expect("write the example's input");
                    continue;
                }
            }
            let out = Command::new("bash")
                .arg("-c")
                .arg(&step.command)
                .current_dir(dir.path())
                .env("PATH", &path)
                .env_remove("NO_COLOR")
                .output()
                .expect("bash runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert_eq!(
                stdout,
                step.expected,
                "{}: `{}` printed something else (stderr: {})",
                step.place,
                step.command,
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    ran
}

#[test]
fn readme_console_examples_print_what_they_show() {
    assert!(run_page("README.md") >= 8);
}

#[test]
fn guide_console_examples_print_what_they_show() {
    assert!(run_page("docs/guide.md") >= 5);
}

#[test]
fn every_docs_page_console_examples_print_what_they_show() {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ readable")
        .map(|entry| {
            entry
                .expect("docs/ entry")
                .file_name()
                .into_string()
                .expect("UTF-8 name")
        })
        .filter(|name| name.ends_with(".md") && name != "guide.md")
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    assert!(pages.iter().any(|p| p == "docs/rules.md"), "{pages:?}");
    for page in pages {
        run_page(&page);
    }
}

#[test]
fn readme_option_table_lists_every_option_of_help() {
    let help = util::bin().arg("--help").output().expect("urlsift --help");
    let help = String::from_utf8(help.stdout).expect("help is UTF-8");
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README readable");
    let table: String = readme
        .lines()
        .filter(|l| l.starts_with("| `"))
        .collect::<Vec<_>>()
        .join("\n");
    let options: Vec<&str> = help
        .lines()
        .take_while(|l| !l.starts_with("EXAMPLES"))
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || c == ',' || c == '['))
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.trim_end_matches(|c: char| !c.is_ascii_alphanumeric()))
        .collect();
    assert!(
        options.len() > 30,
        "the help lists its options: {options:?}"
    );
    for option in options {
        let cell = format!("`{option}");
        assert!(
            table.contains(&cell),
            "README's option table has no row for {option}"
        );
    }
}
