//! Each kind unwraps public examples; the source of each is named beside
//! it. Tracking parameters of real links are cut short where they do not
//! matter (`...` in the comments).

use super::*;
use proptest::strategy::Strategy as _;

/// `url` unwraps through `via` to `target`.
#[track_caller]
fn unwraps(url: &str, via: &[&str], target: &str) {
    let u = unwrap(url);
    assert_eq!(u.via().collect::<Vec<_>>(), via, "{url}");
    assert_eq!(u.target(), Some(target), "{url}: {:?}", u.error());
    assert!(!u.is_opaque() && u.error().is_none());
    assert_eq!(u.hops()[0].url(), url);
    assert_eq!(wrapped(url), Some(u), "{url}: wrapped and unwrap differ");
}

#[track_caller]
fn left_alone(url: &str) {
    let u = unwrap(url);
    assert!(!u.is_wrapped(), "{url}: {u:?}");
    assert_eq!(u, Unwrapped::default());
    assert_eq!(wrapped(url), None, "{url}");
}

#[test]
fn safelinks() {
    // Cortex XSOAR's FormatURL test data (demisto/content, MIT), de-fanged
    // there as hxxps: the /ap/ path form on both clouds.
    unwraps(
        "https://nam10.safelinks.protection.outlook.com/ap/w-59523e83/?url=https://test.com/test&data=",
        &["safelinks"],
        "https://test.com/test",
    );
    unwraps(
        "https://nam10.safelinks.protection.office365.us/ap/w-59523e83/?url=https://test.com/test&data=",
        &["safelinks"],
        "https://test.com/test",
    );
    // A link in a page of a public repository (a OneDrive share): /ap/x-.
    unwraps(
        "https://eur01.safelinks.protection.outlook.com/ap/x-59584e83/?url=https%3A%2F%2F1drv.ms%2Fx%2Fs!As42z7o54BYWhl0slLVRNZzoO49N&data=02%7C01%7C%7C67108194ea3148f41ec108d6bd902c54%7C84df9e7fe9f640afb435aaaaaaaaaaaa%7C1%7C0%7C636904824242023490&sdata=lu8llTe9%2BtqoDbBrOlLGdxtDXDzMgVapzPZX%2BNqJldE%3D&reserved=0",
        &["safelinks"],
        "https://1drv.ms/x/s!As42z7o54BYWhl0slLVRNZzoO49N",
    );
    // Lower-case escapes and a literal `?` inside the parameter (a
    // Microsoft-internal document in a public repository): /ap/p-.
    unwraps(
        "https://nam06.safelinks.protection.outlook.com/ap/p-59584e83/?url=https:%2f%2fmicrosoft.sharepoint.com%2f:p:%2ft%2fCxERSC%2fEV8N5a9CTtdBqOp1IWWq_DwBdEC36e6qhCJp6hBcqHopzg?e%3DaTDufH&data=05%7c01%7cjchornbe%40microsoft.com%7c26fb696f33a745915fee08db21837b74&reserved=0",
        &["safelinks"],
        "https://microsoft.sharepoint.com/:p:/t/CxERSC/EV8N5a9CTtdBqOp1IWWq_DwBdEC36e6qhCJp6hBcqHopzg?e=aTDufH",
    );
    // The query form on the US government cloud, from a qemu-devel message
    // (the `data` parameter carries the recipient's address).
    unwraps(
        "https://usg02.safelinks.protection.office365.us/?url=https%3A%2F%2Flore.kernel.org%2Fqemu-devel%2F174595764300.3422.13156465553505851834-0%40git.sr.ht%2F&data=05%7C02%7Cfoss%40percivaleng.com%7Cbcd8ed34f3e342df86f008dd8b4e40b7&reserved=0",
        &["safelinks"],
        "https://lore.kernel.org/qemu-devel/174595764300.3422.13156465553505851834-0@git.sr.ht/",
    );
    // Doubly encoded parameters of the target stay encoded once (a Teams
    // meeting link from a public seminar page).
    unwraps(
        "https://eur01.safelinks.protection.outlook.com/ap/t-59584e83/?url=https%3A%2F%2Fteams.microsoft.com%2Fl%2Fmeetup-join%2F19%253ameeting_NGZlY2M5MTktODVkNC00MmMwLWIwNmEtOTg4NmVhMzBkNmQx%2540thread.v2%2F0&data=05",
        &["safelinks"],
        "https://teams.microsoft.com/l/meetup-join/19%3ameeting_NGZlY2M5MTktODVkNC00MmMwLWIwNmEtOTg4NmVhMzBkNmQx%40thread.v2/0",
    );
    // No path at all before the query, and a capitalised host.
    unwraps(
        "HTTPS://EUR03.safelinks.protection.outlook.com?url=http%3A%2F%2Fexample.com%2F&data=x",
        &["safelinks"],
        "http://example.com/",
    );
}

#[test]
fn proofpoint_v1() {
    // Proofpoint's published decoder example (as the Swimlane connector's
    // docs quote it), `&amp;` left in from HTML.
    unwraps(
        "https://urldefense.proofpoint.com/v1/url?u=http://www.bouncycastle.org/&amp;k=oIvRg1%2BdGAgOoM1BIlLLqw%3D%3D%0A&amp;r=IKM5u8%2B%2F%2Fi8EBhWOS%2BqGbTqCC%2BrMqWI%2FVfEAEsQO%2F0Y%3D%0A&amp;m=Ww6iaHO73mDQpPQwOwfLfN8WMapqHyvtu8jM8SjqmVQ%3D%0A&amp;s=d3583cfa53dade97025bc6274c6c8951dc29fe0f38830cf8e5a447723b9f1c9a",
        &["proofpoint-v1"],
        "http://www.bouncycastle.org/",
    );
    // ninoseki/kachi's tests.
    unwraps(
        "https://urldefense.proofpoint.com/v1/url?u=http://example.com&k=foo",
        &["proofpoint-v1"],
        "http://example.com",
    );
}

#[test]
fn proofpoint_v2() {
    // Rapid7's URL Defense plugin docs (its example input).
    unwraps(
        "https://urldefense.proofpoint.com/v2/url?u=http-3A__www.example.org_url&d=BwdwBAg&c=TIwfCwdwWnrHy3gMA_uzZorHPsT2wfwvKrwfU",
        &["proofpoint-v2"],
        "http://www.example.org/url",
    );
    // Proofpoint TAP's decode API example (Swimlane's connector docs).
    unwraps(
        "https://urldefense.proofpoint.com/v2/url?u=http-3A__links.mkt3337.com_ctt-3Fkn-3D3-26ms-3DMzQ3OTg3MDQS1-26r-3DMzkxNzk3NDkwMDA0S0-26b-3D0-26j-3DMTMwMjA1ODYzNQS2-26mt-3D1-26rt-3D0&d=DwMFaQ&c=Vxt5e0Osvvt2gflwSlsJ5DmPGcPvTRKLJyp031rXjhg&e=",
        &["proofpoint-v2"],
        "http://links.mkt3337.com/ctt?kn=3&ms=MzQ3OTg3MDQS1&r=MzkxNzk3NDkwMDA0S0&b=0&j=MTMwMjA1ODYzNQS2&mt=1&rt=0",
    );
    // cardi/proofpoint-url-decoder's tests (CC0), on urldefense.com.
    unwraps(
        "https://urldefense.com/v2/url?u=https-3A__www.example.com&d=&c=&r=&m=&s=&e=",
        &["proofpoint-v2"],
        "https://www.example.com",
    );
    unwraps(
        "https://urldefense.com/v2/url?u=https-3A__www.example.com_-40-40-21-40foobar&d=&c=&r=&m=&s=&e=",
        &["proofpoint-v2"],
        "https://www.example.com/@@!@foobar",
    );
}

#[test]
fn proofpoint_v3() {
    // Proofpoint's published decoder example.
    unwraps(
        "https://urldefense.com/v3/__https://google.com:443/search?q=a*test&gs=ps__;Kw!-612Flbf0JvQ3kNJkRi5Jg!Ue6tQudNKaShHg93trcdjqDP8se2ySE65jyCIe2K1D_uNjZ1Lnf6YLQERujngZv9UWf66ujQIQ$",
        &["proofpoint-v3"],
        "https://google.com:443/search?q=a+test&gs=ps",
    );
    // tsibley/unsafelinks' comment (its tail cut).
    unwraps(
        "https://urldefense.com/v3/__https://github.com/nextstrain/augur/pull/1175*discussion_r1130183899__;Iw!!GuAItXPztq0!jULEM6VDcY$",
        &["proofpoint-v3"],
        "https://github.com/nextstrain/augur/pull/1175#discussion_r1130183899",
    );
    // cardi/proofpoint-url-decoder's tests (CC0): a single byte, and runs
    // of 65 to 131 bytes (`**_` is 65, `**A` 2, `**B` 3).
    unwraps(
        "https://urldefense.com/v3/__https://example.com/*newsletter__;Iw!!foo!bar$",
        &["proofpoint-v3"],
        "https://example.com/#newsletter",
    );
    unwraps(
        "https://urldefense.com/v3/__http://www.example.com__;!!foo!bar$",
        &["proofpoint-v3"],
        "http://www.example.com",
    );
    let hashes = |n| format!("http://www.example.com/{}test", "#".repeat(n));
    for (url, n) in [
        ("https://urldefense.com/v3/__http://www.example.com/**_test__;IyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyM!!foo!bar$", 65),
        ("https://urldefense.com/v3/__http://www.example.com/**_*test__;IyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMj!!foo!bar$", 66),
        ("https://urldefense.com/v3/__http://www.example.com/**_**Atest__;IyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIw!!foo!bar$", 67),
        ("https://urldefense.com/v3/__http://www.example.com/**_**Btest__;IyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyM!!foo!bar$", 68),
    ] {
        // The parser reads the first `#` as the fragment's start and takes
        // the rest as it is: the target is a URL.
        let u = unwrap(url);
        assert_eq!(u.via().collect::<Vec<_>>(), ["proofpoint-v3"]);
        match u.target() {
            Some(t) => assert_eq!(t, hashes(n)),
            None => assert_eq!(u.decoded(), Some(&*hashes(n)), "{:?}", u.error()),
        }
    }
    // ninoseki/kachi's tests: urldefense.us.
    unwraps(
        "https://urldefense.us/v3/__http://example.com__;!abc$",
        &["proofpoint-v3"],
        "http://example.com",
    );
    // Runs count UTF-8 bytes: `w60` is the two bytes of U+00ED, one `**A`
    // run; written back percent-encoded (cardi/proofpoint-url-decoder
    // GitHub issue #7, its tail cut).
    unwraps(
        "https://urldefense.com/v3/__https://es.linkedin.com/in/pastora-mart**Anez-samper-3049818__;w60!!D9dNQwwGXtA!VCWZpmS3jIZRe5xmjoL0_MX9ZUWwcPFyz6CnsBeDuRVdXGZbS1iTRYZ19iLt7VCJmmzf528Jpli6tlesUnQ$",
        &["proofpoint-v3"],
        "https://es.linkedin.com/in/pastora-mart%C3%ADnez-samper-3049818",
    );
    // Cortex XSOAR's Proofpoint TAP decode example: `%` and `#` encoded,
    // and the recipient's address in the fragment.
    unwraps(
        "https://urldefense.com/v3/__https://firebasestorage.googleapis.com/v0/b/gund-50757.appspot.com/o/owa*2Findex2gun.html?alt=media&token=02497332-ff04-xxxxxxx-a76b-xxxxx*vicky@rsrchxchange.com__;JSM!!Fjc1LPEtn8I!xxxxx-xxxxxxxx$",
        &["proofpoint-v3"],
        "https://firebasestorage.googleapis.com/v0/b/gund-50757.appspot.com/o/owa%2Findex2gun.html?alt=media&token=02497332-ff04-xxxxxxx-a76b-xxxxx#vicky@rsrchxchange.com",
    );
}

#[test]
fn proofpoint_v3_target_that_is_no_url() {
    // cardi/proofpoint-url-decoder's "complex_quoted" test: the decoded
    // text has `[`, `]` and `|`-escapes, and `[` is unsafe (RFC 1738 2.2):
    // the error is reported, with the text, and no target invented.
    let u = unwrap("https://urldefense.com/v3/__http://example.com/?=a1!b2@c3*d4$5e*6*5E7&8*9(10*7C*5C**B7D*7B__;IyUlKiUlW10lJQ!!foo!bar$");
    assert_eq!(u.via().collect::<Vec<_>>(), ["proofpoint-v3"]);
    assert_eq!(u.target(), None);
    assert_eq!(
        u.decoded(),
        Some("http://example.com/?=a1!b2@c3#d4$5e%6%5E7&8*9(10%7C%5C[]%7D%7B")
    );
    assert!(matches!(u.error(), Some(UnwrapError::Parse(_))));
}

#[test]
fn google() {
    // Gmail's data-saferedirecturl, `&amp;` left in (a saved page in a
    // public repository).
    unwraps(
        "https://www.google.com/url?q=https://sac.uol.com.br/%23/recuperarsenha&amp;source=gmail&amp;ust=1696281109645000&amp;usg=AOvVaw3hfa33FCy9da_wAVh4oira",
        &["google"],
        "https://sac.uol.com.br/#/recuperarsenha",
    );
    // A Google Docs export (a public README).
    unwraps(
        "https://www.google.com/url?q=https://gitlab.com/camlspotter/camlimages&sa=D&source=editors&ust=1617134969939000&usg=AOvVaw3al_S_FsgYZIQaoyCdh0Bz",
        &["google"],
        "https://gitlab.com/camlspotter/camlimages",
    );
    // Google wrapping Google (a public README's Docs link, cut short).
    unwraps(
        "https://www.google.com/url?q=https://www.google.com/url?q%3Dhttps://www.figma.com/file/KUXA9TjkYyUWDkSNTewHbU/CMS%26amp;sa%3DD%26amp;source%3Deditors%26amp;ust%3D1659469559838528",
        &["google", "google"],
        "https://www.figma.com/file/KUXA9TjkYyUWDkSNTewHbU/CMS",
    );
    // Search results: the query in `q`, the target in `url`.
    unwraps(
        "https://www.google.co.uk/url?sa=t&rct=j&q=rfc%201738&esrc=s&source=web&cd=1&url=https%3A%2F%2Fwww.rfc-editor.org%2Frfc%2Frfc1738&ved=0",
        &["google"],
        "https://www.rfc-editor.org/rfc/rfc1738",
    );
    left_alone("https://www.google.com/search?q=https%3A%2F%2Fexample.com");
}

#[test]
fn facebook() {
    // Meta's developer docs (a public copy).
    unwraps(
        "https://l.facebook.com/l.php?u=https%3A%2F%2Fwww.instagram.com%2Fmetafordevelopers%2F&h=AT0e805pb7bA65XmdY65biJgIyuHkWsETmYLohZU8Oak0apeUX7LGh9LrJ3xo0BV-_9jXoyYzGFGr-EMDzscbXcOrCyF_jDrSA0dOw-JdzN",
        &["facebook"],
        "https://www.instagram.com/metafordevelopers/",
    );
    unwraps(
        "https://lm.facebook.com/l.php?u=https%3A%2F%2Fbit.ly%2F3TpQ4Vm",
        &["facebook"],
        "https://bit.ly/3TpQ4Vm",
    );
}

#[test]
fn barracuda() {
    // Links in public repositories' sources.
    unwraps(
        "https://linkprotect.cudasvc.com/url?a=https%3a%2f%2fservingconnecticut.com%2f&c=E,1,hA45iW0GZJdGWU2_lp0BOlPA2MbuJCyCSHBrRznoiP5v2BNJNsn5x0h4ADkZlBLeOHr2HP5RMLme4LozPT9vTxNK1gc3p9-xVDwmWt19f7h14J2cmx2_Ag,,&typo=1",
        &["barracuda"],
        "https://servingconnecticut.com/",
    );
    unwraps(
        "https://linkprotect.cudasvc.com/url?a=https%3A%2F%2Fwww.lakeviewresort.com%2Freservations%3Fpromo_code%3DGEO52125&c=E,1,gq-fB3OvXlnAOrkLqskxBnwy2poM3PfMu42tD7PtykoqJDTHZXtaZankHTnb0nu9mUw0lRP50z1WMhAkVYEUL3OOon55rYBRYmLRZMY_XUDr&typo=1",
        &["barracuda"],
        "https://www.lakeviewresort.com/reservations?promo_code=GEO52125",
    );
    // ninoseki/kachi's tests: a regional host and no path.
    unwraps(
        "https://x.linkprotect.cudasvc.com/?a=http%3A%2F%2Fexample.com",
        &["barracuda"],
        "http://example.com",
    );
}

#[test]
fn cisco() {
    // Cisco Secure Email's rewriting template is
    // `secure-web.cisco.com/%(auth)s/%(url)s` (as an AsyncOS test suite in a
    // public repository configures it); the token is a real one's head.
    unwraps(
        "https://secure-web.cisco.com/1EH1B-CLV31IF8vcULmniGDoJim0uL59SwzKlscoLeueHtIl9uJoz5RjL9Tvf-ob6T0NnEICsBlVygnHSJ9JOJn_Wh864Xja_tDA3/http%3A%2F%2Fwww.anatel.gov.br%2Fcelularlegal%2Fconsulte-sua-situacao",
        &["cisco"],
        "http://www.anatel.gov.br/celularlegal/consulte-sua-situacao",
    );
    // A token alone is no target.
    let u = unwrap("https://secure-web.cisco.com/1EH1B-CLV31IF8vcULmniGDoJim0uL59Swz");
    assert_eq!(u.error(), Some(&UnwrapError::Missing));
}

#[test]
fn trendmicro() {
    // Linux kernel mailing-list messages (lower-case escapes, port 443).
    unwraps(
        "https://ddec1-0-en-ctp.trendmicro.com:443/wis/clicktime/v1/query?url=https%3a%2f%2fgit.kernel.org%2ftorvalds%2fc%2f038709071328&umid=67080c1c-b5d1-4d20-a9eb-ab7f9a062932&auth=53c7c7de28b92dfd96e93d9dd61a23e634d2fbec-9ae22f0c43ab3effc4ba0f9fd0327c9852d5d05a",
        &["trendmicro"],
        "https://git.kernel.org/torvalds/c/038709071328",
    );
    unwraps(
        "https://cas5-0-urlprotect.trendmicro.com:443/wis/clicktime/v1/query?url=https%3a%2f%2flore.kernel.org%2fall%2f20220122121407.11467%2d1%2dneel.gandhi%40xilinx.com&umid=a486940f-2fe3-47f4-9b3f-416e59036eab&auth=d807158c60b7d2502abde8a2fc01f40662980862-a75e22540e8429d70f2609",
        &["trendmicro"],
        "https://lore.kernel.org/all/20220122121407.11467-1-neel.gandhi@xilinx.com",
    );
}

#[test]
fn sophos() {
    // ninoseki/kachi's test, after Sophos's community forum.
    unwraps(
        "https://eu-central-1.protection.sophos.com/?d=sophos.com&u=aHR0cHM6Ly93d3cuc29waG9zLmNvbS9kZS1kZS9wcm9kdWN0cy9zb3Bob3MtZW1haWw=&i=NjJkMTA1NzEwNWJkNDAxMDc5ZDliN2Uy&t=OGE0L3MwTUdrUmE0NXdkWEtxSzdGdUMxS0JsRDFlK2tmcThqK2FSQjBYQT0=&h=0d5a5f867dd841698a9ee6af8c1d8846&s=AVNPUEhUT0NFTkNSWVBUSVaP4zyKF4qdzGb8PYXRFY2poaAOWE20fUiquUBd3DxoZw",
        &["sophos"],
        "https://www.sophos.com/de-de/products/sophos-email",
    );
    // The example of a public PowerShell decoder (ConvertFrom-SophosTimeOfClickURL).
    unwraps(
        "https://eu-west-1.protection.sophos.com/?d=microsoft.com&u=aHR0cHM6Ly93d3cubWljcm9zb2Z0LmNvbS9saWNlbnNpbmcvc2VydmljZWNlbnRlci9kZWZhdWx0LmFzcHg=&",
        &["sophos"],
        "https://www.microsoft.com/licensing/servicecenter/default.aspx",
    );
    // Padding percent-encoded.
    unwraps(
        "https://us-west-2.protection.sophos.com?d=x&u=aHR0cDovL2EuZXhhbXBsZS8%3D",
        &["sophos"],
        "http://a.example/",
    );
    let u = unwrap("https://eu-west-1.protection.sophos.com/?u=not*base64");
    assert_eq!(
        u.error(),
        Some(&UnwrapError::Encoding("the parameter is not base64"))
    );
}

#[test]
fn fireeye() {
    // Linux kernel mailing-list messages.
    unwraps(
        "https://protect2.fireeye.com/v1/url?k=746d28f3-15e63dd6-746ca3bc-74fe485cbff6-e405b48a4881ecfc&q=1&e=ca164227-d8ec-4d3c-bd27-af2d38964105&u=https%3A%2F%2Fgithub.com%2Fgoogle%2Fpacketdrill.git",
        &["fireeye"],
        "https://github.com/google/packetdrill.git",
    );
    unwraps(
        "https://protect2.fireeye.com/v1/url?k=5bd95ebd-044267fb-5bd8d5f2-0cc47a3003e8-ce9db8ea264d6901&q=1&e=900556dc-d199-4c18-9432-5c3465a98eae&u=https%3A%2F%2Felixir.bootlin.com%2Flinux%2Flatest%2Fsource%2Finclude%2Fdrm%2Fdrm_mipi_dsi.h%23L129",
        &["fireeye"],
        "https://elixir.bootlin.com/linux/latest/source/include/drm/drm_mipi_dsi.h#L129",
    );
}

#[test]
fn slack() {
    // Links in public READMEs.
    unwraps(
        "https://slack-redir.net/link?url=https%3A%2F%2Fwww.npmjs.com%2Fpackage%2Fdotenv",
        &["slack"],
        "https://www.npmjs.com/package/dotenv",
    );
    unwraps(
        "https://slack-redir.net/link?url=http%3A%2F%2Fapps.bizible.com&v=3",
        &["slack"],
        "http://apps.bizible.com",
    );
}

#[test]
fn mimecast_is_opaque() {
    // Links in public repositories' sources and docs.
    for url in [
        "https://protect-eu.mimecast.com/s/f7vJCpzxoFzjOpcPXjtX?domain=docs.python.org",
        "https://protect-eu.mimecast.com/s/zM1FB7zDRiZ",
        "https://url.uk.m.mimecastprotect.com/s/abcDEF123",
    ] {
        let u = unwrap(url);
        assert_eq!(u.via().collect::<Vec<_>>(), ["mimecast"], "{url}");
        assert!(u.is_opaque());
        assert_eq!((u.target(), u.error()), (None, None));
    }
}

#[test]
fn nested() {
    // Safe Links around Proofpoint v3, as a gateway behind a gateway writes
    // it (the v3 link of the module's example).
    unwraps(
        "https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Furldefense.com%2Fv3%2F__https%3A%2F%2Fexample.com%2F*newsletter__%3BIw!!x%24&data=05%7C01&reserved=0",
        &["safelinks", "proofpoint-v3"],
        "https://example.com/#newsletter",
    );
    // Opaque inside: the chain is known, the target is not.
    let u = unwrap("https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fprotect-eu.mimecast.com%2Fs%2FzM1FB7zDRiZ&data=x");
    assert_eq!(u.via().collect::<Vec<_>>(), ["safelinks", "mimecast"]);
    assert!(u.is_opaque() && u.target().is_none());
    assert_eq!(
        u.hops()[1].url(),
        "https://protect-eu.mimecast.com/s/zM1FB7zDRiZ"
    );
}

#[test]
fn depth_is_bounded() {
    // Seven Slack redirects around a URL: five are followed, and the target
    // is the (valid) URL the fifth holds.
    let mut url = String::from("https://example.com/");
    let mut layers = vec![url.clone()];
    for _ in 0..7 {
        let mut enc = String::new();
        for b in url.bytes() {
            if b.is_ascii_alphanumeric() || b == b'.' || b == b'-' {
                enc.push(b as char);
            } else {
                enc.push_str(&format!("%{b:02X}"));
            }
        }
        url = format!("https://slack-redir.net/link?url={enc}");
        layers.push(url.clone());
    }
    let u = unwrap(&url);
    assert_eq!(u.hops().len(), MAX_DEPTH);
    assert_eq!(u.target(), Some(&*layers[7 - MAX_DEPTH]));
}

#[test]
fn targets_are_encoded_and_validated() {
    // Decoded space, control and 8-bit octets come back `%XX` (RFC 1738 2.2).
    unwraps(
        "https://slack-redir.net/link?url=http%3A%2F%2Fa.example%2Fa%20b%09%C3%A9",
        &["slack"],
        "http://a.example/a%20b%09%C3%A9",
    );
    // A target that is no URL: the parser's error, the text kept.
    let u = unwrap("https://slack-redir.net/link?url=http%3A%2F%2Fa.example%2F%3Cx%3E");
    assert_eq!(u.decoded(), Some("http://a.example/<x>"));
    let Some(UnwrapError::Parse(e)) = u.error() else {
        panic!("{u:?}")
    };
    assert_eq!(e.offset(), 17);
    assert!(u
        .error()
        .unwrap()
        .to_string()
        .starts_with("the target is no URL: "));
    // A wrapper without its parameter.
    let u = unwrap("https://nam02.safelinks.protection.outlook.com/?data=x&url=");
    assert_eq!(u.error(), Some(&UnwrapError::Missing));
    assert_eq!(u.via().collect::<Vec<_>>(), ["safelinks"]);
}

#[test]
fn other_hosts_are_left_alone() {
    left_alone("https://example.com/?url=https%3A%2F%2Fa.example");
    left_alone(
        "https://safelinks.protection.outlook.com.evil.example/?url=https%3A%2F%2Fa.example",
    );
    left_alone("https://evil.example/urldefense.com/v3/__https://a.example__;!!x$");
    left_alone("https://outlook.com/?url=https%3A%2F%2Fa.example");
    left_alone("https://urldefense.com/v4/__https://a.example__;!!x$");
    left_alone("https://www.facebook.com/l.php?u=https%3A%2F%2Fa.example");
    left_alone("ftp://urldefense.com/v1/url?u=http://a.example/");
    left_alone("mailto:someone@urldefense.com");
    left_alone("http://localhost/");
    left_alone("news:comp.infosystems.www");
    left_alone("https://protect-eu.mimecast.com/about");
    // User information names another host than the one it seems to.
    left_alone("https://l.facebook.com@evil.example/l.php?u=https%3A%2F%2Fa.example");
}

#[test]
fn base64_decodes_both_alphabets() {
    assert_eq!(base64(b"Kw==").unwrap(), b"+");
    assert_eq!(base64(b"Kw").unwrap(), b"+");
    assert_eq!(base64(b"-_8").unwrap(), [0xfb, 0xff]);
    assert_eq!(base64(b"+/8").unwrap(), [0xfb, 0xff]);
    assert_eq!(base64(b"").unwrap(), b"");
    assert!(base64(b"K").is_none());
    assert!(base64(b"K=w").is_none());
    assert!(base64(b"K w").is_none());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

    /// The authority read 32 bytes at once is the one read a byte at a
    /// time, wherever the SSE2 pass takes it (no user, no port, short).
    #[test]
    fn the_authority_is_read_alike_at_once_and_a_byte_at_a_time(
        auth in "[a-zA-Z0-9.-]{0,40}(@[a-z.]{0,5})?(:[0-9.]{0,3})?",
        tail in "((/|\\?|#)[a-z./?#@:]{0,6})?",
        scheme in "(https://|http://|HTTP://)",
    ) {
        let s = format!("{scheme}{auth}{tail}");
        let after = scheme.len();
        #[cfg(target_arch = "x86_64")]
        if let Some(a) = authority_sse2(s.as_bytes(), after) {
            proptest::prop_assert_eq!(a, authority_scalar(s.as_bytes(), after));
        }
        proptest::prop_assert_eq!(authority(s.as_bytes(), after), authority_scalar(s.as_bytes(), after));
    }
}

/// [`may_wrap`] by its definition: the registered name of the host the
/// byte pass reads, looked up in the table.
fn may_wrap_by_definition(s: &[u8], after: usize) -> bool {
    let a = authority_scalar(s, after);
    registered_name(s, (a.host_start, a.colon.unwrap_or(a.end)), a.dots)
        .is_some_and(rules::known_name)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

    /// The first test answers as its definition for hosts made of the
    /// table's names, `co`/`com` and country labels, at every length
    /// around the vector pass's 16 and 32 bytes, with users and ports.
    #[test]
    fn the_first_test_is_its_definition(
        labels in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(&[
                    "google", "GOOGLE", "outlook", "office365", "urldefense", "proofpoint",
                    "facebook", "cudasvc", "cisco", "trendmicro", "sophos", "fireeye",
                    "slack-redir", "mimecast", "mimecastprotect", "co", "com", "CoM", "uk",
                    "au", "us", "net", "www", "l", "", "googl", "googlex", "safelinks",
                ][..]).prop_map(str::to_owned),
                "[a-z0-9-]{1,12}",
            ],
            0..7,
        ),
        user in "([a-z.]{0,4}@)?",
        port in "(:[0-9]{0,4})?",
        tail in "((/|\\?|#)[a-z./?#@:]{0,40})?",
        scheme in "(https://|http://)",
    ) {
        let s = format!("{scheme}{user}{}{port}{tail}", labels.join("."));
        let after = scheme.len();
        proptest::prop_assert_eq!(
            may_wrap(s.as_bytes(), after),
            may_wrap_by_definition(s.as_bytes(), after),
            "{}", s
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4096))]

    /// The first test answers as its definition for any bytes after the
    /// scheme (the library's `unwrap` takes any bytes), the authority's
    /// own punctuation made frequent.
    #[test]
    fn the_first_test_is_its_definition_for_any_bytes(
        rest in proptest::collection::vec(
            proptest::prop_oneof![
                4 => proptest::sample::select(&b"./?#@:co"[..]),
                1 => proptest::prelude::any::<u8>(),
            ],
            0..48,
        ),
        https in proptest::prelude::any::<bool>(),
    ) {
        let scheme: &[u8] = if https { b"https://" } else { b"http://" };
        let s = [scheme, &rest].concat();
        proptest::prop_assert_eq!(
            may_wrap(&s, scheme.len()),
            may_wrap_by_definition(&s, scheme.len())
        );
    }
}

/// Calls `f` with `http://` URLs whose host is `len` bytes of `a` (for
/// each `len` below 40) with a dot at each place or none, then `suffix`,
/// then each of `tails`.
fn every_length(suffixes: &[&str], tails: &[&str], mut f: impl FnMut(&[u8])) {
    for len in 0..40usize {
        for suffix in suffixes {
            for dot in 0..=len {
                let mut host = vec![b'a'; len];
                if dot < len {
                    host[dot] = b'.';
                }
                host.extend_from_slice(suffix.as_bytes());
                for tail in tails {
                    f(&[b"http://".as_slice(), &host, tail.as_bytes()].concat());
                }
            }
        }
    }
}

/// The first test at every length and with every dot placement of a
/// host of up to 40 bytes ending in a name, `co.uk`-style or not.
#[test]
fn the_first_test_at_every_length() {
    let suffixes = [
        "google.com",
        "google.co.uk",
        "x.com.au",
        "cisco.com",
        "a.b",
        "",
    ];
    let tails = ["", "/", "?q", "#f", "/0123456789abcdef0123456789"];
    every_length(&suffixes, &tails, |s| {
        assert_eq!(
            may_wrap(s, 7),
            may_wrap_by_definition(s, 7),
            "{}",
            String::from_utf8_lossy(s)
        );
    });
}

/// The authority's end and dots at every length around 16 and 32 bytes.
#[test]
fn the_authority_at_every_length() {
    every_length(&[""], &["", "/", "?q", "#f"], |s| {
        assert_eq!(
            authority(s, 7),
            authority_scalar(s, 7),
            "{}",
            String::from_utf8_lossy(s)
        );
    });
}

/// The start of a link of each kind, up to where its target goes: the
/// property test below appends arbitrary bytes to it.
const HEADS: [&str; 16] = [
    "https://eur03.safelinks.protection.outlook.com/?url=",
    "https://nam10.safelinks.protection.office365.us/ap/w-59523e83/?data=x&url=",
    "https://urldefense.proofpoint.com/v1/url?u=",
    "https://urldefense.proofpoint.com/v2/url?u=",
    "https://urldefense.com/v3/__",
    "https://www.google.com/url?sa=t&q=",
    "https://l.facebook.com/l.php?u=",
    "https://linkprotect.cudasvc.com/url?a=",
    "https://secure-web.cisco.com/1AbC/",
    "https://imsva91-ctp.trendmicro.com/wis/clicktime/v1/query?url=",
    "https://eu-central-1.protection.sophos.com/?d=x&u=",
    "https://protect2.fireeye.com/v1/url?k=1&u=",
    "https://slack-redir.net/link?url=",
    "https://protect-eu.mimecast.com/s/",
    "http://a.example/?url=",
    "",
];

/// What holds of any unwrapping, whatever the link: `wrapped` and
/// `unwrap` agree, a chain is at most [`MAX_DEPTH`] wrappers long and
/// starts at the link itself (as text), and a target is an ASCII URL valid under the
/// lenient reading (octets outside US-ASCII percent-encoded, RFC 1738
/// section 2.2), never beside an error or an opaque wrapper.
#[track_caller]
fn check_laws(url: &[u8]) {
    let u = unwrap(url);
    assert_eq!(wrapped(url).unwrap_or_default(), u);
    assert!(u.hops().len() <= MAX_DEPTH);
    assert_eq!(u.is_wrapped(), !u.hops().is_empty());
    if let (Some(first), Ok(text)) = (u.hops().first(), std::str::from_utf8(url)) {
        assert_eq!(first.url(), text, "the outermost hop is the link");
    }
    if let Some(t) = u.target() {
        assert!(t.is_ascii(), "{t:?}");
        assert!(
            Url::parse_with(t.as_bytes(), Policy::Lenient).is_ok(),
            "{t:?}"
        );
        assert!(u.error().is_none() && !u.is_opaque());
        assert!(u.is_wrapped());
    }
    if u.is_opaque() || u.error().is_some() {
        assert_eq!(u.target(), None);
    }
}

/// What a wrapper's tail is made of, besides arbitrary bytes: escapes,
/// URLs, Proofpoint's runs and `*` codes, base64, a byte outside US-ASCII.
const TAIL_PIECES: [&[u8]; 13] = [
    b"%",
    b"%3A%2F%2F",
    b"http://a.example/",
    b"https:__",
    b"__;",
    b"!!",
    b"$",
    b"*",
    b"-3A",
    b"_",
    b"&",
    b"aHR0cDovL2EuZXhhbXBsZS8=",
    "\u{e9}".as_bytes(),
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

    /// Any bytes after the start of any kind of wrapper (escapes, base64,
    /// Proofpoint's runs and `*` codes, nested wrappers, bytes outside
    /// US-ASCII among them) unwrap by the laws, and never panic.
    #[test]
    fn any_tail_of_any_wrapper_unwraps_by_the_laws(
        head in 0..HEADS.len(),
        inner in 0..HEADS.len(),
        tail in proptest::collection::vec(
            proptest::prop_oneof![
                13 => proptest::sample::select(&TAIL_PIECES[..]).prop_map(<[u8]>::to_vec),
                1 => proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4),
                1 => "[A-Za-z0-9+/=.~-]{0,6}".prop_map(String::into_bytes),
            ],
            0..12,
        ),
    ) {
        let mut url = HEADS[head].as_bytes().to_vec();
        let mut rest = tail.concat();
        if inner != head && rest.len() % 3 == 0 {
            // A second wrapper inside the first, as gateways chain them.
            let mut nested = HEADS[inner].as_bytes().to_vec();
            nested.append(&mut rest);
            rest = nested;
        }
        url.append(&mut rest);
        check_laws(&url);
    }
}

/// Nested wrappers deeper than [`MAX_DEPTH`] stop there, by the laws.
#[test]
fn a_chain_deeper_than_the_limit_stops_by_the_laws() {
    let mut url = String::from("http://a.example/");
    for _ in 0..2 * MAX_DEPTH {
        url = format!(
            "https://www.google.com/url?q={}",
            url.replace('%', "%25")
                .replace('&', "%26")
                .replace('?', "%3F")
        );
    }
    check_laws(url.as_bytes());
    assert_eq!(unwrap(&url).hops().len(), MAX_DEPTH);
}
