//! The terminal, owned by a guard: raw mode and the alternate screen on
//! `/dev/tty` (stdin is the piped message, stdout may be captured by
//! `--print`), given back in `Drop`, in a panic hook, and by the loop on
//! SIGINT, SIGTERM and SIGHUP. `ratatui::init` is not used: it draws on
//! stdout.
//!
//! While the list is up, standard error goes to a pipe (a file the search
//! cannot read would write over the screen); what was written there is
//! shown after the terminal is given back.

use crossterm::{cursor, execute, terminal};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Once};
use std::thread::JoinHandle;

/// Whether the screen is ours (raw mode, alternate screen).
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// The real standard error while it is captured (-1: not captured).
static SAVED_STDERR: AtomicI32 = AtomicI32::new(-1);
static HOOK: Once = Once::new();

/// Opens the terminal; `None` without one (no controlling terminal).
pub fn open_tty() -> Option<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
        .ok()
}

/// The screen, in raw mode on the alternate screen while it lives.
pub struct Guard {
    /// What ratatui draws on: buffered, as the terminal is a file, not
    /// stdout (unbuffered, each cell's text and colour was a system call
    /// of its own, some thousands a screen); ratatui flushes after each
    /// frame.
    pub term: Terminal<CrosstermBackend<BufWriter<File>>>,
}

impl Guard {
    /// Takes the terminal `tty`.
    pub fn enter(tty: &File) -> io::Result<Guard> {
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                give_back();
                previous(info);
            }));
        });
        take()?;
        // Room for a full screen with its colours in one write.
        let out = BufWriter::with_capacity(64 * 1024, tty.try_clone()?);
        let term = Terminal::new(CrosstermBackend::new(out))?;
        Ok(Guard { term })
    }

    /// Gives the terminal to another program (`--wait`).
    pub fn suspend(&mut self) {
        restore_screen();
    }

    /// Takes the terminal back and draws anew.
    pub fn resume(&mut self) -> io::Result<()> {
        take()?;
        self.term.clear()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore_screen();
    }
}

fn take() -> io::Result<()> {
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut tty = open_tty().ok_or_else(|| io::Error::other("no terminal"))?;
    execute!(tty, terminal::EnterAlternateScreen, cursor::Hide)
}

/// Leaves raw mode and the alternate screen, once.
fn restore_screen() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = terminal::disable_raw_mode();
        if let Some(mut tty) = open_tty() {
            let _ = execute!(tty, terminal::LeaveAlternateScreen, cursor::Show);
        }
    }
}

/// Everything back as it was: the screen and standard error (for a panic
/// hook, and before the process ends on a signal).
pub fn give_back() {
    restore_screen();
    let fd = SAVED_STDERR.swap(-1, Ordering::SeqCst);
    if fd >= 0 {
        // SAFETY: `fd` is the saved standard error, open until the
        // capture ends (it is then taken out of SAVED_STDERR first).
        let saved = unsafe { BorrowedFd::borrow_raw(fd) };
        let _ = rustix::stdio::dup2_stderr(saved);
    }
}

/// Standard error, captured in a pipe while the list is up.
pub struct Captured {
    saved: OwnedFd,
    reader: Option<JoinHandle<Vec<u8>>>,
    /// Lines written so far.
    pub lines: Arc<AtomicUsize>,
}

/// Most bytes of standard error kept (the rest is counted, not kept).
const KEEP: usize = 64 * 1024;

impl Captured {
    /// Sends standard error to a pipe read by a thread.
    pub fn start() -> io::Result<Captured> {
        let saved = rustix::io::dup(io::stderr().as_fd())?;
        let (r, w) = rustix::pipe::pipe()?;
        rustix::stdio::dup2_stderr(&w)?;
        drop(w);
        SAVED_STDERR.store(saved.as_raw_fd(), Ordering::SeqCst);
        let lines = Arc::new(AtomicUsize::new(0));
        let count = lines.clone();
        let reader = std::thread::spawn(move || {
            use std::io::Read;
            let mut r = File::from(r);
            let mut kept = Vec::new();
            let mut buf = [0u8; 4096];
            while let Ok(n) = r.read(&mut buf) {
                if n == 0 {
                    break;
                }
                count.fetch_add(bytecount::count(&buf[..n], b'\n'), Ordering::Relaxed);
                let room = KEEP.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
            kept
        });
        Ok(Captured {
            saved,
            reader: Some(reader),
            lines,
        })
    }

    /// Puts standard error back; returns what was written to it.
    pub fn stop(mut self) -> Vec<u8> {
        if SAVED_STDERR.swap(-1, Ordering::SeqCst) >= 0 {
            let _ = rustix::stdio::dup2_stderr(&self.saved);
        }
        // The pipe's last writer is gone: the reader sees its end (unless
        // a search thread is writing at this instant: then not waited for).
        let reader = self.reader.take();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(reader.and_then(|r| r.join().ok()).unwrap_or_default());
        });
        rx.recv_timeout(std::time::Duration::from_millis(500))
            .unwrap_or_default()
    }
}
