//! The ftp view (RFC 1738 section 3.2) and its FTP command sequence (3.2.2).

use crate::percent;
use std::borrow::Cow;
use std::fmt;

/// `ftptype = "A" | "I" | "D" | "a" | "i" | "d"` (3.2.2, 3.2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FtpType {
    /// `a`: ASCII transfer (`TYPE A`).
    Ascii,
    /// `i`: image/binary transfer (`TYPE I`).
    Image,
    /// `d`: directory listing (`NLST`).
    Directory,
}

impl FtpType {
    /// The type a `ftptype` byte names (any case), if it is one.
    pub(super) fn from_byte(b: u8) -> Option<FtpType> {
        match b {
            b'a' | b'A' => Some(FtpType::Ascii),
            b'i' | b'I' => Some(FtpType::Image),
            b'd' | b'D' => Some(FtpType::Directory),
            _ => None,
        }
    }
}

/// `ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]` (3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ftp<'a> {
    /// User name as written (encoded), if any.
    pub user: Option<&'a str>,
    /// Password as written (encoded), if any.
    pub password: Option<&'a str>,
    /// `fpath` as written, without `;type=`; `None` when the url-path is
    /// omitted.
    pub fpath: Option<&'a str>,
    /// The typecode, if given.
    pub typecode: Option<FtpType>,
}

impl<'a> Ftp<'a> {
    pub(crate) fn new(
        user: Option<&'a str>,
        password: Option<&'a str>,
        path: Option<&'a str>,
    ) -> Ftp<'a> {
        let (fpath, typecode) = match path {
            None => (None, None),
            Some(p) => match p.find(";type=") {
                Some(i) => (Some(&p[..i]), FtpType::from_byte(p.as_bytes()[i + 6])),
                None => (Some(p), None),
            },
        };
        Ftp {
            user,
            password,
            fpath,
            typecode,
        }
    }

    /// The `<cwd1>` .. `<cwdN>` segments, raw (still encoded).
    pub fn cwd(&self) -> impl Iterator<Item = &'a str> {
        let f = self.fpath.unwrap_or("");
        let cut = f.rfind('/').unwrap_or(0);
        let dirs = if f.contains('/') {
            Some(&f[..cut])
        } else {
            None
        };
        dirs.into_iter().flat_map(|d| d.split('/'))
    }

    /// The `<name>` segment, raw (still encoded); `""` when absent.
    pub fn name(&self) -> &'a str {
        let f = self.fpath.unwrap_or("");
        match f.rfind('/') {
            Some(i) => &f[i + 1..],
            None => f,
        }
    }

    /// The FTP commands of section 3.2.2: `USER`/`PASS` (`USER anonymous`
    /// and `PASS` with the user's e-mail address when no user is given,
    /// 3.2.1), one `CWD` per `<cwd>` segment (each decoded separately), then
    /// `NLST <name>` for `;type=d` or an empty name, else `TYPE` (when a
    /// typecode is given) and `RETR <name>`. A user without a password
    /// gets no `PASS` (the client prompts if asked, 3.2.1).
    pub fn commands(&self) -> Vec<FtpCommand<'a>> {
        let mut v = Vec::new();
        match self.user {
            None => {
                v.push(FtpCommand::UserAnonymous);
                v.push(FtpCommand::PassEmail);
            }
            Some(u) => {
                v.push(FtpCommand::User(percent::decode(u.as_bytes())));
                if let Some(p) = self.password {
                    v.push(FtpCommand::Pass(percent::decode(p.as_bytes())));
                }
            }
        }
        for d in self.cwd() {
            v.push(FtpCommand::Cwd(percent::decode(d.as_bytes())));
        }
        let name = self.name();
        if self.typecode == Some(FtpType::Directory) || name.is_empty() {
            let arg = if name.is_empty() {
                None
            } else {
                Some(percent::decode(name.as_bytes()))
            };
            v.push(FtpCommand::Nlst(arg));
        } else {
            if let Some(t) = self.typecode {
                v.push(FtpCommand::Type(t));
            }
            v.push(FtpCommand::Retr(percent::decode(name.as_bytes())));
        }
        v
    }
}

/// One FTP command of the section 3.2.2 interpretation; arguments decoded.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FtpCommand<'a> {
    /// `USER <name>`
    User(Cow<'a, [u8]>),
    /// `USER anonymous` (3.2.1)
    UserAnonymous,
    /// `PASS <password>`
    Pass(Cow<'a, [u8]>),
    /// `PASS` with the user's e-mail address (3.2.1); the client fills it in.
    PassEmail,
    /// `CWD <dir>` (possibly empty)
    Cwd(Cow<'a, [u8]>),
    /// `TYPE A` / `TYPE I`
    Type(FtpType),
    /// `RETR <name>`
    Retr(Cow<'a, [u8]>),
    /// `NLST [<name>]`
    Nlst(Option<Cow<'a, [u8]>>),
}

impl fmt::Display for FtpCommand<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        match self {
            FtpCommand::User(u) => write!(f, "USER {}", s(u)),
            FtpCommand::UserAnonymous => f.write_str("USER anonymous"),
            FtpCommand::Pass(p) => write!(f, "PASS {}", s(p)),
            FtpCommand::PassEmail => f.write_str("PASS <the user's e-mail address>"),
            FtpCommand::Cwd(d) => write!(f, "CWD {}", s(d)),
            FtpCommand::Type(FtpType::Ascii) => f.write_str("TYPE A"),
            FtpCommand::Type(FtpType::Image) => f.write_str("TYPE I"),
            FtpCommand::Type(FtpType::Directory) => f.write_str("TYPE D"),
            FtpCommand::Retr(n) => write!(f, "RETR {}", s(n)),
            FtpCommand::Nlst(None) => f.write_str("NLST"),
            FtpCommand::Nlst(Some(n)) => write!(f, "NLST {}", s(n)),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Specific, Url};

    fn cmds(u: &str) -> Vec<String> {
        let u = Url::parse(u).unwrap();
        let Specific::Ftp(f) = u.specific() else {
            panic!()
        };
        f.commands().iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn section_3_2_2() {
        assert_eq!(
            cmds("ftp://myname@host.dom/%2Fetc/motd"),
            ["USER myname", "CWD /etc", "RETR motd"]
        );
        assert_eq!(
            cmds("ftp://myname@host.dom/etc/motd"),
            ["USER myname", "CWD etc", "RETR motd"]
        );
        assert_eq!(
            cmds("ftp://myname@host.dom//etc/motd"),
            ["USER myname", "CWD ", "CWD etc", "RETR motd"]
        );
        assert_eq!(
            cmds("ftp://info.cern.ch/pub/www/doc;type=d"),
            [
                "USER anonymous",
                "PASS <the user's e-mail address>",
                "CWD pub",
                "CWD www",
                "NLST doc"
            ]
        );
        assert_eq!(cmds("ftp://h/a.txt;type=A")[2..], ["TYPE A", "RETR a.txt"]);
        assert_eq!(cmds("ftp://h")[2..], ["NLST"]);
        assert_eq!(cmds("ftp://u:p%40ss@h/")[..2], ["USER u", "PASS p@ss"]);
    }
}
