//! The picker's state, pure: the URLs found so far, marks, the filter, the
//! selection. Keys become [`Action`]s, [`PickState::apply`] answers with
//! the [`Effect`] the loop must carry out, and [`PickState::extend`] takes
//! the URLs that arrive while the scan goes on (the selection is kept by
//! entry, not by row, so it stays put as rows arrive or the filter
//! changes). No terminal here, so all of it is unit-tested.

use std::cell::Cell;
use urlsift::Form;

/// One URL of the list: a normalized URL, shown once.
///
/// Its URL and context share one allocation: a large mailbox makes tens of
/// thousands of entries, and their allocations were most of what the
/// picker cost beyond the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The URL as first written, then the context line.
    text: Box<str>,
    /// Where the URL ends in `text`.
    url_len: usize,
    /// How it was first written.
    pub form: Form,
    /// How many times it was found.
    pub count: u64,
    /// The URL a wrapper (a mail gateway's redirect) points to, shown
    /// beside it when known.
    target: Option<Box<str>>,
}

impl Entry {
    /// An entry found once.
    pub fn new(url: &str, form: Form, context: &str, target: Option<&str>) -> Entry {
        let mut text = String::with_capacity(url.len() + context.len());
        text.push_str(url);
        text.push_str(context);
        Entry {
            text: text.into_boxed_str(),
            url_len: url.len(),
            form,
            count: 1,
            target: target.map(Box::from),
        }
    }

    /// The URL as first written (its first reading).
    pub fn url(&self) -> &str {
        &self.text[..self.url_len]
    }

    /// One line about it: the raw line it stood in, or the anchor text of
    /// an HTML link when the search knows it.
    pub fn context(&self) -> &str {
        &self.text[self.url_len..]
    }

    /// Where a wrapper points, when it is one and its target is known.
    pub fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }

    /// Sets where the entry's URL points (a test's wrapper).
    #[cfg(test)]
    pub fn set_target(&mut self, target: &str) {
        self.target = Some(target.into());
    }
}

/// What the scanner thread sends: new entries in order of first
/// appearance, and more occurrences of entries already sent.
#[derive(Debug, Default)]
pub struct Batch {
    /// Entries seen for the first time (numbered after those sent).
    pub new: Vec<Entry>,
    /// (entry number, occurrences to add).
    pub counts: Vec<(usize, u64)>,
}

/// Where the scan is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scan {
    /// Still reading.
    Running,
    /// Finished (with the search's exit status).
    Done(i32),
    /// The scanner stopped without finishing.
    Stopped,
}

/// What a key asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Next row.
    Down,
    /// Previous row.
    Up,
    /// A screen down.
    PageDown,
    /// A screen up.
    PageUp,
    /// The first row.
    First,
    /// The last row.
    Last,
    /// Mark or unmark the selected URL.
    Mark,
    /// Act on the marked URLs, or the selected one.
    Act,
    /// As [`Action::Act`], on where wrapped links go (their targets)
    /// instead of the wrappers.
    ActTarget,
    /// Copy the selected URL.
    Copy,
    /// Show or hide the context lines.
    ToggleContext,
    /// Open the filter prompt.
    Filter,
    /// A character typed into the filter.
    Type(char),
    /// Delete the filter's last character.
    Backspace,
    /// Close the prompt, keep the filter.
    KeepFilter,
    /// Close the prompt, clear the filter.
    ClearFilter,
    /// Show or hide the help.
    Help,
    /// Leave.
    Quit,
}

/// What the loop must do after an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond drawing again.
    None,
    /// Open (or print) these URLs.
    Act(Vec<String>),
    /// Copy this URL.
    Copy(String),
    /// Leave.
    Quit,
}

/// Which keys apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Moving in the list.
    List,
    /// Typing into the filter.
    Filter,
    /// The help screen.
    Help,
}

/// The picker's state.
#[derive(Debug)]
pub struct PickState {
    entries: Vec<Entry>,
    marked: Vec<bool>,
    marks: usize,
    query: String,
    typing: bool,
    /// The entries the filter keeps, by number (ascending).
    view: Vec<usize>,
    /// The selected entry.
    sel: Option<usize>,
    /// First row shown and rows per screen: the drawing keeps them (it
    /// alone knows the screen's size).
    pub(super) top: Cell<usize>,
    pub(super) page: Cell<usize>,
    context: bool,
    help: bool,
    scan: Scan,
    note: Option<String>,
}

impl Default for PickState {
    fn default() -> Self {
        PickState::new()
    }
}

impl PickState {
    /// An empty list, the scan running, context shown.
    pub fn new() -> PickState {
        PickState {
            entries: Vec::new(),
            marked: Vec::new(),
            marks: 0,
            query: String::new(),
            typing: false,
            view: Vec::new(),
            sel: None,
            top: Cell::new(0),
            page: Cell::new(10),
            context: true,
            help: false,
            scan: Scan::Running,
            note: None,
        }
    }

    /// Adds what the scanner found.
    pub fn extend(&mut self, mut batch: Batch) {
        let first = self.entries.len();
        if self.query.is_empty() {
            self.view.extend(first..first + batch.new.len());
        } else {
            for (k, e) in batch.new.iter().enumerate() {
                if self.keeps(e) {
                    self.view.push(first + k);
                }
            }
        }
        // Moved in bulk, not one by one.
        self.entries.append(&mut batch.new);
        self.marked.resize(self.entries.len(), false);
        // (After the new ones: a count may be of an entry of this batch.)
        for (i, n) in batch.counts {
            if let Some(e) = self.entries.get_mut(i) {
                e.count += n;
            }
        }
        if self.sel.is_none() {
            self.sel = self.view.first().copied();
        }
    }

    /// Records the end of the scan.
    pub fn finish(&mut self, scan: Scan) {
        self.scan = scan;
    }

    /// Sets the status line's note (what an effect did).
    pub fn note(&mut self, note: impl Into<String>) {
        self.note = Some(note.into());
    }

    /// Carries out `action`; returns what the loop must do.
    pub fn apply(&mut self, action: Action) -> Effect {
        self.note = None;
        match action {
            Action::Down => self.step(1),
            Action::Up => self.step(-1),
            Action::PageDown => self.step(self.page.get().max(1) as isize),
            Action::PageUp => self.step(-(self.page.get().max(1) as isize)),
            Action::First => self.sel = self.view.first().copied(),
            Action::Last => self.sel = self.view.last().copied(),
            Action::Mark => {
                if let Some(i) = self.sel {
                    self.marked[i] = !self.marked[i];
                    if self.marked[i] {
                        self.marks += 1;
                    } else {
                        self.marks -= 1;
                    }
                }
            }
            Action::Act | Action::ActTarget => {
                // The wrapper is opened unless its target is asked for: the
                // wrapper is what the mail gateway logs and checks.
                let of = |e: &Entry| match (&action, e.target()) {
                    (Action::ActTarget, Some(t)) => t.to_owned(),
                    _ => e.url().to_owned(),
                };
                let urls: Vec<String> = if self.marks > 0 {
                    let urls = (self.marked.iter().enumerate())
                        .filter(|(_, &m)| m)
                        .map(|(i, _)| of(&self.entries[i]))
                        .collect();
                    self.marked.iter_mut().for_each(|m| *m = false);
                    self.marks = 0;
                    urls
                } else {
                    self.selected().map(of).into_iter().collect()
                };
                if urls.is_empty() {
                    self.note = Some("nothing to open".into());
                    return Effect::None;
                }
                return Effect::Act(urls);
            }
            Action::Copy => {
                return match self.selected() {
                    Some(e) => Effect::Copy(e.url().to_owned()),
                    None => Effect::None,
                }
            }
            Action::ToggleContext => self.context = !self.context,
            Action::Filter => self.typing = true,
            Action::Type(c) => {
                self.query.push(c);
                self.refilter();
            }
            Action::Backspace => {
                self.query.pop();
                self.refilter();
            }
            Action::KeepFilter => self.typing = false,
            Action::ClearFilter => {
                self.typing = false;
                self.query.clear();
                self.refilter();
            }
            Action::Help => self.help = !self.help,
            Action::Quit => return Effect::Quit,
        }
        Effect::None
    }

    /// Which keys apply now.
    pub fn mode(&self) -> Mode {
        if self.help {
            Mode::Help
        } else if self.typing {
            Mode::Filter
        } else {
            Mode::List
        }
    }

    /// All entries, in order of first appearance.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entries the filter keeps, by number.
    pub fn view(&self) -> &[usize] {
        &self.view
    }

    /// The selected entry's number.
    pub fn selection(&self) -> Option<usize> {
        self.sel
    }

    /// The selected entry.
    pub fn selected(&self) -> Option<&Entry> {
        self.sel.map(|i| &self.entries[i])
    }

    /// The selected entry's row in the view.
    pub fn selected_row(&self) -> Option<usize> {
        self.sel.and_then(|i| self.view.binary_search(&i).ok())
    }

    /// Whether entry `i` is marked.
    pub fn is_marked(&self, i: usize) -> bool {
        self.marked[i]
    }

    /// How many entries are marked.
    pub fn marks(&self) -> usize {
        self.marks
    }

    /// The filter's text.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// Whether the filter prompt is open.
    pub fn typing(&self) -> bool {
        self.typing
    }

    /// Whether context lines are shown.
    pub fn shows_context(&self) -> bool {
        self.context
    }

    /// Whether the help is shown.
    pub fn shows_help(&self) -> bool {
        self.help
    }

    /// Where the scan is.
    pub fn scan(&self) -> &Scan {
        &self.scan
    }

    /// The note of the last effect.
    pub fn last_note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    fn step(&mut self, by: isize) {
        let Some(last) = self.view.len().checked_sub(1) else {
            return;
        };
        let row = self.selected_row().unwrap_or(0) as isize;
        let row = (row + by).clamp(0, last as isize) as usize;
        self.sel = Some(self.view[row]);
    }

    /// Whether the filter keeps `e`: each word of the query, without
    /// regard to ASCII case, in its URL, target or context.
    fn keeps(&self, e: &Entry) -> bool {
        self.query.split_whitespace().all(|w| {
            [Some(e.url()), e.target(), Some(e.context())]
                .into_iter()
                .flatten()
                .any(|s| contains_ignore_case(s, w))
        })
    }

    fn refilter(&mut self) {
        let view: Vec<usize> = (0..self.entries.len())
            .filter(|&i| self.keeps(&self.entries[i]))
            .collect();
        self.view = view;
        // The selection stays on its entry when the filter keeps it, else
        // moves to the first entry after it that is kept.
        self.sel = match self.sel {
            Some(s) if self.view.binary_search(&s).is_ok() => Some(s),
            Some(s) => {
                let row = self.view.partition_point(|&i| i < s);
                self.view.get(row).or(self.view.last()).copied()
            }
            None => self.view.first().copied(),
        };
    }
}

fn contains_ignore_case(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn entry(url: &str, context: &str) -> Entry {
        Entry::new(url, Form::Bracketed, context, None)
    }

    fn filled(urls: &[&str]) -> PickState {
        let mut s = PickState::new();
        s.extend(Batch {
            new: urls.iter().map(|u| entry(u, "")).collect(),
            counts: vec![],
        });
        s
    }

    fn selected(s: &PickState) -> &str {
        s.selected().unwrap().url()
    }

    #[test]
    fn moves_and_jumps_within_the_list() {
        let mut s = filled(&["http://a/", "http://b/", "http://c/"]);
        assert_eq!(selected(&s), "http://a/");
        s.apply(Action::Up);
        assert_eq!(selected(&s), "http://a/");
        s.apply(Action::Down);
        s.apply(Action::Down);
        s.apply(Action::Down);
        assert_eq!(selected(&s), "http://c/");
        s.apply(Action::First);
        assert_eq!(selected(&s), "http://a/");
        s.apply(Action::Last);
        assert_eq!(selected(&s), "http://c/");
        s.page.set(2);
        s.apply(Action::PageUp);
        assert_eq!(selected(&s), "http://a/");
        s.apply(Action::PageDown);
        assert_eq!(selected(&s), "http://c/");
    }

    #[test]
    fn an_empty_list_does_nothing() {
        let mut s = PickState::new();
        for a in [Action::Down, Action::Last, Action::Mark, Action::Copy] {
            assert_eq!(s.apply(a), Effect::None);
        }
        assert_eq!(s.apply(Action::Act), Effect::None);
        assert_eq!(s.last_note(), Some("nothing to open"));
        assert_eq!(s.apply(Action::Quit), Effect::Quit);
    }

    #[test]
    fn opens_the_wrapper_unless_the_target_is_asked_for() {
        let mut s = PickState::new();
        let wrapper = "https://urldefense.com/v3/__https://example.com/__;!!x$";
        let mut e = entry(wrapper, "");
        e.set_target("https://example.com/");
        s.extend(Batch {
            new: vec![e, entry("http://plain.example/", "")],
            counts: vec![],
        });
        assert_eq!(s.apply(Action::Act), Effect::Act(vec![wrapper.into()]));
        assert_eq!(
            s.apply(Action::ActTarget),
            Effect::Act(vec!["https://example.com/".into()])
        );
        // A URL that is no wrapper is itself its target.
        s.apply(Action::Down);
        assert_eq!(
            s.apply(Action::ActTarget),
            Effect::Act(vec!["http://plain.example/".into()])
        );
    }

    #[test]
    fn acts_on_marked_in_list_order_else_selected() {
        let mut s = filled(&["http://a/", "http://b/", "http://c/"]);
        assert_eq!(s.apply(Action::Act), Effect::Act(vec!["http://a/".into()]));
        s.apply(Action::Last);
        s.apply(Action::Mark);
        s.apply(Action::First);
        s.apply(Action::Mark);
        s.apply(Action::Down);
        s.apply(Action::Mark);
        s.apply(Action::Mark); // unmarked again
        assert_eq!(s.marks(), 2);
        assert_eq!(
            s.apply(Action::Act),
            Effect::Act(vec!["http://a/".into(), "http://c/".into()])
        );
        assert_eq!(s.marks(), 0, "acting clears the marks");
        assert_eq!(s.apply(Action::Copy), Effect::Copy("http://b/".into()));
    }

    #[test]
    fn selection_stays_on_its_entry_as_urls_arrive() {
        let mut s = filled(&["http://a/", "http://b/"]);
        s.apply(Action::Down);
        s.extend(Batch {
            new: vec![entry("http://c/", "")],
            counts: vec![(0, 2), (2, 1)],
        });
        assert_eq!(selected(&s), "http://b/");
        assert_eq!(s.entries()[0].count, 3);
        assert_eq!(
            s.entries()[2].count,
            2,
            "a count of an entry of the same batch"
        );
        assert_eq!(s.view(), &[0, 1, 2]);
    }

    #[test]
    fn filter_as_you_type_keep_and_clear() {
        let mut s = PickState::new();
        s.extend(Batch {
            new: vec![
                entry("http://one.example/", "first"),
                entry("http://two.example/", "the Second line"),
                entry("ftp://three.example/", ""),
            ],
            counts: vec![],
        });
        s.apply(Action::Last);
        assert_eq!(s.apply(Action::Filter), Effect::None);
        assert_eq!(s.mode(), Mode::Filter);
        for c in "SECOND".chars() {
            s.apply(Action::Type(c));
        }
        assert_eq!(s.view(), &[1], "context matched, case ignored");
        assert_eq!(selected(&s), "http://two.example/");
        s.apply(Action::Backspace);
        assert_eq!(s.query(), "SECON");
        s.apply(Action::KeepFilter);
        assert_eq!((s.mode(), s.query()), (Mode::List, "SECON"));
        // New URLs pass through the kept filter.
        s.extend(Batch {
            new: vec![entry("http://second.example/", ""), entry("http://x/", "")],
            counts: vec![],
        });
        assert_eq!(s.view(), &[1, 3]);
        s.apply(Action::Filter);
        s.apply(Action::ClearFilter);
        assert_eq!(s.view(), &[0, 1, 2, 3, 4]);
        assert_eq!(selected(&s), "http://two.example/");
        // Words are each required.
        s.apply(Action::Filter);
        "ex one".chars().for_each(|c| {
            s.apply(Action::Type(c));
        });
        assert_eq!(s.view(), &[0]);
        // A filter that keeps nothing leaves no selection to act on.
        s.apply(Action::Type('z'));
        assert!(s.view().is_empty());
        assert_eq!(s.apply(Action::Act), Effect::None);
    }

    #[test]
    fn help_and_context_toggle() {
        let mut s = filled(&["http://a/"]);
        assert!(s.shows_context());
        s.apply(Action::ToggleContext);
        assert!(!s.shows_context());
        s.apply(Action::Help);
        assert_eq!(s.mode(), Mode::Help);
        s.apply(Action::Help);
        assert_eq!(s.mode(), Mode::List);
    }
}
