//! `Url::parse_with` under both policies: no panic; a parsed URL prints as
//! its input and re-parses to the same parts; strict acceptance implies
//! lenient acceptance.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift::{Policy, Url, WarningKind};

fuzz_target!(|data: &[u8]| {
    let mut ok = [false; 2];
    for (i, policy) in [Policy::Strict, Policy::Lenient].into_iter().enumerate() {
        if let Ok(url) = Url::parse_with(data, policy) {
            ok[i] = true;
            let printed = url.to_string();
            assert_eq!(printed.as_bytes(), data);
            assert_eq!(url.as_str().as_bytes(), data);
            let again = Url::parse_with(printed.as_bytes(), policy).expect("re-parse");
            assert_eq!(again.components(), url.components());
            assert_eq!(again.scheme(), url.scheme());
            let _ = url.normalized();
            let _ = url.specific();
            let _ = url.warnings().into_iter().count();
            if policy == Policy::Strict {
                // Strict: none of the lenient deviations.
                for w in url.warnings() {
                    assert!(!matches!(
                        w.kind,
                        WarningKind::Tilde | WarningKind::SearchSlash | WarningKind::SearchQuestion
                    ));
                }
            }
        }
    }
    assert!(!ok[0] || ok[1], "strict accepts what lenient rejects");
});
