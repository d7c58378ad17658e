//! `--unwrap`: what the printer shows of a wrapped link (Safe Links,
//! Proofpoint, ...: `urlsift::unwrap` reads them). Plain output, `-u`,
//! `--tally`, `--scheme` and `-m` work on the target; JSON keeps `url` as
//! found and adds `target` and `via`; `--invalid` shows the wrappers whose
//! target was not recovered.

use std::io::Write;

use urlsift::{Match, UnwrapError, Unwrapped};

use super::{json_lines_field, json_opt, json_str, put_date, put_place, InputName, Printer, Recs};
use crate::args::Mode;

/// What is printed for a reading: its target when it has one, else the
/// reading itself.
pub fn shown<'a>(unwrapped: Option<&'a Unwrapped>, reading: &'a [u8]) -> &'a [u8] {
    match unwrapped.and_then(Unwrapped::target) {
        Some(target) => target.as_bytes(),
        None => reading,
    }
}

/// `,"target":...,"via":[...]` of a JSON object (`null` and `[]` for a
/// link that is no wrapper, `None`).
pub fn json_fields(out: &mut Vec<u8>, u: Option<&Unwrapped>) {
    let Some(u) = u else {
        // Nearly every URL: no wrapper, written at once.
        out.extend_from_slice(b",\"target\":null,\"via\":[]");
        return;
    };
    out.extend_from_slice(b",\"target\":");
    json_opt(out, u.target());
    out.extend_from_slice(b",\"via\":[");
    for (i, kind) in u.via().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        json_str(out, kind);
    }
    out.push(b']');
}

impl Printer {
    /// With `--invalid --unwrap`: each reading of a valid match that is a
    /// wrapper whose target was not recovered, with the reason (as
    /// rejected candidates are printed).
    pub(super) fn push_unwrap_failures(
        &self,
        recs: &mut Recs,
        name: &InputName,
        m: &Match,
        lines: Option<&[u8]>,
    ) {
        for reading in m.readings(self.hyphen) {
            let Some(u) = urlsift::wrapped(reading) else {
                continue;
            };
            let Some(error) = u.error() else {
                continue;
            };
            if !self.schemes.is_empty() && !self.scheme_ok(super::candidate_scheme(reading)) {
                continue;
            }
            if let Some(n) = self.max_count {
                if recs.count >= n && !self.unique {
                    return;
                }
            }
            match self.mode {
                Mode::Count | Mode::FilesWithMatches | Mode::Report => {}
                Mode::Tally(_) => {
                    put_place(recs, m);
                    put_date(recs, m);
                    recs.body.extend_from_slice(reading);
                }
                Mode::Plain => {
                    self.lead(recs, name, m, true);
                    let out = &mut recs.body;
                    self.style.open(out, super::color::Paint::Match);
                    out.extend_from_slice(reading);
                    self.style.close(out);
                    out.push(b'\t');
                    let _ = write!(out, "{error}");
                    out.push(b'\n');
                }
                Mode::Json => {
                    let Ok(url) = urlsift::Url::parse_with(reading, self.policy) else {
                        continue;
                    };
                    self.json_url(recs, name, m, &url, Some(&u));
                    let out = &mut recs.body;
                    out.truncate(out.len() - 2); // the object's `}\n`
                    out.extend_from_slice(b",\"decoded\":");
                    json_opt(out, u.decoded());
                    out.extend_from_slice(b",\"reason\":");
                    json_str(out, &error.to_string());
                    match error {
                        UnwrapError::Parse(e) => {
                            let _ = writeln!(out, ",\"error_offset\":{}}}", e.offset());
                        }
                        _ => out.extend_from_slice(b",\"error_offset\":null}\n"),
                    }
                    json_lines_field(out, lines, m.charset());
                }
            }
            self.record(recs, || String::from_utf8_lossy(reading).into_owned());
        }
    }
}
