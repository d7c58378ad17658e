//! `--parse`: URLs from the arguments or stdin, parsed, one JSON object each.

use crate::args::Config;
use crate::printer::{json_opt, json_str, json_warnings};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use urlsift::Url;

/// `--parse`: one JSON object per URL; 0 when all are valid, 1 if not.
pub fn run_parse(cfg: &Config) -> i32 {
    let mut inputs: Vec<Vec<u8>> = cfg.paths.iter().map(|p| p.as_bytes().to_vec()).collect();
    if cfg.paths.is_empty() {
        let mut all = Vec::new();
        if let Err(e) = io::stdin().read_to_end(&mut all) {
            crate::warn(format_args!("urlsift: (standard input): {e}"));
            return 2;
        }
        for line in all.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            inputs.push(line.to_vec());
        }
        if all.ends_with(b"\n") || all.is_empty() {
            inputs.pop();
        }
    }
    let mut out = Vec::new();
    let mut all_valid = true;
    for input in &inputs {
        out.extend_from_slice(b"{\"input\":");
        json_str(&mut out, &String::from_utf8_lossy(input));
        match Url::parse_with(input, cfg.policy) {
            Ok(u) => {
                out.extend_from_slice(b",\"valid\":true,\"scheme\":");
                json_str(&mut out, &u.scheme().to_ascii_lowercase());
                out.extend_from_slice(b",\"parts\":{");
                for (k, (name, v)) in u.components().iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    json_str(&mut out, name);
                    out.push(b':');
                    json_str(&mut out, v);
                }
                out.extend_from_slice(b"},\"fragment\":");
                json_opt(&mut out, u.fragment());
                out.extend_from_slice(b",\"warnings\":");
                json_warnings(&mut out, &u);
                out.extend_from_slice(b",\"error\":null}\n");
            }
            Err(e) => {
                all_valid = false;
                out.extend_from_slice(
                    b",\"valid\":false,\"scheme\":null,\"parts\":null,\"fragment\":null,\"warnings\":[],\"error\":{",
                );
                let _ = write!(out, "\"offset\":{},\"reason\":", e.offset());
                json_str(&mut out, &format!("{}: {}", e.rule(), e.kind().reason()));
                out.extend_from_slice(b"}}\n");
            }
        }
    }
    let mut stdout = io::stdout().lock();
    match stdout.write_all(&out).and_then(|_| stdout.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            crate::warn(format_args!("urlsift: writing output: {e}"));
            2
        }
        Ok(()) if all_valid => 0,
        Ok(()) => 1,
    }
}
