//! urlsift's derivatives: what an archive's URLs say, counted.
//!
//! For each URL found (its text, its message's date and its newsgroups or
//! mailing list, see [`Row`]), [`Derivatives`] counts:
//!
//! - URLs, distinct URLs and messages by year, month and scheme
//!   (`timeline.csv`);
//! - URLs by registrable domain (the Public Suffix List's ICANN section,
//!   [`registrable`]), with their hosts and first and last dates
//!   (`domains.csv`), and by year (`domains-by-year.csv`);
//! - URLs by group (or list) and domain, a graph for Gephi and other tools
//!   (`groups.csv`, `graph.gexf` with the years as spells,
//!   `graph.graphml`);
//! - the earliest URLs and the totals,
//!
//! and [`Tables`] writes them, with a self-contained HTML page drawing
//! them (`index.html`). Accumulators merge ([`Derivatives::merge`]) and
//! travel ([`Derivatives::to_bytes`]): the command counts each input apart
//! and a Spark job each partition, and both give the same bytes.
//!
//! ```
//! use urlsift::Timestamp;
//! use urlsift_report::{Derivatives, Row, Tables};
//! let t = Timestamp::parse_user("1994-12-19T14:12:00Z").ok();
//! let mut d = Derivatives::new();
//! d.add(&Row { url: "http://info.cern.ch/hypertext/WWW/TheProject.html", date: t,
//!              groups: &["comp.infosystems.www"], message: 1, input: 1 });
//! let back = Derivatives::from_bytes(&d.to_bytes()).unwrap();
//! let tables = Tables::new(&back);
//! assert_eq!(tables.timeline_csv(),
//!     "year,month,scheme,urls,distinct_urls,messages\n1994,12,http,1,1,1\n");
//! assert!(tables.domains_csv().ends_with("\ncern.ch,1,1,1,1994-12-19T14:12:00Z,1994-12-19T14:12:00Z,http://info.cern.ch/hypertext/WWW/TheProject.html\n"));
//! ```

mod accum;
mod domain;
mod hash;
mod page;
mod tables;
mod wire;

pub use accum::{groups_of, input_key, message_key, Derivatives, Period, Row, Years, EARLIEST};
pub use domain::{host_of, registrable};
pub use hash::hash;
pub use page::render;
pub use tables::{DomainRow, GroupRow, Tables, TimelineRow, Totals};
pub use wire::WireError;
