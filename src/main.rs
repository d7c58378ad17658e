use std::io::Write;
fn main() {
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for path in std::env::args().skip(1) {
        let data = std::fs::read(&path).unwrap();
        for m in urlsift::extract(&data) {
            writeln!(out, "{}\t{}\t{}", path, m.line(), m.as_str()).unwrap();
        }
    }
}
