//! `urlsift --pick`: the URLs of a message in a full-screen list, to open,
//! print or copy.
//!
//! The split is the one of the Rust TUIs worth copying (atuin, television,
//! gitui): the state is pure ([`state`]: `apply(Action) -> Effect`,
//! `extend(batch)`), keys map to actions in [`keymap`], drawing is a
//! function of the state ([`draw`]), the terminal is owned by a guard
//! ([`term`]), and the effects (opening, copying, printing) are carried
//! out here, in the loop, with the command lines built in [`open`].
//!
//! The search runs on its own thread, as `urlsift` runs it, writing
//! records (see `printer::picked`) into a [`feed::Feed`], which keeps each
//! normalized URL once and sends a batch for each write over a channel;
//! this thread alone waits on the channel while the search runs (5 ms at
//! most, then reads the keys typed meanwhile), takes the batches and draws
//! when something changed (at most every 40 ms while URLs arrive), so the
//! list fills while a large mailbox is still being read, and shows its end
//! at once.
//!
//! ratatui 0.29 with crossterm 0.28: the last ratatui whose MSRV is under
//! the command's, and a backend that reads `/dev/tty` itself when stdin is
//! the piped message, needing no terminfo.

pub mod draw;
pub mod feed;
pub mod keymap;
pub mod open;
pub mod state;
pub mod term;

use crate::args::{ColorChoice, Config};
use crossterm::event::{self, Event};
use feed::{Feed, Msg};
use state::{Effect, PickState, Scan};
use std::io::{self, IsTerminal, Write};
use std::process::{Child, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the channel is waited on while the search runs before the
/// keys typed meanwhile are read (and how long a key is waited for while
/// a drawing is due).
const TICK: Duration = Duration::from_millis(5);
/// How long a key is waited for once the search has ended (signals are
/// checked this often).
const IDLE: Duration = Duration::from_millis(100);
/// The list is redrawn at most this often while URLs arrive (at once on a
/// key, the first URLs and the end).
const FRAME: Duration = Duration::from_millis(40);

/// Runs the picker; returns the exit status: 0 when URLs were printed,
/// opened or copied, 1 when left without, 2 on an error.
pub fn run(cfg: Config) -> i32 {
    let Some(tty) = term::open_tty() else {
        crate::warn(format_args!("urlsift: --pick needs a terminal"));
        return 2;
    };
    let stdin_read =
        (cfg.paths.is_empty() && cfg.list.is_none()) || cfg.paths.iter().any(|p| p == "-");
    if stdin_read && io::stdin().is_terminal() {
        crate::warn(format_args!(
            "urlsift: --pick reads a message piped in or the PATHs given, and standard input is the terminal"
        ));
        return 2;
    }
    let opts = cfg.pick.clone().unwrap_or_default();
    let look = draw::Look {
        color: match cfg.color {
            ColorChoice::Never => false,
            ColorChoice::Always => true,
            ColorChoice::Auto => std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        },
    };
    // Signals end the loop, which gives the terminal back.
    let signal = Arc::new(AtomicUsize::new(0));
    for sig in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        if let Err(e) = signal_hook::flag::register_usize(sig, signal.clone(), sig as usize) {
            crate::warn(format_args!("urlsift: --pick: {e}"));
            return 2;
        }
    }
    let captured = match term::Captured::start() {
        Ok(c) => c,
        Err(e) => {
            crate::warn(format_args!("urlsift: --pick: {e}"));
            return 2;
        }
    };
    let (tx, rx) = mpsc::channel();
    let scan_cfg = cfg.clone();
    let spawned = std::thread::Builder::new()
        .name("pick-search".into())
        .spawn(move || {
            let code = crate::search::search(&scan_cfg, Box::new(Feed::new(tx.clone())));
            let _ = tx.send(Msg::Done(code));
        });
    let outcome = match spawned {
        Err(e) => Err(e),
        Ok(_) => term::Guard::enter(&tty).and_then(|mut guard| {
            let mut l = Loop {
                state: PickState::new(),
                opts: &opts,
                tty: &tty,
                children: Vec::new(),
                acted: false,
                look,
                errors: captured.lines.clone(),
            };
            let end = l.run(&mut guard, &rx, &signal);
            drop(guard);
            end
        }),
    };
    let errors = captured.stop();
    let mut err = io::stderr().lock();
    let _ = err.write_all(&errors);
    match outcome {
        Err(e) => {
            crate::warn(format_args!("urlsift: --pick: {e}"));
            2
        }
        Ok(End::Signal(sig)) => 128 + sig as i32,
        Ok(End::Empty) => {
            crate::warn(format_args!("urlsift: no URLs found"));
            1
        }
        Ok(End::Quit { acted }) => i32::from(!acted),
        Ok(End::Print(urls)) => {
            let mut out = io::stdout().lock();
            let mut text = urls.join("\n");
            text.push('\n');
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Ok(()) => 0,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
                Err(e) => {
                    crate::warn(format_args!("urlsift: writing output: {e}"));
                    2
                }
            }
        }
    }
}

/// How the loop ended.
enum End {
    /// `q`: whether something was opened or copied.
    Quit { acted: bool },
    /// `--print`: the chosen URLs.
    Print(Vec<String>),
    /// The search found nothing.
    Empty,
    /// A signal.
    Signal(usize),
}

struct Loop<'a> {
    state: PickState,
    opts: &'a crate::args::PickOpts,
    tty: &'a std::fs::File,
    /// Openers and clipboard tools started and not yet reaped.
    children: Vec<Child>,
    acted: bool,
    look: draw::Look,
    errors: Arc<AtomicUsize>,
}

impl Loop<'_> {
    fn run(
        &mut self,
        guard: &mut term::Guard,
        rx: &mpsc::Receiver<Msg>,
        signal: &AtomicUsize,
    ) -> io::Result<End> {
        let mut dirty = true;
        // Whether the next drawing waits for nothing.
        let mut now = true;
        let mut drawn = Instant::now();
        let mut errors = 0;
        loop {
            let sig = signal.swap(0, Ordering::SeqCst);
            if sig != 0 {
                return Ok(End::Signal(sig));
            }
            // While the search runs, this thread waits on the channel, so
            // a batch and the end show at once; keys are then read without
            // waiting, a tick late at most.
            // (Not past a drawing that is due.)
            let mut wait_rx = (*self.state.scan() == Scan::Running).then(|| match dirty {
                false => TICK,
                true if now => Duration::ZERO,
                true => FRAME.saturating_sub(drawn.elapsed()).min(TICK),
            });
            loop {
                let got = if let Some(wait) = wait_rx.take() {
                    rx.recv_timeout(wait).map_err(|e| match e {
                        RecvTimeoutError::Timeout => TryRecvError::Empty,
                        RecvTimeoutError::Disconnected => TryRecvError::Disconnected,
                    })
                } else {
                    rx.try_recv()
                };
                match got {
                    Ok(Msg::Batch(b)) => {
                        now |= self.state.entries().is_empty();
                        self.state.extend(b)
                    }
                    Ok(Msg::Done(code)) => {
                        now = true;
                        self.state.finish(Scan::Done(code))
                    }
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => {
                        if *self.state.scan() == Scan::Running {
                            self.state.finish(Scan::Stopped);
                        }
                        break;
                    }
                }
                dirty = true;
            }
            if matches!(self.state.scan(), Scan::Done(_)) && self.state.entries().is_empty() {
                return Ok(End::Empty);
            }
            let e = self.errors.load(Ordering::Relaxed);
            if e != errors {
                errors = e;
                self.state
                    .note(format!("{e} messages on standard error, shown on leaving"));
                dirty = true;
            }
            // Openers that ended are reaped, so none is left a zombie.
            self.children
                .retain_mut(|c| !matches!(c.try_wait(), Ok(Some(_))));
            if dirty && (now || drawn.elapsed() >= FRAME) {
                let (state, look) = (&self.state, self.look);
                guard
                    .term
                    .draw(|f| draw::render(state, f.area(), f.buffer_mut(), look))?;
                dirty = false;
                now = false;
                drawn = Instant::now();
            }
            let wait = if *self.state.scan() == Scan::Running {
                Duration::ZERO
            } else if dirty {
                TICK
            } else {
                IDLE
            };
            if !event::poll(wait)? {
                continue;
            }
            now = true;
            match event::read()? {
                Event::Key(k) => {
                    let Some(action) = keymap::action(k, self.state.mode()) else {
                        continue;
                    };
                    dirty = true;
                    match self.state.apply(action) {
                        Effect::None => {}
                        Effect::Quit => return Ok(End::Quit { acted: self.acted }),
                        Effect::Act(urls) if self.opts.print => return Ok(End::Print(urls)),
                        Effect::Act(urls) => self.open(guard, &urls, signal)?,
                        Effect::Copy(url) => {
                            let mut tty = self.tty.try_clone()?;
                            let (child, note) = open::copy(&url, &mut tty);
                            self.children.extend(child);
                            self.state.note(note);
                            self.acted = true;
                        }
                    }
                }
                Event::Resize(..) => dirty = true,
                _ => {}
            }
        }
    }

    /// Opens each of `urls`: detached, or (`--wait`) on the terminal, one
    /// after the other, the list coming back after each.
    fn open(
        &mut self,
        guard: &mut term::Guard,
        urls: &[String],
        signal: &AtomicUsize,
    ) -> io::Result<()> {
        let browser = std::env::var("BROWSER").ok();
        for url in urls {
            let argv = match open::command(self.opts, browser.as_deref(), url) {
                Ok(a) => a,
                Err(e) => {
                    self.state.note(e);
                    return Ok(());
                }
            };
            let program = argv[0].clone();
            if self.opts.wait {
                guard.suspend();
                let status = open::run_waiting(&argv, self.tty);
                // A Ctrl-C meant for the program is not the picker's.
                signal.store(0, Ordering::SeqCst);
                guard.resume()?;
                match status {
                    Ok(s) if s.success() => self.acted = true,
                    Ok(s) => self.state.note(format!("{program}: {s}")),
                    Err(e) => self.state.note(format!("cannot run {program}: {e}")),
                }
            } else {
                match open::spawn_detached(&argv, Stdio::null()) {
                    Ok(child) => {
                        self.children.push(child);
                        self.acted = true;
                        self.state.note(format!(
                            "opened with {}",
                            open::shown(&argv[..argv.len().min(1)]).to_string_lossy()
                        ));
                    }
                    Err(e) => self.state.note(format!("cannot run {program}: {e}")),
                }
            }
        }
        Ok(())
    }
}
