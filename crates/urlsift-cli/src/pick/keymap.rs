//! Keys to actions. The keys of urlview and urlscan where they agree
//! (`j`/`k`, `g`/`G`, `/`, `q`), with the arrows and pages besides.

use super::state::{Action, Mode};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// The help screen's lines: key, then what it does.
pub const HELP: &[(&str, &str)] = &[
    ("j  Down", "next URL"),
    ("k  Up", "previous URL"),
    ("g  Home", "first URL"),
    ("G  End", "last URL"),
    ("PgDn PgUp", "a screen down, up"),
    ("Space", "mark or unmark"),
    (
        "Enter",
        "open (or print) the marked URLs, else the selected one",
    ),
    ("t", "as Enter, on wrapped links' targets (Safe Links, ...)"),
    ("y", "copy the selected URL"),
    ("c", "show or hide context lines"),
    ("/", "filter as you type: Enter keeps it, Esc clears it"),
    ("?", "this help"),
    ("q  Esc", "quit"),
];

/// The action of `key` in `mode`, if any. Key releases (reported by some
/// terminals) are ignored; in the filter prompt, characters type.
pub fn action(key: KeyEvent, mode: Mode) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    let moves = match key.code {
        KeyCode::Down => Some(Action::Down),
        KeyCode::Up => Some(Action::Up),
        KeyCode::PageDown => Some(Action::PageDown),
        KeyCode::PageUp => Some(Action::PageUp),
        KeyCode::Char('n') if ctrl => Some(Action::Down),
        KeyCode::Char('p') if ctrl => Some(Action::Up),
        KeyCode::Char('f') if ctrl => Some(Action::PageDown),
        KeyCode::Char('b') if ctrl => Some(Action::PageUp),
        _ => None,
    };
    match mode {
        Mode::Help => match key.code {
            KeyCode::Char('q') | KeyCode::Esc | KeyCode::Char('?') | KeyCode::Enter => {
                Some(Action::Help)
            }
            _ => None,
        },
        Mode::Filter => moves.or(match key.code {
            KeyCode::Enter => Some(Action::KeepFilter),
            KeyCode::Esc => Some(Action::ClearFilter),
            KeyCode::Backspace => Some(Action::Backspace),
            KeyCode::Char(c) if !ctrl => Some(Action::Type(c)),
            _ => None,
        }),
        Mode::List => moves.or(match key.code {
            KeyCode::Char('j') => Some(Action::Down),
            KeyCode::Char('k') => Some(Action::Up),
            KeyCode::Char('g') | KeyCode::Home => Some(Action::First),
            KeyCode::Char('G') | KeyCode::End => Some(Action::Last),
            KeyCode::Char(' ') => Some(Action::Mark),
            KeyCode::Enter => Some(Action::Act),
            KeyCode::Char('t') => Some(Action::ActTarget),
            KeyCode::Char('y') => Some(Action::Copy),
            KeyCode::Char('c') if !ctrl => Some(Action::ToggleContext),
            KeyCode::Char('/') => Some(Action::Filter),
            KeyCode::Char('?') => Some(Action::Help),
            KeyCode::Char('q') | KeyCode::Esc => Some(Action::Quit),
            _ => None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn the_list_keys() {
        let cases = [
            (KeyCode::Char('j'), Action::Down),
            (KeyCode::Down, Action::Down),
            (KeyCode::Char('k'), Action::Up),
            (KeyCode::Up, Action::Up),
            (KeyCode::Char('g'), Action::First),
            (KeyCode::Home, Action::First),
            (KeyCode::Char('G'), Action::Last),
            (KeyCode::End, Action::Last),
            (KeyCode::Char(' '), Action::Mark),
            (KeyCode::Enter, Action::Act),
            (KeyCode::Char('t'), Action::ActTarget),
            (KeyCode::Char('y'), Action::Copy),
            (KeyCode::Char('c'), Action::ToggleContext),
            (KeyCode::Char('/'), Action::Filter),
            (KeyCode::Char('?'), Action::Help),
            (KeyCode::Char('q'), Action::Quit),
            (KeyCode::Esc, Action::Quit),
        ];
        for (code, want) in cases {
            assert_eq!(action(key(code), Mode::List), Some(want), "{code:?}");
        }
        assert_eq!(action(key(KeyCode::Char('x')), Mode::List), None);
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(action(ctrl_c, Mode::List), Some(Action::Quit));
        assert_eq!(action(ctrl_c, Mode::Filter), Some(Action::Quit));
    }

    #[test]
    fn the_filter_types_what_the_list_binds() {
        for c in ['j', 'q', 'G', ' ', '/', '?'] {
            assert_eq!(
                action(key(KeyCode::Char(c)), Mode::Filter),
                Some(Action::Type(c))
            );
        }
        assert_eq!(
            action(key(KeyCode::Enter), Mode::Filter),
            Some(Action::KeepFilter)
        );
        assert_eq!(
            action(key(KeyCode::Esc), Mode::Filter),
            Some(Action::ClearFilter)
        );
        assert_eq!(
            action(key(KeyCode::Backspace), Mode::Filter),
            Some(Action::Backspace)
        );
        assert_eq!(action(key(KeyCode::Down), Mode::Filter), Some(Action::Down));
    }

    #[test]
    fn releases_are_ignored_and_help_closes() {
        let mut k = key(KeyCode::Char('j'));
        k.kind = KeyEventKind::Release;
        assert_eq!(action(k, Mode::List), None);
        assert_eq!(action(key(KeyCode::Esc), Mode::Help), Some(Action::Help));
        assert_eq!(action(key(KeyCode::Char('j')), Mode::Help), None);
    }
}
