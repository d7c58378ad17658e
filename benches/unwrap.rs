//! `urlsift::unwrap` alone: 100,000 wrapped URLs (every kind, some nested,
//! built here from templates with varying targets), and 100,000 URLs that
//! are no wrapper (the case of almost every URL in mail: what `--unwrap`
//! costs the command). The count of targets recovered is asserted inside
//! the timed loop. Single thread.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};

/// `%XX` for every byte but letters, digits, `.` and `-`.
fn enc(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b == b'.' || b == b'-' {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Standard base64 (for Sophos).
fn b64(s: &str) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in s.as_bytes().chunks(3) {
        let n = c
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..4 {
            out.push(if k <= c.len() {
                A[(n >> (18 - 6 * k)) as usize & 63] as char
            } else {
                '='
            });
        }
    }
    out
}

/// The i-th wrapped URL and whether it has a target (Mimecast's has none).
fn wrapped(i: usize) -> (String, bool) {
    let t = format!(
        "https://www.example{}.com/path/{i}/page.html?id={i}&x=y",
        i % 97
    );
    let u = match i % 14 {
        0 => format!("https://eur0{}.safelinks.protection.outlook.com/?url={}&data=05%7C01%7Cb%40example.org%7C0&sdata=abc&reserved=0", i % 9, enc(&t)),
        1 => format!("https://nam12.safelinks.protection.outlook.com/ap/w-59584e83/?url={}&data=05", enc(&t)),
        2 => format!("https://urldefense.proofpoint.com/v1/url?u={}&k=oIvRg1%2BdGAgOoM1BIlLLqw%3D%3D%0A&r=x&m=y&s=z", enc(&t)),
        3 => format!("https://urldefense.proofpoint.com/v2/url?u={}&d=DwMFaQ&c=x&r=y&m=z&s=w&e=", enc(&t).replace('%', "-").replace("-2F", "_")),
        4 => format!("https://urldefense.com/v3/__{}*top__;Iw!!GuAItXPztq0!jULEM6V$", t),
        5 => format!("https://www.google.com/url?q={}&sa=D&source=editors&ust=1&usg=AOvVaw", enc(&t)),
        6 => format!("https://l.facebook.com/l.php?u={}&h=AT0e805pb7bA65XmdY65biJgIyuHkWsETmYLoh", enc(&t)),
        7 => format!("https://linkprotect.cudasvc.com/url?a={}&c=E,1,hA45iW0GZJdGWU2_lp0BOlPA2M&typo=1", enc(&t)),
        8 => format!("https://secure-web.cisco.com/1EH1B-CLV31IF8vcULmniGDoJim0uL59Swz/{}", enc(&t)),
        9 => format!("https://ddec1-0-en-ctp.trendmicro.com:443/wis/clicktime/v1/query?url={}&umid=67080c1c&auth=53c7c7de", enc(&t)),
        10 => format!("https://eu-west-1.protection.sophos.com/?d=example.com&u={}&i=x&t=y&h=z&s=1", b64(&t)),
        11 => format!("https://protect2.fireeye.com/v1/url?k=746d28f3-15e63dd6&q=1&e=ca164227&u={}", enc(&t)),
        12 => format!(
            "https://nam02.safelinks.protection.outlook.com/?url={}&data=05",
            enc(&format!("https://slack-redir.net/link?url={}", enc(&t)))
        ),
        _ => return (format!("https://protect-eu.mimecast.com/s/f7vJCpzxoFz{i}?domain=example.com"), false),
    };
    (u, true)
}

/// URLs of mail that are no wrapper, some on wrappers' domains.
fn plain(i: usize) -> String {
    match i % 5 {
        0 => format!("http://www.example{}.com/path/{i}/page.html", i % 97),
        1 => format!("https://lists.example.org/pipermail/list/2024-May/{i}.html"),
        2 => format!("ftp://ftp.example.net/pub/file{i}.tar.gz"),
        3 => format!("https://outlook.office.com/mail/{i}"),
        _ => format!("mailto:user{i}@example.com"),
    }
}

fn bench(c: &mut Criterion) {
    const N: usize = 100_000;
    let wrapped: Vec<(String, bool)> = (0..N).map(wrapped).collect();
    let want = wrapped.iter().filter(|(_, t)| *t).count();
    for (u, t) in &wrapped {
        assert_eq!(urlsift::unwrap(u).target().is_some(), *t, "{u}");
    }
    let plain: Vec<String> = (0..N).map(plain).collect();

    let mut g = c.benchmark_group("unwrap");
    g.sample_size(10);
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("100k wrapped", |b| {
        b.iter(|| {
            let got = wrapped
                .iter()
                .filter(|(u, _)| black_box(urlsift::unwrap(u)).target().is_some())
                .count();
            assert_eq!(got, want);
        })
    });
    g.bench_function("100k not wrapped", |b| {
        b.iter(|| {
            let got = plain
                .iter()
                .filter(|u| black_box(urlsift::unwrap(u)).is_wrapped())
                .count();
            assert_eq!(got, 0);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
