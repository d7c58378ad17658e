//! Opening and copying: the opener's command line is built here (tested
//! without running anything), then started detached or on the terminal.
//!
//! No shell is involved unless asked for (`--run-shell`): a URL may hold
//! `;`, `$`, `` ` `` or `|` (RFC 1738 allows them), and a picker that
//! hands it to `sh -c` runs whatever the sender wrote.

use crate::args::PickOpts;
use std::ffi::OsString;
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// Splits a command line into words once: blanks separate words, `'...'`
/// keeps everything, `"..."` keeps all but `\"` and `\\`, a backslash
/// outside quotes keeps the next character. Nothing is expanded.
pub fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed ' in {line:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => cur.push(c),
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err(format!("unclosed \" in {line:?}")),
                        },
                        Some(c) => cur.push(c),
                        None => return Err(format!("unclosed \" in {line:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// `words` with each `hole` replaced by `url`, inside one word (so the URL
/// is one argument whatever it holds); the URL is added as the last word
/// when no word has the hole.
fn fill(mut words: Vec<String>, hole: &str, url: &str) -> Vec<String> {
    let mut filled = false;
    for w in &mut words {
        if w.contains(hole) {
            *w = w.replace(hole, url);
            filled = true;
        }
    }
    if !filled {
        words.push(url.to_string());
    }
    words
}

/// `s` quoted for a POSIX shell: in single quotes, each `'` as `'\''`.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Whether `program` can be run: a path that exists, or a name found in
/// `PATH`.
pub fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).is_file();
    }
    std::env::var_os("PATH").is_some_and(|p| {
        std::env::split_paths(&p).any(|d| {
            let f = d.join(program);
            f.metadata().is_ok_and(|m| {
                m.is_file()
                    && std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0
            })
        })
    })
}

/// The command that opens `url`: `--run` (split into words, `{}` the URL;
/// with `--run-shell`, `sh -c` with `{}` the URL quoted), else `$BROWSER`
/// (a `:`-separated list, the first present, `%s` the URL), else the
/// system's opener.
pub fn command(opts: &PickOpts, browser: Option<&str>, url: &str) -> Result<Vec<String>, String> {
    if let Some(run) = &opts.run {
        if opts.shell {
            let quoted = shell_quote(url);
            let line = if run.contains("{}") {
                run.replace("{}", &quoted)
            } else {
                format!("{run} {quoted}")
            };
            return Ok(vec!["sh".into(), "-c".into(), line]);
        }
        let w = words(run).map_err(|e| format!("--run: {e}"))?;
        if w.is_empty() {
            return Err("--run: the command is empty".into());
        }
        return Ok(fill(w, "{}", url));
    }
    if let Some(b) = browser.filter(|b| !b.trim().is_empty()) {
        let mut first = None;
        for one in b.split(':') {
            let w = words(one).map_err(|e| format!("$BROWSER: {e}"))?;
            let Some(program) = w.first() else { continue };
            let present = on_path(program);
            if present || first.is_none() {
                first = Some(fill(w, "%s", url));
            }
            if present {
                break;
            }
        }
        if let Some(c) = first {
            return Ok(c);
        }
    }
    let system = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    Ok(vec![system.into(), url.into()])
}

/// Starts `argv` detached: its own session (no terminal, not in the
/// picker's process group, so a Ctrl-C or the picker's exit does not reach
/// it) and standard streams on /dev/null. Not waited for: the loop reaps
/// it when it ends.
pub fn spawn_detached(argv: &[String], stdin: Stdio) -> io::Result<Child> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no command"))?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setsid is async-signal-safe and touches no memory of the
    // parent, as a pre_exec closure must.
    unsafe {
        cmd.pre_exec(|| {
            rustix::process::setsid().map_err(io::Error::from)?;
            Ok(())
        });
    }
    cmd.spawn()
}

/// Runs `argv` on the terminal `tty` and waits for it (`--wait`).
pub fn run_waiting(argv: &[String], tty: &File) -> io::Result<std::process::ExitStatus> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no command"))?;
    Command::new(program)
        .args(args)
        .stdin(tty.try_clone()?)
        .stdout(tty.try_clone()?)
        .stderr(tty.try_clone()?)
        .status()
}

/// The OSC 52 sequence that puts `text` on the terminal's clipboard
/// (xterm, kitty, foot, WezTerm, tmux with `set-clipboard`, ...).
pub fn osc52(text: &str) -> Vec<u8> {
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = b"\x1b]52;c;".to_vec();
    for c in text.as_bytes().chunks(3) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= c.len() {
                B64[(n >> (18 - 6 * i) & 63) as usize]
            } else {
                b'='
            });
        }
    }
    out.push(0x07);
    out
}

/// The clipboard tools tried after OSC 52, in order: the first present is
/// used (a terminal may ignore OSC 52, and a desktop may have no tool).
fn clipboard_tool() -> Option<Vec<&'static str>> {
    let wayland = std::env::var_os("WAYLAND_DISPLAY").is_some();
    let x11 = std::env::var_os("DISPLAY").is_some();
    let tools: [(&[&str], bool); 4] = [
        (&["wl-copy"], wayland),
        (&["xclip", "-selection", "clipboard"], x11),
        (&["xsel", "--clipboard", "--input"], x11),
        (&["pbcopy"], cfg!(target_os = "macos")),
    ];
    tools
        .into_iter()
        .find(|(argv, usable)| *usable && on_path(argv[0]))
        .map(|(argv, _)| argv.to_vec())
}

/// Copies `url`: OSC 52 written to `tty`, and the clipboard tool when one
/// is present (started detached, the URL on its standard input). Returns
/// the tool's process to reap, and what was done.
pub fn copy(url: &str, tty: &mut File) -> (Option<Child>, String) {
    let _ = tty.write_all(&osc52(url)).and_then(|()| tty.flush());
    let Some(tool) = clipboard_tool() else {
        return (None, "copied (OSC 52)".into());
    };
    let argv: Vec<String> = tool.iter().map(|s| s.to_string()).collect();
    match spawn_detached(&argv, Stdio::piped()) {
        Ok(mut child) => {
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(url.as_bytes());
            }
            (Some(child), format!("copied (OSC 52, {})", tool[0]))
        }
        Err(e) => (None, format!("copied (OSC 52); {}: {e}", tool[0])),
    }
}

/// For the status line: a command line as a person would type it.
pub fn shown(argv: &[String]) -> OsString {
    argv.join(" ").into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(run: Option<&str>, shell: bool) -> PickOpts {
        PickOpts {
            run: run.map(String::from),
            shell,
            ..PickOpts::default()
        }
    }

    const EVIL: &str = "http://a.example/x;touch$IFS/tmp/f";

    #[test]
    fn words_split_once_with_quotes() {
        assert_eq!(words("  a  b\tc ").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            words(r#"a 'b c' "d \"e\" \n" f\ g"#).unwrap(),
            ["a", "b c", r#"d "e" \n"#, "f g"]
        );
        assert_eq!(words("''").unwrap(), [""]);
        assert!(words("a 'b").is_err());
        assert!(words("a \"b").is_err());
        // $, ; and backquotes are characters like any other.
        assert_eq!(
            words("echo $HOME;x `y`").unwrap(),
            ["echo", "$HOME;x", "`y`"]
        );
    }

    #[test]
    fn run_puts_the_url_in_one_argument() {
        let c = command(&opts(Some("firefox --new-tab {}"), false), None, EVIL).unwrap();
        assert_eq!(c, ["firefox", "--new-tab", EVIL]);
        let c = command(&opts(Some("open-it --url={} -x"), false), None, EVIL).unwrap();
        assert_eq!(c, ["open-it", &format!("--url={EVIL}"), "-x"]);
        let c = command(&opts(Some("w3m"), false), None, "http://a/").unwrap();
        assert_eq!(c, ["w3m", "http://a/"]);
        assert!(command(&opts(Some("  "), false), None, "http://a/").is_err());
    }

    #[test]
    fn run_shell_quotes_the_url() {
        let c = command(
            &opts(Some("echo {} >> /tmp/log"), true),
            None,
            "http://a/'b;c",
        )
        .unwrap();
        assert_eq!(c, ["sh", "-c", r"echo 'http://a/'\''b;c' >> /tmp/log"]);
        let c = command(&opts(Some("lynx"), true), None, "http://a/").unwrap();
        assert_eq!(c[2], "lynx 'http://a/'");
        let out = Command::new(&c[0])
            .args(["-c", &format!("printf %s {}", shell_quote(EVIL))])
            .output()
            .unwrap();
        assert_eq!(out.stdout, EVIL.as_bytes());
    }

    #[test]
    fn browser_then_system() {
        let o = opts(None, false);
        // The first present of the list; %s is the URL.
        let c = command(
            &o,
            Some("no-such-browser-x %s:sh -c 'echo %s'"),
            "http://a/",
        )
        .unwrap();
        assert_eq!(c, ["sh", "-c", "echo http://a/"]);
        // None present: the first.
        let c = command(&o, Some("no-such-browser-x:no-such-y"), "http://a/").unwrap();
        assert_eq!(c, ["no-such-browser-x", "http://a/"]);
        let c = command(&o, None, "http://a/").unwrap();
        let sys = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        assert_eq!(c, [sys, "http://a/"]);
        assert_eq!(command(&o, Some(""), "http://a/").unwrap()[0], sys);
    }

    #[test]
    fn osc52_is_base64() {
        assert_eq!(osc52("http://a/"), b"\x1b]52;c;aHR0cDovL2Ev\x07");
        assert_eq!(osc52("ab"), b"\x1b]52;c;YWI=\x07");
        assert_eq!(osc52("a"), b"\x1b]52;c;YQ==\x07");
    }

    #[test]
    fn detached_children_lead_their_own_session() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("sid");
        // The shell's pid and its session (field 6 of /proc/self/stat).
        let script = "echo $$ $(cut -d' ' -f6 /proc/$$/stat) > \"$0\"";
        let argv = [
            "sh".into(),
            "-c".into(),
            script.into(),
            out.display().to_string(),
        ];
        let mut child = spawn_detached(&argv, Stdio::null()).unwrap();
        child.wait().unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        let v: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(v.len(), 2, "{text}");
        assert_eq!(v[0], v[1], "the child leads its session: {text}");
    }
}
