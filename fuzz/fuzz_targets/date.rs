//! `Timestamp::parse_header` and `parse_from_line` on arbitrary bytes: no
//! panic; a date read prints as RFC 3339 and that reads back, through
//! `parse_user` and through `parse_header` itself, as the same instant.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift::Timestamp;

fuzz_target!(|data: &[u8]| {
    let mut line = b"From ".to_vec();
    line.extend_from_slice(data);
    for t in [
        Timestamp::parse_header(data),
        Timestamp::parse_from_line(&line),
    ]
    .into_iter()
    .flatten()
    {
        let printed = t.to_string();
        assert_eq!(Timestamp::parse_user(&printed), Ok(t), "{printed}");
        assert_eq!(
            Timestamp::parse_header(printed.as_bytes()),
            Some(t),
            "{printed}"
        );
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = Timestamp::parse_user(text).map(|t| t.to_string());
    }
});
