//! Helpers for running the built `urlsift` binary on temporary files.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_urlsift"))
}

/// Result of one run.
pub struct Run {
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Run {
    pub fn out(&self) -> String {
        String::from_utf8(self.stdout.clone()).expect("stdout is UTF-8")
    }
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().expect("exit status"),
            stdout: o.stdout,
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

/// Runs `urlsift args` in `dir` with empty stdin.
pub fn run(dir: &Path, args: &[&str]) -> Run {
    run_stdin(dir, args, b"")
}

/// Runs `urlsift args` in `dir` with `input` on stdin.
pub fn run_stdin(dir: &Path, args: &[&str], input: &[u8]) -> Run {
    let mut child = bin()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urlsift");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait urlsift");
    feeder.join().unwrap();
    out.into()
}

/// Writes `bytes` to `dir/name` (creating parent directories).
pub fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, bytes).unwrap();
    p
}

/// A new temporary directory.
pub fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// A gzip file of `bytes`.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// A deterministic mbox of about `size` bytes from a few templates with
/// URLs (wrapped, bracketed, broken, quoted, hyphenated, decoys), with
/// long bodies so that URLs fall near every piece boundary. Returns the
/// text and the number of URLs planted.
pub fn mbox(size: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(size + 4096);
    let mut urls = 0;
    let mut i = 0u64;
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    while out.len() < size {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        out.extend_from_slice(
            format!(
                "From user{i}@example.org Mon Jan  1 00:00:00 1996\nSubject: note {i}\n\
                 Message-ID:\n <{i}.{x:x}@example.org>\n\n"
            )
            .as_bytes(),
        );
        // Filler of varying length so URLs land everywhere.
        let filler = (x % 3000) as usize;
        for k in 0..filler / 60 {
            out.extend_from_slice(
                format!("filler line {k} of message {i} with text.\n").as_bytes(),
            );
        }
        match i % 6 {
            0 => out.extend_from_slice(
                format!("See <URL:http://www.host{i}.example/a/b?c{i}>.\n").as_bytes(),
            ),
            1 => out.extend_from_slice(
                format!("Get <ftp://ftp{i}.example.org/pub/\n   file{i}.txt> now\n").as_bytes(),
            ),
            2 => out.extend_from_slice(
                format!("> quoted <URL:gopher://g{i}.example/\n> 1sel{i}>\n").as_bytes(),
            ),
            3 => out.extend_from_slice(
                format!("Try <URL:http://www.ex-\n  ample{i}.com/> and <Re: x{i}>\n").as_bytes(),
            ),
            4 => out.extend_from_slice(
                format!("<news:comp.mail.m{i}> and <mailto:u{i}@h.example>\n").as_bytes(),
            ),
            _ => out.extend_from_slice(
                format!("not <http://bad host/> but <URL:telnet://t{i}.example:2323/>\n")
                    .as_bytes(),
            ),
        }
        urls += match i % 6 {
            4 => 2,
            _ => 1,
        };
        out.extend_from_slice(b"\n");
        i += 1;
    }
    (out, urls)
}
