//! What an input holds, read by its content (the `urlsift-archive` crate:
//! compressed streams decoded, archives opened member by member, caps),
//! and the path lists of `--files-from` and `--files0-from` ([`pathlist`]).

pub use urlsift_archive::{archive, sniff, ArchiveOpts};

pub mod pathlist;
