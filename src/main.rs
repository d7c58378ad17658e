use std::io::Write;
fn main() {
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for path in std::env::args().skip(1) {
        let f = std::fs::File::open(&path).unwrap();
        for m in urlsift::Extractor::new(f) {
            let m = m.unwrap();
            writeln!(out, "{}:{}:{}", path, m.line(), m.as_str()).unwrap();
        }
    }
}
