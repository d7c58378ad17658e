//! Sets `urlsift_avx512` when the compiler has the AVX-512 intrinsics
//! (stable since Rust 1.89). The crate builds with older compilers (its
//! MSRV is 1.70); there its byte searches stop at AVX2, as `memchr`'s do.

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(urlsift_avx512)");
    println!("cargo:rerun-if-changed=build.rs");
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    // "rustc 1.95.0 (59807616e 2026-04-14)": the minor version.
    let minor = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|v| {
            let mut parts = v.split_whitespace().nth(1)?.split('.');
            let major: u32 = parts.next()?.parse().ok()?;
            let minor: u32 = parts.next()?.parse().ok()?;
            (major == 1).then_some(minor)
        });
    if minor.is_some_and(|m| m >= 89) {
        println!("cargo:rustc-cfg=urlsift_avx512");
    }
}
