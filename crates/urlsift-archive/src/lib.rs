//! What an input holds, read by its content, for the `urlsift` command
//! and the Python package: compressed streams (gzip, bzip2, xz, zstd)
//! decoded, archives (zip, tar) opened member by member to a bounded depth,
//! the bytes decompressed capped, and damage reported with the names of
//! the archive and member concerned. Every format is read by a well-kept
//! crate; nothing here holds a member whole in memory.
//!
//! ```no_run
//! use std::io::{self, Read};
//! use urlsift_archive::{archive, ArchiveOpts};
//!
//! struct Print;
//! impl archive::Visitor for Print {
//!     fn member(&mut self, names: &[Vec<u8>], r: &mut dyn Read) -> io::Result<()> {
//!         let n = io::copy(r, &mut io::sink())?;
//!         println!("{:?}: {n} bytes", names);
//!         Ok(())
//!     }
//!     fn error(&mut self, names: &[Vec<u8>], what: &dyn std::fmt::Display) -> io::Result<()> {
//!         eprintln!("{names:?}: {what}");
//!         Ok(())
//!     }
//! }
//!
//! let opts = ArchiveOpts::default();
//! let opened = archive::open_file(std::fs::File::open("news.tgz")?, &opts)?;
//! archive::walk(opened, &opts, &mut Print)?;
//! # Ok::<(), io::Error>(())
//! ```
#![deny(missing_docs)]

pub mod archive;
pub mod cap;
pub mod sniff;

/// How archives and compressed streams are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveOpts {
    /// Decode compressed streams (`--no-decompress` turns it off).
    pub decompress: bool,
    /// Levels of archives opened: 1 opens the archives named, not the
    /// archives inside them; 0 opens none (`--no-archive`).
    pub depth: usize,
    /// Most bytes one member may decompress to (`--max-member-size`).
    pub member_cap: u64,
    /// Most bytes one archive may decompress to (`--max-archive-size`).
    pub archive_cap: u64,
}

impl Default for ArchiveOpts {
    fn default() -> ArchiveOpts {
        ArchiveOpts {
            decompress: true,
            depth: 3,
            // Generous: a Usenet group's mbox of many years fits; a bomb
            // is cut off after minutes of search, not hours.
            member_cap: 16 << 30,
            archive_cap: 64 << 30,
        }
    }
}
