//! `urlsift --report`: the derivatives of a small hand-made corpus
//! (`tests/data/report/corpus`) against answers worked out by hand
//! (`tests/data/report/expected`), and the page's escaping of what the
//! input holds.

mod util;

use std::path::Path;

use util::{run, tmp, write};

fn data() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/report")
}

#[test]
fn hand_made_corpus_gives_the_known_answers() {
    let d = tmp();
    let out = d.path().join("out");
    let corpus = data().join("corpus");
    let r = run(
        d.path(),
        &["--report", out.to_str().unwrap(), corpus.to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.out(), "", "nothing on stdout");
    for name in ["timeline", "domains", "domains-by-year", "groups"] {
        let got = std::fs::read_to_string(out.join(format!("{name}.csv"))).unwrap();
        let want =
            std::fs::read_to_string(data().join("expected").join(format!("{name}.csv"))).unwrap();
        assert_eq!(got, want, "{name}.csv");
    }
    // One edge per group and domain (six), the years as spells.
    let gexf = std::fs::read_to_string(out.join("graph.gexf")).unwrap();
    assert_eq!(gexf.matches("<edge ").count(), 6);
    assert!(gexf
        .contains("source=\"g:gopher.lists.example.edu\" target=\"d:example.edu\" weight=\"1\""));
    assert!(gexf.contains("<spell start=\"1994-01-01\" end=\"1994-12-31\"/>"));
    let graphml = std::fs::read_to_string(out.join("graph.graphml")).unwrap();
    assert_eq!(graphml.matches("<edge ").count(), 6);
    assert_eq!(graphml.matches("<node ").count(), 3 + 3);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!page.contains("<script"), "no script");
    assert!(!page.contains("http://fonts"), "no font from the network");
    // Totals: 2 files, 3 messages (the notes count as one), 8 URLs, 7 distinct, 2 of 8 undated.
    for (k, v) in [
        ("files with URLs", "2"),
        ("messages with URLs", "3"),
        ("URLs", "8"),
        ("distinct URLs", "7"),
        ("dates", "1993-05-01 – 1994-02-03"),
        ("undated URLs", "25.0 %"),
    ] {
        assert!(page.contains(&format!("<dt>{k}</dt><dd>{v}</dd>")), "{k}");
    }
    // The stacked chart has a bar part per year and scheme with URLs.
    assert!(page.contains("<title>1993: 1</title>"));
    assert!(page.contains("<title>undated: 1</title>"));
}

#[test]
fn the_same_answers_whatever_the_threads_and_order_of_inputs() {
    let d = tmp();
    let corpus = data().join("corpus");
    let c = corpus.to_str().unwrap();
    let mut seen = Vec::new();
    for (i, args) in [
        vec!["-j1", c],
        vec!["-j4", c],
        vec!["-j2", "--piece-size", "64"],
    ]
    .into_iter()
    .enumerate()
    {
        let out = d.path().join(format!("o{i}"));
        let mut a = vec!["--report", out.to_str().unwrap()];
        a.extend(args);
        if i == 2 {
            // The inputs named one by one, in the other order.
            let notes = corpus.join("notes.txt");
            let mbox = corpus.join("archive.mbox");
            a.push(Box::leak(
                notes.to_str().unwrap().to_string().into_boxed_str(),
            ));
            a.push(Box::leak(
                mbox.to_str().unwrap().to_string().into_boxed_str(),
            ));
        }
        let r = run(d.path(), &a);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let files: Vec<Vec<u8>> = urlsift_report::Tables::NAMES
            .iter()
            .map(|f| std::fs::read(out.join(f)).unwrap())
            .collect();
        seen.push(files);
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
}

#[test]
fn hostile_names_are_escaped() {
    let d = tmp();
    write(
        d.path(),
        "evil.eml",
        b"Newsgroups: <script>alert(1)</script>,a&b,\"q\",x\x01y\nDate: Mon, 2 Jan 1995 00:00:00 GMT\n\n<http://www.example.org/a&b>\n",
    );
    let out = d.path().join("out");
    let r = run(d.path(), &["--report", out.to_str().unwrap(), "evil.eml"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!page.contains("<script"));
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("a&amp;b"));
    assert!(page.contains("http://www.example.org/a&amp;b"));
    let gexf = std::fs::read_to_string(out.join("graph.gexf")).unwrap();
    assert!(!gexf.contains('\x01'), "no control character in XML");
    assert!(gexf.contains("label=\"&quot;q&quot;\""));
    let groups = std::fs::read_to_string(out.join("groups.csv")).unwrap();
    assert!(groups.contains("\"\"\"q\"\"\",example.org,1,"), "{groups}");
}

#[test]
fn nothing_found_writes_empty_files_and_exits_1() {
    let d = tmp();
    write(d.path(), "a.txt", b"no URL here\n");
    let out = d.path().join("out");
    let r = run(d.path(), &["--report", out.to_str().unwrap(), "a.txt"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(out.join("timeline.csv")).unwrap(),
        "year,month,scheme,urls,distinct_urls,messages\n"
    );
    assert!(out.join("index.html").exists());
    // --report takes no other output mode.
    assert_eq!(run(d.path(), &["--report", "o", "--json", "a.txt"]).code, 2);
    assert_eq!(run(d.path(), &["--report", "o", "-c", "a.txt"]).code, 2);
}

#[test]
fn an_unwritable_directory_is_an_error_naming_it() {
    let d = tmp();
    write(d.path(), "a.txt", b"<http://a.example/>\n");
    write(d.path(), "file", b"");
    let r = run(d.path(), &["--report", "file/sub", "a.txt"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("file/sub"), "{}", r.stderr);
}
