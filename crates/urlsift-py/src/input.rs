//! Opens a file as the command reads it: gzip (by the `.gz` name or the
//! magic bytes) decompressed as it is read, anything else as it is.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The file's bytes, decompressed when it is gzip.
pub fn open(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    let mut r = BufReader::with_capacity(64 * 1024, File::open(path)?);
    let gz = path.extension().is_some_and(|e| e == "gz") || r.fill_buf()?.starts_with(&GZIP_MAGIC);
    Ok(if gz {
        Box::new(MultiGzDecoder::new(r))
    } else {
        Box::new(r)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn read_all(path: &Path) -> io::Result<Vec<u8>> {
        let mut v = Vec::new();
        open(path)?.read_to_end(&mut v)?;
        Ok(v)
    }

    #[test]
    fn plain_gzip_and_missing() {
        let dir = std::env::temp_dir().join(format!("urlsift-py-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let text = b"<URL:http://a.b/>\n".repeat(1000);
        let plain = dir.join("a.txt");
        std::fs::write(&plain, &text).unwrap();
        assert_eq!(read_all(&plain).unwrap(), text);
        // Gzip by its magic bytes whatever the name, two members as one.
        let mut gz = Vec::new();
        for half in text.chunks(text.len() / 2) {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(half).unwrap();
            gz.extend(e.finish().unwrap());
        }
        let packed = dir.join("b.mbox");
        std::fs::write(&packed, &gz).unwrap();
        assert_eq!(read_all(&packed).unwrap(), text);
        // A `.gz` name that is not gzip is an error, as for the command.
        let fake = dir.join("c.gz");
        std::fs::write(&fake, &text).unwrap();
        assert!(read_all(&fake).is_err());
        assert_eq!(
            read_all(&dir.join("none")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
