//! Archives read member by member: tar streams in order, zip archives from
//! their central directory (a zip met inside a stream is spooled to an
//! unnamed temporary file first), each member sniffed again (a compressed
//! member decoded, an archive inside opened while the depth allows) and
//! handed to a [`Visitor`] as a stream: nothing is held whole in memory.
//!
//! Bombs: the bytes coming out of a member are capped (`member_cap`), and
//! so are those of an archive: a tar's decoded stream as read, a zip's
//! members by the sizes its central directory declares (counted in
//! directory order before any member is read, so the same members are
//! searched whatever the threads), each member held to its declared size.
//!
//! Damage: what is wrong goes to [`Visitor::error`] with the names of the
//! archive or member concerned, and the walk goes on with what can still
//! be read: a zip's other members; a tar up to its damage.

use std::fmt::Display;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;
use std::sync::Arc;

use crate::cap::{CapError, Capped, Limit};
use crate::sniff::{self, Codec, Container};
use crate::ArchiveOpts;

/// The most bytes of a zip met in a stream spooled to a temporary file
/// (disk, not memory: a zip is read from its central directory, at its end).
pub const SPOOL_CAP: u64 = 64 << 30;

/// Compression layers decoded one inside the other (a `.gz.gz`), at most.
const LAYERS: usize = 4;

/// Receives the members of an archive walk.
pub trait Visitor {
    /// A member to search: `names` are the member's path in each archive
    /// from the outermost in; `r` gives its bytes, decoded and capped (a
    /// read error is the member's, for the visitor to report). An error
    /// returned stops the walk (the output is gone).
    fn member(&mut self, names: &[Vec<u8>], r: &mut dyn Read) -> io::Result<()>;
    /// Something wrong with the archive or member `names` names (empty:
    /// the input itself). An error returned stops the walk.
    fn error(&mut self, names: &[Vec<u8>], what: &dyn Display) -> io::Result<()>;
    /// Whether the walk should stop now.
    fn stopped(&self) -> bool {
        false
    }
}

/// An input, looked at: a stream to search, or an archive to walk.
pub enum Opened {
    /// Not an archive (decoded when compressed): searched as it is.
    Plain(Box<dyn Read + Send>),
    /// A tar stream (decoded when compressed).
    Tar(Box<dyn Read + Send>),
    /// A zip archive.
    Zip(Zip),
    /// A zip whose central directory cannot be read (cut short, most
    /// often), and why: its members are read from their local headers up
    /// to the damage.
    CutZip(File, String),
}

/// Looks at an open file: a zip is read in place, anything else as a
/// stream (see [`open_stream`]). The file is read with positional reads
/// first, so it is still at its start.
pub fn open_file(file: File, opts: &ArchiveOpts) -> io::Result<Opened> {
    if opts.depth > 0 {
        let mut head = [0u8; 4];
        let n = file.read_at(&mut head, 0).unwrap_or(0);
        if sniff::container(&head[..n]) == Some(Container::Zip) {
            return Ok(open_zip(file));
        }
    }
    open_stream(Box::new(file), opts)
}

/// Looks at a stream: compressed layers decoded (when `opts` says so),
/// then a tar or zip opened (when the depth allows; a zip is spooled to a
/// temporary file), or the stream returned to be searched.
pub fn open_stream(mut r: Box<dyn Read + Send>, opts: &ArchiveOpts) -> io::Result<Opened> {
    for layer in 0..=LAYERS {
        let p = sniff::peek(r);
        if opts.decompress && layer < LAYERS {
            if let Some(codec) = sniff::codec(p.head()) {
                r = sniff::decoder(codec, p)?;
                continue;
            }
        }
        let container = (opts.depth > 0)
            .then(|| sniff::container(p.head()))
            .flatten();
        let r = Box::new(p);
        return Ok(match container {
            Some(Container::Tar) => Opened::Tar(r),
            // Spooled, up to SPOOL_CAP: a stream's zip costs disk.
            Some(Container::Zip) => open_zip(spool(Capped::new(r, SPOOL_CAP, Limit::Spool))?),
            None => Opened::Plain(r),
        });
    }
    unreachable!("the last layer returns")
}

/// Looks at a source read in place (see [`ReadAt`]) of `len` bytes: a zip
/// is read from its central directory with positional reads (a damaged
/// one is spooled, as it is read as a stream), anything else as a stream
/// from the start (see [`open_stream`]).
pub fn open_at(src: Arc<dyn ReadAt>, len: u64, opts: &ArchiveOpts) -> io::Result<Opened> {
    let mut head = [0u8; 4];
    let start = PosFile::new(src.clone(), len);
    if opts.depth > 0 {
        let n = src.pread(&mut head, 0).unwrap_or(0);
        if sniff::container(&head[..n]) == Some(Container::Zip) {
            return Ok(match Zip::open_at(src, len) {
                Ok(zip) => Opened::Zip(zip),
                Err(e) => Opened::CutZip(
                    spool(Capped::new(start, SPOOL_CAP, Limit::Spool))?,
                    e.to_string(),
                ),
            });
        }
    }
    open_stream(Box::new(start), opts)
}

/// Walks an archive [`open_file`] or [`open_stream`] found (a plain stream
/// is one member with no name). `opts.depth` counts this archive.
pub fn walk(opened: Opened, opts: &ArchiveOpts, v: &mut dyn Visitor) -> io::Result<()> {
    let mut names = Vec::new();
    match opened {
        Opened::Plain(mut r) => v.member(&names, &mut r),
        Opened::Tar(r) => walk_tar(r, &mut names, opts, opts.depth, v).map(|_| ()),
        Opened::Zip(zip) => zip.walk(&mut names, opts, opts.depth, v),
        Opened::CutZip(file, why) => walk_cut_zip(file, &why, &mut names, opts, opts.depth, v),
    }
}

/// A zip file opened from its central directory, or as a cut one.
fn open_zip(file: File) -> Opened {
    match file.try_clone() {
        Ok(copy) => match Zip::open(copy) {
            Ok(zip) => Opened::Zip(zip),
            Err(e) => Opened::CutZip(file, e.to_string()),
        },
        Err(e) => Opened::CutZip(file, e.to_string()),
    }
}

/// Walks a zip with no readable central directory (`why`), its members
/// read one after the other from their local headers until one cannot be
/// (entries whose sizes only a data descriptor gives end the walk there).
fn walk_cut_zip(
    file: File,
    why: &str,
    names: &mut Vec<Vec<u8>>,
    opts: &ArchiveOpts,
    depth: usize,
    v: &mut dyn Visitor,
) -> io::Result<()> {
    v.error(
        names,
        &format_args!("{why}; members read from their local headers up to the damage"),
    )?;
    let mut r = io::BufReader::new(file);
    let mut total = 0u64;
    loop {
        if v.stopped() {
            return Ok(());
        }
        let mut f = match zip::read::read_zipfile_from_stream(&mut r) {
            Ok(Some(f)) => f,
            // The central directory's start: every member was read.
            Ok(None) => return Ok(()),
            Err(e) => return v.error(names, &zip_message(e)),
        };
        if f.is_dir() || !f.is_file() {
            continue;
        }
        let declared = f.size();
        total = total.saturating_add(declared);
        names.push(f.name_raw().to_vec());
        if total > opts.archive_cap {
            let cap = CapError {
                limit: Limit::Archive,
                bytes: opts.archive_cap,
            };
            v.error(names, &cap)?;
            return Ok(());
        }
        let held = Capped::new(&mut f, declared, Limit::Declared);
        let mut capped = Capped::new(held, opts.member_cap, Limit::Member);
        let sound = walk_member(&mut capped, names, opts, depth.saturating_sub(1), v)?;
        names.pop();
        if !sound {
            return Ok(());
        }
    }
}

/// A reader that notes whether it failed otherwise than by a member's
/// cap: the stream under it is then in an unknown state.
struct Watch<R> {
    inner: R,
    broken: bool,
}

impl<R: Read> Read for Watch<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let res = self.inner.read(buf);
        if let Err(e) = &res {
            let member_cap = CapError::of(e).is_some_and(|c| c.limit != Limit::Archive);
            if !member_cap && e.kind() != io::ErrorKind::Interrupted {
                self.broken = true;
            }
        }
        res
    }
}

/// A decoder over a member (not `Send`: a tar member borrows its archive).
fn local_decoder<'a, R: Read + 'a>(codec: Codec, r: R) -> io::Result<Box<dyn Read + 'a>> {
    Ok(match codec {
        Codec::Gzip => Box::new(flate2::read::MultiGzDecoder::new(r)),
        Codec::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(r)),
        Codec::Xz => Box::new(liblzma::read::XzDecoder::new_multi_decoder(r)),
        Codec::Zstd => Box::new(zstd::stream::read::Decoder::new(r)?),
    })
}

/// One member, `names` naming it: decoded, opened when it is an archive
/// and `depth` allows, else handed to the visitor. Returns whether the
/// stream under it is still sound (no error but a member cap's).
fn walk_member(
    r: &mut dyn Read,
    names: &mut Vec<Vec<u8>>,
    opts: &ArchiveOpts,
    depth: usize,
    v: &mut dyn Visitor,
) -> io::Result<bool> {
    let mut w = Watch {
        inner: r,
        broken: false,
    };
    read_member(&mut w, names, opts, depth, v)?;
    Ok(!w.broken)
}

fn read_member(
    r: &mut dyn Read,
    names: &mut Vec<Vec<u8>>,
    opts: &ArchiveOpts,
    depth: usize,
    v: &mut dyn Visitor,
) -> io::Result<()> {
    let mut r: Box<dyn Read + '_> = Box::new(r);
    let mut decoded = false;
    let mut layer = 0;
    let mut r = loop {
        let p = sniff::peek(r);
        if opts.decompress && layer < LAYERS {
            if let Some(codec) = sniff::codec(p.head()) {
                r = match local_decoder(codec, p) {
                    Ok(d) => d,
                    Err(e) => {
                        v.error(names, &e)?;
                        return Ok(());
                    }
                };
                decoded = true;
                layer += 1;
                continue;
            }
        }
        break p;
    };
    let container = (depth > 0).then(|| sniff::container(r.head())).flatten();
    match container {
        Some(Container::Tar) => {
            walk_tar(&mut r, names, opts, depth, v)?;
        }
        // Spooled within the member's cap (the reader is capped).
        Some(Container::Zip) => match spool(&mut r).map(open_zip) {
            Ok(Opened::CutZip(file, why)) => walk_cut_zip(file, &why, names, opts, depth, v)?,
            Ok(Opened::Zip(zip)) => zip.walk(names, opts, depth, v)?,
            Ok(_) => unreachable!("open_zip opens a zip"),
            Err(e) => v.error(names, &tar_message(&e))?,
        },
        None if decoded => {
            // A compressed member's bomb is capped as it decodes too.
            let mut capped = Capped::new(r, opts.member_cap, Limit::Member);
            v.member(names, &mut capped)?;
        }
        None => v.member(names, &mut r)?,
    }
    Ok(())
}

/// The message for a tar error (the crate's words, or the cause's).
fn tar_message(e: &io::Error) -> String {
    match CapError::of(e) {
        Some(cap) => cap.to_string(),
        None => e.to_string(),
    }
}

/// Walks a tar stream (this archive at `depth`, at least 1), its members
/// in order. Returns whether the stream under it is still sound.
fn walk_tar<R: Read>(
    r: R,
    names: &mut Vec<Vec<u8>>,
    opts: &ArchiveOpts,
    depth: usize,
    v: &mut dyn Visitor,
) -> io::Result<bool> {
    let capped = Capped::new(r, opts.archive_cap, Limit::Archive);
    let mut ar = tar::Archive::new(capped);
    let entries = match ar.entries() {
        Ok(entries) => entries,
        Err(e) => {
            v.error(names, &tar_message(&e))?;
            return Ok(false);
        }
    };
    for entry in entries {
        if v.stopped() {
            return Ok(true);
        }
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                v.error(names, &tar_message(&e))?;
                return Ok(false);
            }
        };
        // Regular files only: directories, links, devices and the pax
        // and GNU extension records are no members to search.
        if !entry.header().entry_type().is_file() {
            continue;
        }
        names.push(entry.path_bytes().into_owned());
        let mut capped = Capped::new(&mut entry, opts.member_cap, Limit::Member);
        let sound = walk_member(&mut capped, names, opts, depth - 1, v)?;
        names.pop();
        if !sound {
            // Reported by the visitor; what follows cannot be trusted.
            return Ok(false);
        }
    }
    Ok(true)
}

/// Copies a stream into an unnamed temporary file (a zip inside a stream
/// is read from its end).
fn spool<R: Read>(mut r: R) -> io::Result<File> {
    let mut file = tempfile::tempfile()?;
    io::copy(&mut r, &mut file)?;
    // Read from the start (a cut zip is read as a stream).
    file.rewind()?;
    Ok(file)
}

/// What can be read at any position without a shared file position: a
/// file, or a seekable stream behind a lock (an object in a store read
/// with range requests, say). A zip is read in place through it.
pub trait ReadAt: Send + Sync {
    /// Reads into `buf` from `pos` on; 0 at the end.
    fn pread(&self, buf: &mut [u8], pos: u64) -> io::Result<usize>;
}

impl ReadAt for File {
    fn pread(&self, buf: &mut [u8], pos: u64) -> io::Result<usize> {
        FileExt::read_at(self, buf, pos)
    }
}

/// A source read with positional reads from a position of its own: clones
/// read the same source from several threads at once.
#[derive(Clone)]
pub struct PosFile {
    file: Arc<dyn ReadAt>,
    pos: u64,
    len: u64,
}

impl PosFile {
    /// `src` of `len` bytes, read from its start.
    pub fn new(src: Arc<dyn ReadAt>, len: u64) -> PosFile {
        PosFile {
            file: src,
            pos: 0,
            len,
        }
    }
}

impl std::fmt::Debug for PosFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PosFile")
            .field("pos", &self.pos)
            .field("len", &self.len)
            .finish()
    }
}

impl Read for PosFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.pread(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for PosFile {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let pos = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = pos
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.pos)
    }
}

/// A zip archive, its central directory read. Cheap to clone: the clones
/// share the directory and read the file at positions of their own.
#[derive(Clone, Debug)]
pub struct Zip {
    archive: zip::ZipArchive<PosFile>,
}

/// What the central directory says is to be done, member by member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Planned {
    /// A file to search: its index and name.
    Member {
        /// Index in the central directory.
        index: usize,
        /// Its path in the archive.
        name: Vec<u8>,
        /// Its size as the directory declares it.
        size: u64,
    },
    /// A member that cannot be read, and why.
    Error {
        /// Its path in the archive.
        name: Vec<u8>,
        /// What is wrong.
        message: String,
    },
}

/// A zip error in words (an I/O error as its cause says it).
fn zip_message(e: zip::result::ZipError) -> String {
    match e {
        zip::result::ZipError::Io(e) => tar_message(&e),
        e => e.to_string(),
    }
}

impl Zip {
    /// Reads the central directory of a zip file.
    pub fn open(file: File) -> io::Result<Zip> {
        let len = file.metadata()?.len();
        Zip::open_at(Arc::new(file), len)
    }

    /// Reads the central directory of a zip of `len` bytes read in place
    /// with positional reads.
    pub fn open_at(src: Arc<dyn ReadAt>, len: u64) -> io::Result<Zip> {
        let pf = PosFile::new(src, len);
        match zip::ZipArchive::new(pf) {
            Ok(archive) => Ok(Zip { archive }),
            Err(e) => Err(io::Error::new(io::ErrorKind::InvalidData, zip_message(e))),
        }
    }

    /// The members to search in directory order, and the errors met
    /// listing them: directories and symbolic links left out; past the
    /// archive cap (by declared sizes) one error and nothing more.
    pub fn plan(&self, opts: &ArchiveOpts) -> Vec<Planned> {
        let mut archive = self.archive.clone();
        let mut plan = Vec::new();
        let mut total = 0u64;
        for index in 0..archive.len() {
            let raw_name = || {
                archive
                    .name_for_index(index)
                    .map(|n| n.as_bytes().to_vec())
                    .unwrap_or_default()
            };
            let fallback = raw_name();
            let f = match archive.by_index_raw(index) {
                Ok(f) => f,
                Err(e) => {
                    plan.push(Planned::Error {
                        name: fallback,
                        message: zip_message(e),
                    });
                    continue;
                }
            };
            if f.is_dir() || f.is_symlink() {
                continue;
            }
            let name = f.name_raw().to_vec();
            total = total.saturating_add(f.size());
            if total > opts.archive_cap {
                let cap = CapError {
                    limit: Limit::Archive,
                    bytes: opts.archive_cap,
                };
                plan.push(Planned::Error {
                    name,
                    message: cap.to_string(),
                });
                break;
            }
            plan.push(Planned::Member {
                index,
                name,
                size: f.size(),
            });
        }
        plan
    }

    /// Searches member `index` (named last in `names`) as [`walk`] would,
    /// `depth` counting this archive.
    pub fn search(
        &self,
        index: usize,
        names: &mut Vec<Vec<u8>>,
        opts: &ArchiveOpts,
        depth: usize,
        v: &mut dyn Visitor,
    ) -> io::Result<()> {
        let mut archive = self.archive.clone();
        let mut f = match archive.by_index(index) {
            Ok(f) => f,
            Err(e) => {
                v.error(names, &zip_message(e))?;
                return Ok(());
            }
        };
        let declared = f.size();
        let held = Capped::new(&mut f, declared, Limit::Declared);
        let mut capped = Capped::new(held, opts.member_cap, Limit::Member);
        walk_member(&mut capped, names, opts, depth.saturating_sub(1), v).map(|_| ())
    }

    /// Walks the members in order on this thread.
    fn walk(
        &self,
        names: &mut Vec<Vec<u8>>,
        opts: &ArchiveOpts,
        depth: usize,
        v: &mut dyn Visitor,
    ) -> io::Result<()> {
        for planned in self.plan(opts) {
            if v.stopped() {
                break;
            }
            match planned {
                Planned::Member { index, name, .. } => {
                    names.push(name);
                    self.search(index, names, opts, depth, v)?;
                    names.pop();
                }
                Planned::Error { name, message } => {
                    names.push(name);
                    v.error(names, &message)?;
                    names.pop();
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Records what a walk hands over: `name{name}=bytes` or `!name: why`.
    #[derive(Default)]
    struct Record(Vec<String>);

    impl Visitor for Record {
        fn member(&mut self, names: &[Vec<u8>], r: &mut dyn Read) -> io::Result<()> {
            let mut bytes = Vec::new();
            let got = r.read_to_end(&mut bytes);
            let name = names
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect::<Vec<_>>()
                .join("}{");
            let text = String::from_utf8_lossy(&bytes);
            match got {
                Ok(_) => self.0.push(format!("{name}={text}")),
                Err(e) => self.0.push(format!("{name}={text} (then {e})")),
            }
            Ok(())
        }

        fn error(&mut self, names: &[Vec<u8>], what: &dyn Display) -> io::Result<()> {
            let name = names
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect::<Vec<_>>()
                .join("}{");
            self.0.push(format!("!{name}: {what}"));
            Ok(())
        }
    }

    fn tar(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (name, bytes) in members {
            let mut h = tar::Header::new_gnu();
            h.set_size(bytes.len() as u64);
            b.append_data(&mut h, name, *bytes).unwrap();
        }
        b.into_inner().unwrap()
    }

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn zip(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
        for (name, bytes) in members {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(bytes).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    fn walk_bytes(bytes: Vec<u8>, opts: &ArchiveOpts) -> Vec<String> {
        let mut v = Record::default();
        let opened = open_stream(Box::new(io::Cursor::new(bytes)), opts).unwrap();
        walk(opened, opts, &mut v).unwrap();
        v.0
    }

    #[test]
    fn members_decoded_and_nested_archives_opened_to_the_depth() {
        let inner = zip(&[("c.txt", b"C")]);
        let t = gz(&tar(&[
            ("a.txt", b"A"),
            ("b.gz", &gz(b"B")),
            ("i.zip", &inner),
        ]));
        let opts = ArchiveOpts::default();
        assert_eq!(
            walk_bytes(t.clone(), &opts),
            ["a.txt=A", "b.gz=B", "i.zip}{c.txt=C"]
        );
        let one = ArchiveOpts { depth: 1, ..opts };
        let got = walk_bytes(t.clone(), &one);
        assert_eq!(got[..2], ["a.txt=A", "b.gz=B"]);
        assert!(got[2].starts_with("i.zip=PK"), "{got:?}");
        // No archive: the decoded tar is one stream with no name.
        let none = ArchiveOpts { depth: 0, ..opts };
        let got = walk_bytes(t.clone(), &none);
        assert_eq!(got.len(), 1);
        assert!(got[0].starts_with("=a.txt"), "{got:?}");
    }

    /// Bytes in memory read at positions, as a seekable object of another
    /// language is.
    struct Bytes(Vec<u8>);

    impl ReadAt for Bytes {
        fn pread(&self, buf: &mut [u8], pos: u64) -> io::Result<usize> {
            let from = (pos as usize).min(self.0.len());
            let n = buf.len().min(self.0.len() - from);
            buf[..n].copy_from_slice(&self.0[from..from + n]);
            Ok(n)
        }
    }

    #[test]
    fn sources_read_at_positions_give_what_streams_give() {
        let z = zip(&[("a.txt", b"A"), ("b.gz", &gz(b"B"))]);
        let t = gz(&tar(&[("c.txt", b"C")]));
        let cut = z[..z.len() - 10].to_vec();
        let opts = ArchiveOpts::default();
        for bytes in [z, t, b"plain".to_vec(), cut] {
            let len = bytes.len() as u64;
            let opened = open_at(Arc::new(Bytes(bytes.clone())), len, &opts).unwrap();
            assert_eq!(
                matches!(opened, Opened::Zip(_)),
                matches!(
                    open_stream(Box::new(io::Cursor::new(bytes.clone())), &opts).unwrap(),
                    Opened::Zip(_)
                )
            );
            let mut v = Record::default();
            walk(opened, &opts, &mut v).unwrap();
            assert_eq!(v.0, walk_bytes(bytes, &opts));
        }
    }

    #[test]
    fn caps_end_a_member_and_an_archive() {
        let big = vec![b'x'; 10_000];
        let t = tar(&[("a", &big), ("b", b"B")]);
        let opts = ArchiveOpts {
            member_cap: 4096,
            ..ArchiveOpts::default()
        };
        let got = walk_bytes(t.clone(), &opts);
        assert_eq!(got.len(), 2);
        assert!(
            got[0].ends_with("(--max-member-size); rest skipped)"),
            "{got:?}"
        );
        assert_eq!(got[1], "b=B");
        let opts = ArchiveOpts {
            archive_cap: 4096,
            ..ArchiveOpts::default()
        };
        let got = walk_bytes(t, &opts);
        assert!(got[0].contains("--max-archive-size"), "{got:?}");
        assert_eq!(got.len(), 1, "the walk stops: {got:?}");
        // A zip by the sizes it declares, in directory order.
        let z = zip(&[("a", b"AAAA"), ("b", b"BBBB"), ("c", b"C")]);
        let opts = ArchiveOpts {
            archive_cap: 6,
            ..ArchiveOpts::default()
        };
        let got = walk_bytes(z, &opts);
        assert_eq!(got[0], "a=AAAA");
        assert!(got[1].starts_with("!b: archive decompresses"), "{got:?}");
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn a_cut_zip_is_read_up_to_the_damage() {
        // Bytes deflate cannot shrink, so that half the archive cuts `b`.
        let noise: Vec<u8> = (0u32..5000)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let z = zip(&[("a", b"first"), ("b", &noise), ("c", b"last")]);
        let got = walk_bytes(z[..z.len() / 2].to_vec(), &ArchiveOpts::default());
        assert!(got[0].starts_with("!: invalid Zip archive"), "{got:?}");
        assert_eq!(got[1], "a=first");
        assert!(
            got.len() >= 3 && got.iter().all(|g| !g.starts_with("c=")),
            "{got:?}"
        );
    }
}
