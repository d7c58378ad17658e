//! `urlsift::unwrap` on any link: no panic, and the laws of the unit tests
//! (`unwrap/tests.rs`): `wrapped` agrees, the chain is at most `MAX_DEPTH`
//! long and starts at the link, and a target is an ASCII URL valid under
//! the lenient reading, never beside an error or an opaque wrapper. The
//! first byte picks the start of a wrapper (so that every decoder is
//! reached), the rest is the link's tail.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift::{Policy, Url, MAX_DEPTH};

const HEADS: [&str; 8] = [
    "https://eur03.safelinks.protection.outlook.com/?url=",
    "https://urldefense.proofpoint.com/v1/url?u=",
    "https://urldefense.proofpoint.com/v2/url?u=",
    "https://urldefense.com/v3/__",
    "https://www.google.com/url?q=",
    "https://eu-central-1.protection.sophos.com/?u=",
    "https://secure-web.cisco.com/1AbC/",
    "",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, tail)) = data.split_first() else {
        return;
    };
    let url = [HEADS[usize::from(pick) % HEADS.len()].as_bytes(), tail].concat();
    let u = urlsift::unwrap(&url);
    assert_eq!(urlsift::wrapped(&url).unwrap_or_default(), u);
    assert!(u.hops().len() <= MAX_DEPTH);
    assert_eq!(u.is_wrapped(), !u.hops().is_empty());
    if let (Some(first), Ok(text)) = (u.hops().first(), std::str::from_utf8(&url)) {
        assert_eq!(first.url(), text);
    }
    if let Some(t) = u.target() {
        assert!(t.is_ascii());
        assert!(Url::parse_with(t.as_bytes(), Policy::Lenient).is_ok());
        assert!(u.error().is_none() && !u.is_opaque());
    }
    if u.is_opaque() || u.error().is_some() {
        assert_eq!(u.target(), None);
    }
});
