//! A progress bar on standard error while `--report` reads (files and
//! bytes done, rate, time left), only when standard error is a terminal:
//! the report writes nothing else while it reads, and a long run over an
//! archive should say how far it is. The total is the size of the regular
//! files under the paths, summed by a thread of its own while the search
//! starts (compressed files count as their size on disk, so the bar may
//! run past the end on them).

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar, when one is drawn.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `paths`, or `None` when standard error is not a
    /// terminal or the input is standard input.
    pub fn start(paths: &[OsString]) -> Option<Progress> {
        if !std::io::stderr().is_terminal() || paths.is_empty() || paths.iter().any(|p| p == "-") {
            return None;
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
        let style = ProgressStyle::with_template(
            "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg}, {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        // (Until the first input is done: not an empty field before the comma.)
        bar.set_message("0 files");
        bar.enable_steady_tick(Duration::from_millis(250));
        let sizer = bar.clone();
        let roots: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        std::thread::spawn(move || {
            let total: u64 = roots.iter().map(|r| size(r, true)).sum();
            sizer.set_length(total);
        });
        Some(Progress { bar })
    }

    /// `bytes` read so far.
    pub fn bytes(&self, bytes: u64) {
        self.bar.set_position(bytes);
    }

    /// `files` inputs done.
    pub fn files(&self, files: u64) {
        self.bar.set_message(match files {
            1 => "1 file".to_string(),
            n => format!("{n} files"),
        });
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// Bytes of the regular files at or under `p` (a link followed only when
/// named, as the walk does).
fn size(p: &std::path::Path, named: bool) -> u64 {
    let meta = if named {
        std::fs::metadata(p)
    } else {
        std::fs::symlink_metadata(p)
    };
    let Ok(meta) = meta else { return 0 };
    if meta.is_file() {
        return meta.len();
    }
    if !meta.is_dir() {
        return 0;
    }
    let Ok(dir) = std::fs::read_dir(p) else {
        return 0;
    };
    dir.filter_map(Result::ok)
        .map(|e| size(&e.path(), false))
        .sum()
}
