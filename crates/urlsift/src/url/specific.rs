//! Typed scheme-specific views of a [`Url`] (RFC 1738 sections 3.2-3.11).

use super::{Ftp, Scheme, Url};

/// The scheme-specific part of a URL, by scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Specific<'a> {
    /// 3.3
    Http(Http<'a>),
    /// 3.2
    Ftp(Ftp<'a>),
    /// 3.4
    Gopher(Gopher<'a>),
    /// 3.5: `encoded822addr`
    Mailto {
        /// The address as written (encoded).
        address: &'a str,
    },
    /// 3.6
    News(News<'a>),
    /// 3.7: `"nntp://" hostport "/" group [ "/" digits ]`
    Nntp {
        /// The newsgroup.
        group: &'a str,
        /// The article number.
        article: Option<&'a str>,
    },
    /// 3.8: `"telnet://" login [ "/" ]`
    Telnet {
        /// User name (encoded).
        user: Option<&'a str>,
        /// Password (encoded).
        password: Option<&'a str>,
        /// Host.
        host: &'a str,
        /// Port digits.
        port: Option<&'a str>,
    },
    /// 3.9
    Wais(Wais<'a>),
    /// 3.10: `"file://" [ host | "localhost" ] "/" fpath`
    File {
        /// Host; `None` for `file:///path`.
        host: Option<&'a str>,
        /// The fpath (after the `/`).
        path: &'a str,
    },
    /// 3.11
    Prospero(Prospero<'a>),
    /// Any other scheme: `genericurl`.
    Generic {
        /// The schemepart (after `:`, before `#`).
        schemepart: &'a str,
    },
}

/// `httpurl = "http://" hostport [ "/" hpath [ "?" search ]]` (3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Http<'a> {
    /// `hpath` (after the `/`), if the `/` is there.
    pub hpath: Option<&'a str>,
    /// `search` (after the `?`).
    pub search: Option<&'a str>,
}

impl<'a> Http<'a> {
    /// The `hsegment`s, raw.
    pub fn segments(&self) -> impl Iterator<Item = &'a str> {
        self.hpath.into_iter().flat_map(|p| p.split('/'))
    }
}

/// `gopherurl` (3.4): `gtype`, `selector`, `"%09" search`, `"%09" gopher+_string`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gopher<'a> {
    /// The gopher-path (after the `/`), raw.
    pub path: Option<&'a str>,
}

impl<'a> Gopher<'a> {
    /// `gtype`: the first byte of the path, `b'1'` (a directory) when the
    /// path is empty (3.4).
    pub fn gopher_type(&self) -> u8 {
        self.path.and_then(|p| p.bytes().next()).unwrap_or(b'1')
    }

    fn pieces(&self) -> [Option<&'a str>; 3] {
        let rest = self.path.and_then(|p| p.get(1..)).unwrap_or("");
        let mut it = rest.splitn(3, "%09");
        [it.next(), it.next(), it.next()]
    }

    /// `selector`, raw (up to the first `%09`).
    pub fn selector(&self) -> &'a str {
        self.pieces()[0].unwrap_or("")
    }

    /// `search`, raw (between the first and second `%09`).
    pub fn search(&self) -> Option<&'a str> {
        self.pieces()[1]
    }

    /// `gopher+_string`, raw (after the second `%09`).
    pub fn gopher_plus(&self) -> Option<&'a str> {
        self.pieces()[2]
    }
}

/// `grouppart = "*" | group | article` (3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum News<'a> {
    /// `news:*`: all groups.
    All,
    /// A newsgroup name.
    Group(&'a str),
    /// A message-id (without `<` `>`), `unique@host`.
    Article(&'a str),
}

/// `waisurl = waisdatabase | waisindex | waisdoc` (3.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wais<'a> {
    /// `"wais://" hostport "/" database`
    Database {
        /// database
        database: &'a str,
    },
    /// `"wais://" hostport "/" database "?" search`
    Index {
        /// database
        database: &'a str,
        /// search
        search: &'a str,
    },
    /// `"wais://" hostport "/" database "/" wtype "/" wpath`
    Doc {
        /// database
        database: &'a str,
        /// wtype
        wtype: &'a str,
        /// wpath
        wpath: &'a str,
    },
}

/// `prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]` (3.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Prospero<'a> {
    /// The `hsoname` (`ppath`), raw; may start with `/`.
    pub hsoname: &'a str,
    /// The raw `*[ fieldspec ]`, starting with `;` (or empty).
    pub fieldspecs: &'a str,
}

impl<'a> Prospero<'a> {
    /// The `(fieldname, fieldvalue)` pairs, raw.
    pub fn fields(&self) -> ProsperoFields<'a> {
        ProsperoFields {
            rest: self.fieldspecs,
        }
    }
}

/// Iterator over Prospero `;name=value` fields.
#[derive(Clone, Debug)]
pub struct ProsperoFields<'a> {
    rest: &'a str,
}

impl<'a> Iterator for ProsperoFields<'a> {
    type Item = (&'a str, &'a str);
    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        let r = self.rest.strip_prefix(';')?;
        let end = r.find(';').unwrap_or(r.len());
        let (spec, rest) = r.split_at(end);
        self.rest = rest;
        let eq = spec.find('=').unwrap_or(spec.len());
        Some((&spec[..eq], spec.get(eq + 1..).unwrap_or("")))
    }
}

pub(super) fn specific<'a>(u: &Url<'a>) -> Specific<'a> {
    let path = u.path();
    let sp = u.schemepart();
    match u.scheme_kind() {
        Scheme::Http => {
            let (hpath, search) = match path {
                None => (None, None),
                Some(p) => match p.find('?') {
                    Some(i) => (Some(&p[..i]), Some(&p[i + 1..])),
                    None => (Some(p), None),
                },
            };
            Specific::Http(Http { hpath, search })
        }
        Scheme::Ftp => Specific::Ftp(Ftp::new(u.user(), u.password(), path)),
        Scheme::Gopher => Specific::Gopher(Gopher { path }),
        Scheme::Mailto => Specific::Mailto { address: sp },
        Scheme::News => Specific::News(if sp == "*" {
            News::All
        } else if sp.contains('@') {
            News::Article(sp)
        } else {
            News::Group(sp)
        }),
        Scheme::Nntp => {
            let p = path.unwrap_or("");
            let (group, article) = match p.find('/') {
                Some(i) => (&p[..i], Some(&p[i + 1..])),
                None => (p, None),
            };
            Specific::Nntp { group, article }
        }
        Scheme::Telnet => Specific::Telnet {
            user: u.user(),
            password: u.password(),
            host: u.host_str().unwrap_or(""),
            port: u.port_str(),
        },
        Scheme::Wais => {
            let p = path.unwrap_or("");
            let cut = p.find(['?', '/']).unwrap_or(p.len());
            let database = &p[..cut];
            Specific::Wais(match p.as_bytes().get(cut) {
                Some(b'?') => Wais::Index {
                    database,
                    search: &p[cut + 1..],
                },
                Some(_) => {
                    let rest = &p[cut + 1..];
                    let j = rest.find('/').unwrap_or(rest.len());
                    Wais::Doc {
                        database,
                        wtype: &rest[..j],
                        wpath: rest.get(j + 1..).unwrap_or(""),
                    }
                }
                None => Wais::Database { database },
            })
        }
        Scheme::File => Specific::File {
            host: u.host_str(),
            path: path.unwrap_or(""),
        },
        Scheme::Prospero => {
            let p = path.unwrap_or("");
            let cut = p.find(';').unwrap_or(p.len());
            Specific::Prospero(Prospero {
                hsoname: &p[..cut],
                fieldspecs: &p[cut..],
            })
        }
        Scheme::Other => Specific::Generic { schemepart: sp },
    }
}

pub(super) fn components<'a>(u: &Url<'a>) -> Vec<(&'static str, &'a str)> {
    let mut v: Vec<(&'static str, &'a str)> = Vec::new();
    let login = |v: &mut Vec<(&'static str, &'a str)>| {
        if let Some(x) = u.user() {
            v.push(("user", x));
        }
        if let Some(x) = u.password() {
            v.push(("password", x));
        }
        if let Some(x) = u.host_str() {
            v.push(("host", x));
        }
        if let Some(x) = u.port_str() {
            v.push(("port", x));
        }
    };
    match u.specific() {
        Specific::Http(h) => {
            login(&mut v);
            if let Some(p) = h.hpath {
                v.push(("path", p));
            }
            if let Some(s) = h.search {
                v.push(("search", s));
            }
        }
        Specific::Ftp(f) => {
            login(&mut v);
            if let Some(p) = f.fpath {
                v.push(("path", p));
            }
            if let Some(p) = u.path() {
                if let Some(i) = p.find(";type=") {
                    v.push(("typecode", &p[i + 6..]));
                }
            }
        }
        Specific::Gopher(g) => {
            login(&mut v);
            if let Some(p) = g.path {
                if !p.is_empty() {
                    v.push(("gtype", &p[..1]));
                    v.push(("selector", g.selector()));
                }
            }
            if let Some(s) = g.search() {
                v.push(("search", s));
            }
            if let Some(s) = g.gopher_plus() {
                v.push(("gopher+", s));
            }
        }
        Specific::Mailto { address } => v.push(("address", address)),
        Specific::News(News::All) => v.push(("group", "*")),
        Specific::News(News::Group(g)) => v.push(("group", g)),
        Specific::News(News::Article(a)) => v.push(("article", a)),
        Specific::Nntp { group, article } => {
            login(&mut v);
            v.push(("group", group));
            if let Some(a) = article {
                v.push(("article", a));
            }
        }
        Specific::Telnet { .. } => login(&mut v),
        Specific::Wais(w) => {
            login(&mut v);
            match w {
                Wais::Database { database } => v.push(("database", database)),
                Wais::Index { database, search } => {
                    v.push(("database", database));
                    v.push(("search", search));
                }
                Wais::Doc {
                    database,
                    wtype,
                    wpath,
                } => {
                    v.push(("database", database));
                    v.push(("wtype", wtype));
                    v.push(("wpath", wpath));
                }
            }
        }
        Specific::File { host, path } => {
            if let Some(h) = host {
                v.push(("host", h));
            }
            v.push(("path", path));
        }
        Specific::Prospero(p) => {
            login(&mut v);
            v.push(("hsoname", p.hsoname));
            if !p.fieldspecs.is_empty() {
                v.push(("fields", p.fieldspecs));
            }
        }
        Specific::Generic { schemepart } => {
            if u.host_str().is_some() {
                login(&mut v);
                if let Some(p) = u.path() {
                    v.push(("path", p));
                }
            } else {
                v.push(("schemepart", schemepart));
            }
        }
    }
    if let Some(f) = u.fragment() {
        v.push(("fragment", f));
    }
    v
}
