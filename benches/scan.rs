//! Scanning throughput on deterministic mail-like text (~8 MiB built here
//! from templates: headers with Message-IDs and addresses, quoted replies,
//! broken, hyphen-broken and quoted URLs, decoys, plain prose). No files
//! outside the repository are read. Single thread; the match count is
//! asserted inside the timed loop.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use urlsift::{Extractor, Scanner};

const PROSE: &[&str] = &[
    "The quick brown fox jumps over the lazy dog, and then some more words follow here.\n",
    "We discussed the proposal at length; nobody objected to the new wording of section 3.\n",
    "If a < b and b > c then nothing at all follows from that, as everybody knows.\n",
    "Please send comments to the list rather than to me personally, thanks in advance.\n",
    "\n",
];

/// Templates with (text, number of URLs it holds under the default policy).
const PLANTED: &[(&str, usize)] = &[
    ("See <URL:ftp://info.cern.ch/pub/www/doc;\n      type=d> and <URL:ftp://ds.in\n   ternic.net/rfc>.\n", 2),
    ("> The page is <URL:http://www.w3.org/hyper\n> text/WWW/TheProject.html> today.\n", 1),
    (">> old: <http://www.example.com/a-\n>> b/c.html>\n", 1),
    ("> > rewrapped <URL:http://www.mail-archive.com/linux-\n> media@vger.kernel.org/msg1.html>\n", 1),
    ("Mail me at <jane@example.org> or <mailto:jane@example.org>.\n", 1),
    ("<html><b>bold</b> <a href=\"x\">y</a></html> and <news:comp.infosystems.www>\n", 1),
    ("unclosed <URL:http://a.example/never\n\nclosed> but <gopher://gopher.example.com/1>\n", 1),
    ("tilde <http://www.example.edu/~user/> search <http://a.example/cgi?u=/x?y>\n", 2),
    ("frag <URL:http://www.example.com/doc.html#sec\n tion-2> decoy <Re: hello> map<std::string, int>\n", 1),
];

const HEADER: &str = "From alice@example.org Mon Jan  2 10:00:00 1995\n\
From: Alice <alice@example.org>\nTo: list@example.net\nSubject: Re: URLs\n\
Message-ID: <1995Jan2.100000.123@host.example.org>\n\
References: <abc.123@news.example.net> <def.456@news.example.net>\n\n";

/// ~`size` bytes of mail and the number of URLs in it.
fn corpus(size: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(size + 4096);
    let mut urls = 0;
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    while out.len() < size {
        out.extend_from_slice(HEADER.as_bytes());
        for _ in 0..20 {
            if next(4) == 0 {
                let (t, n) = PLANTED[next(PLANTED.len())];
                out.extend_from_slice(t.as_bytes());
                urls += n;
            } else {
                let p = PROSE[next(PROSE.len())];
                if next(3) == 0 {
                    out.extend_from_slice(b"> ");
                }
                out.extend_from_slice(p.as_bytes());
            }
        }
    }
    (out, urls)
}

fn bench(c: &mut Criterion) {
    let (data, urls) = corpus(8 << 20);
    let scanner = Scanner::new();
    assert_eq!(scanner.extract(&data).len(), urls);

    let mut g = c.benchmark_group("scan-mail-8MiB");
    g.throughput(Throughput::Bytes(data.len() as u64));
    g.sample_size(10);
    g.bench_function("Scanner::extract", |b| {
        b.iter(|| {
            let n = scanner.extract(black_box(&data)).len();
            assert_eq!(n, urls);
        })
    });
    g.bench_function("Extractor", |b| {
        b.iter(|| {
            let n = Extractor::new(black_box(&data[..])).count();
            assert_eq!(n, urls);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
