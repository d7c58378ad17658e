//! What an input holds, read by its content: compressed streams (gzip,
//! bzip2, xz, zstd) decoded, archives (zip, tar) opened member by member,
//! to a bounded depth and with the bytes decompressed capped ([`sniff`],
//! [`cap`], [`archive`]); and the path lists of `--files-from` and
//! `--files0-from` ([`pathlist`]).

pub mod archive;
pub mod cap;
pub mod pathlist;
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
