//! Parse throughput over a mix of all schemes (about 30 URLs).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use urlsift::{Policy, Url};

const URLS: &[&str] = &[
    "http://www.acl.lanl.gov/URI/archive/uri-archive.index.html",
    "http://ds.internic.net/instructions/overview.html#WARNING",
    "http://www.example.com:8080/cgi-bin/search?q=rfc+1738&lang=en",
    "http://10.0.0.1/index.html",
    "HTTP://Host.Example.ORG/~user/page.html",
    "http://h/a/b/c/d/e/f?x/y?z",
    "ftp://info.cern.ch/pub/www/doc;type=d",
    "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
    "ftp://myname@host.dom/%2Fetc/motd",
    "ftp://user:secret@ftp.example.com:2121/pub/file.tar.gz;type=i",
    "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
    "gopher://gopher.micro.umn.edu:70/11/Information%20About%20Gopher",
    "gopher://h/7search%09query%09+",
    "mailto:someone@example.com",
    "mailto:a.b%40c@d.example",
    "news:comp.infosystems.www.misc",
    "news:*",
    "news:1234.5678@news.example.com",
    "nntp://news.example.com/comp.lang.rust/12345",
    "telnet://guest:guest@bbs.example.com:2323/",
    "telnet://library.example.edu",
    "wais://quake.think.com/directory-of-servers?rust",
    "wais://wais.example.com:210/db/TEXT/doc-id-123",
    "file://vms.host.edu/disk$user/my/notes/note12345.txt",
    "file:///etc/motd",
    "prospero://host.dom//pros/name",
    "prospero://pros.example.com:1525/a/b;attr=val;x=y",
    "urn:isbn:0-395-36341-1",
    "x-custom+scheme://user@host.example:99/path/to/it",
    "ftp://a-very-long-host-name.with.many.labels.example.co.uk/a/b/c/d/e/f/g/h/i/j/k/readme.txt",
];

const LENIENT_ONLY: [usize; 2] = [4, 5];

fn bench(c: &mut Criterion) {
    let bytes: usize = URLS.iter().map(|u| u.len()).sum();
    let mut g = c.benchmark_group("parse");
    g.throughput(Throughput::Bytes(bytes as u64));
    for policy in [Policy::Lenient, Policy::Strict] {
        g.bench_function(format!("mix{}-{:?}", URLS.len(), policy), |b| {
            b.iter(|| {
                for (i, u) in URLS.iter().enumerate() {
                    let url = Url::parse_with(black_box(u.as_bytes()), policy);
                    // URLs 4 and 5 use the lenient deviations ('~', '/' and '?' in search).
                    let want = policy == Policy::Lenient || !LENIENT_ONLY.contains(&i);
                    assert_eq!(url.is_ok(), want, "{u}");
                    black_box(url.ok());
                }
            })
        });
    }
    g.finish();
    eprintln!(
        "{} URLs, {} bytes per iteration: ns/URL = time / {}",
        URLS.len(),
        bytes,
        URLS.len()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
