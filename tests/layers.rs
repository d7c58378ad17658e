//! The library's modules form layers that point one way: each module
//! imports only modules of layers below its own (ARCHITECTURE.md draws
//! them). This test reads the sources and fails on an import that points
//! up or sideways, so a cycle cannot come back unnoticed.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// The layers, bottom first. A module not listed fails the test: a new
/// module must be given its place.
const LAYERS: &[&[&str]] = &[
    // Bytes, errors, buffers, dates: no knowledge of URLs in text.
    &[
        "class",
        "error",
        "warning",
        "wide",
        "readbuf",
        "date",
        "charset",
        "multibyte",
    ],
    // Searches built on those: `%XX`, mbox message starts, line starts.
    &["percent", "mbox", "lines"],
    // MIME header parameters (RFC 2045, RFC 2231).
    &["params"],
    // RFC 1738's grammar (section 5).
    &["url"],
    // Wrappers' targets read from a URL (the parser validates them).
    &["unwrap"],
    // What a match knows of its message (header fields, dates, subjects).
    &["message"],
    // What every reader shares: matches and the settings.
    &["matches", "settings"],
    // Decoded text's map back to raw bytes (rule 13); messages framed in
    // raw bytes.
    &["map", "tracker"],
    // The naked pass (rules 14 to 17), which the engine drives.
    &["naked"],
    // The engine (rules 1 to 9).
    &["scan"],
    // The readers that feed the engine text: HTML parts (rules 18 to 22),
    // MIME (rules 10 to 13).
    &["html"],
    &["mime"],
    // The scanner composing them, and the front ends.
    &["scanner"],
    &["pieces"],
    &["stream"],
    &["lib"],
];

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|l| l.contains(&module))
        .unwrap_or_else(|| panic!("module `{module}` has no layer in tests/layers.rs"))
}

/// `crate::name` references in the code (comments and the unit tests at
/// the end of a file left out: a test may drive a layer from the top).
fn imports(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in src.lines() {
        if line.trim() == "#[cfg(test)]" {
            break;
        }
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(k) = rest.find("crate::") {
            rest = &rest[k + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name.chars().next().unwrap().is_ascii_lowercase() {
                out.push(name);
            }
        }
    }
    out
}

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, files);
        } else if p.extension().is_some_and(|x| x == "rs") {
            files.push(p);
        }
    }
}

#[test]
fn no_module_imports_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut bad = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        let here = layer_of(&module);
        for dep in imports(&fs::read_to_string(f).unwrap()) {
            if dep == module {
                continue;
            }
            if module == "lib" {
                continue;
            }
            if layer_of(&dep) >= here {
                bad.insert(format!("{} imports crate::{dep}", rel.display()), ());
            }
        }
    }
    assert!(
        bad.is_empty(),
        "imports that point up or sideways: {:?}",
        bad.keys()
    );
}

#[test]
fn the_test_reads_imports() {
    let src = "use crate::scan::Engine; // crate::mime\nlet x = crate::url::Url::parse(b);\n#[cfg(test)]\nuse crate::stream;";
    assert_eq!(imports(src), ["scan", "url"]);
}

/// The command's layers: the printer knows nothing of the search (its
/// scheduler, its units), and the search hands matches to the printer's
/// face (`crate::printer::X`), never into its modules.
#[test]
fn the_command_search_and_printer_point_one_way() {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR")).join("../urlsift-cli/src");
    let mut bad = Vec::new();
    let mut printer = vec![cli.join("printer.rs")];
    walk(&cli.join("printer"), &mut printer);
    for f in &printer {
        let src = fs::read_to_string(f).unwrap();
        if imports(&src).iter().any(|m| m == "search") {
            bad.push(format!("{} imports crate::search", f.display()));
        }
    }
    let mut search = Vec::new();
    walk(&cli.join("search"), &mut search);
    for f in &search {
        let src = fs::read_to_string(f).unwrap();
        for line in src.lines().take_while(|l| l.trim() != "#[cfg(test)]") {
            let code = line.split("//").next().unwrap_or("");
            for inner in [
                "crate::printer::context",
                "crate::printer::tally",
                "crate::printer::color",
            ] {
                if code.contains(inner) {
                    bad.push(format!("{} reaches into {inner}", f.display()));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:?}");
}
