//! Drawing: a function of the state into a buffer, so that what the screen
//! shows is tested on ratatui's test backend.
//!
//! ```text
//! * 3× http://one.example/a/very/long/pa…/the/end.html        bracketed
//!        the raw line the URL stood in, or the link's text
//!      http://two.example/                                      naked
//! http://one.example/a/very/long/path/in/full/the/end.html      (status)
//! /filter   2/2 of 2 · 1 marked · done · ? help                 (bar)
//! ```

use super::keymap::HELP;
use super::state::{PickState, Scan};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// How things look: colours, or (`NO_COLOR`) only reverse video and bold.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    /// Whether colours are used.
    pub color: bool,
}

impl Look {
    fn fg(self, c: Color) -> Style {
        if self.color {
            Style::default().fg(c)
        } else {
            Style::default()
        }
    }
}

/// Columns before the URL: the mark and the count.
const LEAD: usize = 8;
/// Columns of the form at the right ("bracketed" and a space).
const FORM: usize = 10;

/// `s` in at most `width` columns: cut in the middle, where a URL says
/// least (its host and its end are what a person checks).
pub fn shorten(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n <= width {
        return s.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let head = (width - 1).div_ceil(2);
    let tail = width - 1 - head;
    let mut out: String = s.chars().take(head).collect();
    out.push('…');
    out.extend(s.chars().skip(n - tail));
    out
}

/// Draws the picker into `buf` over `area`. Keeps the scroll position and
/// the page size in the state (the state's page moves use them).
pub fn render(state: &PickState, area: Rect, buf: &mut Buffer, look: Look) {
    if area.width == 0 || area.height == 0 {
        return;
    }
    if state.shows_help() {
        return help(area, buf, look);
    }
    let w = area.width as usize;
    // The status line holds the selected URL whole, wrapped over as many
    // rows as it needs (at most a third of the screen).
    let full = state.selected().map(|e| match e.target() {
        Some(t) => format!("{} → {}", e.url(), t),
        None => e.url().to_owned(),
    });
    let need = full
        .as_ref()
        .map_or(1, |f| f.chars().count().div_ceil(w).max(1));
    let status_rows = need.min((area.height as usize / 3).max(1));
    let list_rows = (area.height as usize).saturating_sub(status_rows + 1);
    let per = if state.shows_context() { 2 } else { 1 };
    let page = (list_rows / per).max(1);
    state.page.set(page);
    let view = state.view();
    let row = state.selected_row().unwrap_or(0);
    let mut top = state.top.get().min(view.len().saturating_sub(1));
    if row < top {
        top = row;
    } else if row >= top + page {
        top = row + 1 - page;
    }
    state.top.set(top);

    let url_w = w.saturating_sub(LEAD + FORM).max(8);
    let mut y = area.y;
    let end = area.y + list_rows as u16;
    for (r, &i) in view.iter().enumerate().skip(top).take(page) {
        if y >= end {
            break;
        }
        let e = &state.entries()[i];
        let selected = r == row && state.selection() == Some(i);
        let mark = if state.is_marked(i) { "*" } else { " " };
        let count = if e.count > 1 {
            format!("{}×", e.count)
        } else {
            String::new()
        };
        let shown = match e.target() {
            Some(t) => {
                let half = url_w.saturating_sub(3) / 2;
                format!("{} → {}", shorten(e.url(), half), shorten(t, half))
            }
            None => shorten(e.url(), url_w),
        };
        // The form right-aligned at the screen's edge.
        let form = e.form.as_str();
        let pad = url_w.saturating_sub(shown.chars().count()) + FORM - form.len();
        let line = Line::from(vec![
            Span::styled(
                format!("{mark} "),
                look.fg(Color::Green).add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!("{count:>5} "), look.fg(Color::Yellow)),
            Span::raw(shown),
            Span::raw(" ".repeat(pad)),
            Span::styled(form, look.fg(Color::Cyan)),
        ]);
        let style = if selected {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        buf.set_style(Rect::new(area.x, y, area.width, 1), style);
        buf.set_line(area.x, y, &line, area.width);
        y += 1;
        if per == 2 && y < end {
            let ctx = Line::from(Span::styled(
                format!("{}{}", " ".repeat(LEAD), e.context()),
                look.fg(Color::DarkGray).add_modifier(Modifier::DIM),
            ));
            buf.set_line(area.x, y, &ctx, area.width);
            y += 1;
        }
    }
    if view.is_empty() && list_rows > 0 {
        let msg = match (state.scan(), state.query().is_empty()) {
            (Scan::Running, _) => "reading…",
            (_, true) => "no URLs",
            (_, false) => "no URL matches the filter",
        };
        buf.set_string(area.x + 2, area.y, msg, Style::default());
    }

    let status = Rect::new(
        area.x,
        area.y + list_rows as u16,
        area.width,
        status_rows as u16,
    );
    Paragraph::new(full.unwrap_or_default())
        .style(look.fg(Color::Blue).add_modifier(Modifier::BOLD))
        .wrap(Wrap { trim: false })
        .render(status, buf);

    bar(
        state,
        Rect::new(area.x, area.bottom() - 1, area.width, 1),
        buf,
        look,
    );
}

/// The last line: the filter or the last note at the left, where the list
/// stands at the right.
fn bar(state: &PickState, area: Rect, buf: &mut Buffer, look: Look) {
    let left = if state.typing() {
        format!("/{}▏", state.query())
    } else if let Some(note) = state.last_note() {
        note.to_string()
    } else if !state.query().is_empty() {
        format!("filter: {}", state.query())
    } else {
        String::new()
    };
    let row = state.selected_row().map_or(0, |r| r + 1);
    let mut right = format!("{}/{}", row, state.view().len());
    if state.view().len() != state.entries().len() {
        right += &format!(" of {}", state.entries().len());
    }
    if state.marks() > 0 {
        right += &format!(" · {} marked", state.marks());
    }
    right += match state.scan() {
        Scan::Running => " · reading…",
        Scan::Done(_) => " · done",
        Scan::Stopped => " · the search stopped",
    };
    right += " · ? help ";
    buf.set_style(area, Style::default().add_modifier(Modifier::REVERSED));
    let rw = right.chars().count() as u16;
    let x = area.right().saturating_sub(rw).max(area.x);
    buf.set_stringn(x, area.y, &right, area.width as usize, Style::default());
    let lw = (x - area.x).saturating_sub(1) as usize;
    buf.set_stringn(area.x, area.y, &left, lw, look.fg(Color::Yellow));
}

fn help(area: Rect, buf: &mut Buffer, look: Look) {
    let mut lines = vec![
        Line::from(Span::styled(
            "urlsift --pick: keys",
            Style::default().add_modifier(Modifier::BOLD),
        )),
        Line::raw(""),
    ];
    for (k, what) in HELP {
        lines.push(Line::from(vec![
            Span::styled(format!("  {k:<11}"), look.fg(Color::Yellow)),
            Span::raw(*what),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(Line::raw("Any of q, Esc, ? or Enter closes this help."));
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .render(area, buf);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pick::state::{Action, Batch, Entry};
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;
    use urlsift::Form;

    fn entry(url: &str, count: u64, form: Form, context: &str) -> Entry {
        let mut e = Entry::new(url, form, context, None);
        e.count = count;
        e
    }

    fn state() -> PickState {
        let mut s = PickState::new();
        s.extend(Batch {
            new: vec![
                entry(
                    "http://one.example/",
                    3,
                    Form::Wrapped,
                    "see <URL:http://one.example/>",
                ),
                entry(
                    "http://two.example/a/very/long/path/that/does/not/fit/the/end.html",
                    1,
                    Form::Naked,
                    "read http://two.example/a/very/long/path",
                ),
            ],
            counts: vec![],
        });
        s
    }

    /// The screen as text lines (one per row, trailing spaces kept).
    fn screen(s: &PickState, w: u16, h: u16, color: bool) -> (Vec<String>, Buffer) {
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| render(s, f.area(), f.buffer_mut(), Look { color }))
            .unwrap();
        let buf = t.backend().buffer().clone();
        let lines: Vec<String> = (0..h)
            .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect())
            .collect();

        (lines, buf)
    }

    #[test]
    fn shorten_cuts_in_the_middle() {
        assert_eq!(shorten("http://a.b/", 20), "http://a.b/");
        assert_eq!(shorten("http://example.org/abcdef", 11), "http:…bcdef");
        assert_eq!(shorten("abcdef", 1), "…");
        assert_eq!(shorten("abcdef", 0), "");
        assert_eq!(shorten("http://example.org/abcdef", 12).chars().count(), 12);
    }

    #[test]
    fn the_list_with_context_status_and_bar() {
        let mut s = state();
        s.finish(Scan::Done(0));
        let (lines, buf) = screen(&s, 50, 8, true);
        let want = [
            "     3× http://one.example/                wrapped",
            "        see <URL:http://one.example/>",
            "        http://two.examp…it/the/end.html     naked",
            "        read http://two.example/a/very/long/path",
            "",
            "",
            "http://one.example/",
            "                              1/2 · done · ? help",
        ];
        for (got, want) in lines.iter().zip(want) {
            assert_eq!(got.trim_end(), want);
        }
        // The selected row is in reverse video, the count in yellow.
        assert!(buf[(10, 0)].modifier.contains(Modifier::REVERSED));
        assert!(!buf[(10, 2)].modifier.contains(Modifier::REVERSED));
        assert_eq!(buf[(4, 0)].fg, Color::Yellow);
    }

    #[test]
    fn no_color_uses_no_colours() {
        let s = state();
        let (_, buf) = screen(&s, 50, 8, false);
        for y in 0..8 {
            for x in 0..50 {
                assert_eq!(buf[(x, y)].fg, Color::Reset, "({x},{y})");
            }
        }
        assert!(buf[(10, 0)].modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn selection_whole_in_the_status_marks_and_filter() {
        let mut s = state();
        s.apply(Action::ToggleContext);
        s.apply(Action::Down);
        s.apply(Action::Mark);
        s.apply(Action::Filter);
        s.apply(Action::Type('t'));
        let (lines, _) = screen(&s, 40, 8, true);
        assert_eq!(
            lines[0].trim_end(),
            "     3× http://one.example/      wrapped"
        );
        assert_eq!(
            lines[1].trim_end(),
            "*       http://two.…e/end.html     naked"
        );
        // The long URL wraps whole over the status rows (a third of the
        // screen at most: two rows here, so its end is cut).
        assert_eq!(lines[5], "http://two.example/a/very/long/path/that");
        assert_eq!(lines[6].trim_end(), "/does/not/fit/the/end.html");
        assert!(lines[7].starts_with("/t▏"));
        assert!(lines[7].contains("2/2 · 1 marked · reading…"));
    }

    #[test]
    fn scrolls_to_keep_the_selection_in_sight() {
        let mut s = PickState::new();
        s.extend(Batch {
            new: (0..20)
                .map(|i| entry(&format!("http://h{i}.example/"), 1, Form::Href, ""))
                .collect(),
            counts: vec![],
        });
        s.apply(Action::ToggleContext);
        s.apply(Action::Last);
        let (lines, _) = screen(&s, 40, 6, true);
        // 4 list rows: the last four URLs.
        assert!(lines[0].contains("http://h16.example/"));
        assert!(lines[3].contains("http://h19.example/"));
        assert_eq!(lines[4].trim_end(), "http://h19.example/");
        assert!(lines[5].contains("20/20"));
        s.apply(Action::PageUp);
        let (lines, _) = screen(&s, 40, 6, true);
        assert!(lines[0].contains("http://h15.example/"), "{lines:?}");
        assert_eq!(lines[4].trim_end(), "http://h15.example/");
        assert!(lines[5].contains("16/20"));
        s.apply(Action::First);
        let (lines, _) = screen(&s, 40, 6, true);
        assert!(lines[0].contains("http://h0.example/"));
    }

    #[test]
    fn help_lists_the_keys() {
        let mut s = state();
        s.apply(Action::Help);
        let (lines, _) = screen(&s, 70, 18, true);
        let text = lines.join("\n");
        for (k, what) in HELP {
            assert!(text.contains(k) && text.contains(what), "{k}");
        }
    }

    #[test]
    fn tiny_and_empty_screens_do_not_panic() {
        let s = state();
        for (w, h) in [(1, 1), (5, 2), (0, 0), (12, 3)] {
            let mut b = Buffer::empty(Rect::new(0, 0, w, h));
            render(&s, b.area, &mut b, Look { color: true });
        }
        let (lines, _) = screen(&PickState::new(), 30, 4, true);
        assert_eq!(lines[0].trim_end(), "  reading…");
    }
}
