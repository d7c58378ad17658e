#!/usr/bin/env python3
# xcheck.py - compare the expectations of the case files (tests/data/scan,
# tests/data/real; format in tests/common/mod.rs) with ref-extract, the
# executable statement of the extraction contract.
#
# Usage: tests/data/xcheck.py [REF-EXTRACT] [CASE-FILE...]
# REF-EXTRACT defaults to ../shared/bench/ref-extract next to the repository.
# Not run by `cargo test` (the crate must test from its own clone alone).
# Cases with a `ref: skip` header (ISO-2022-JP, library-only limits) are
# skipped. Exit status 1 on any difference.

import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = subprocess.run(["git", "-C", HERE, "rev-parse", "--show-toplevel"],
                      capture_output=True, text=True).stdout.strip()


def unescape(s):
    out = bytearray()
    b = s.encode("utf-8")
    i = 0
    while i < len(b):
        if b[i] == 0x5C and i + 1 < len(b):
            c = chr(b[i + 1])
            m = {"r": b"\r", "t": b"\t", "e": b"\x1b", "s": b" ", "\\": b"\\"}
            if c in m:
                out += m[c]
                i += 2
                continue
            if c == "x":
                out.append(int(b[i + 2:i + 4], 16))
                i += 4
                continue
        out.append(b[i])
        i += 1
    return bytes(out)


def cases(path):
    text = open(path, encoding="utf-8").read()
    for block in text.split("\n=== ")[1:]:
        name, rest = block.split("\n", 1)
        head, rest = rest.split("--- input\n", 1)
        if "\n--- expect\n" in rest:
            inp, exp = rest.split("\n--- expect\n", 1)
        else:
            inp, exp = rest.split("\n--- expect", 1)
        hdr = {}
        for h in head.splitlines():
            h = h.strip()
            if h and not h.startswith("#"):
                k, v = h.split(":", 1)
                hdr[k] = v.strip()
        want = [l.split() for l in exp.splitlines()
                if l.strip() and not l.strip().startswith("#")]
        yield name.strip(), hdr, unescape(inp), want


def main():
    args = sys.argv[1:]
    ref = os.path.join(ROOT, "..", "shared", "bench", "ref-extract")
    if args and not args[0].endswith(".txt"):
        ref = args.pop(0)
    files = args or sorted(glob.glob(os.path.join(HERE, "scan", "*.txt")) +
                           glob.glob(os.path.join(HERE, "real", "*.txt")) +
                           glob.glob(os.path.join(HERE, "naked", "*.txt")))
    bad = 0
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            for name, hdr, data, want in cases(f):
                if "ref" in hdr or "limits" in hdr:
                    continue
                n += 1
                p = os.path.join(tmp, "case")
                open(p, "wb").write(data)
                # The library reads MIME by default (rules 10-13); a case
                # with `mime: off` is the raw reading.
                cmd = [ref, "--tags", "--raw" if hdr.get("mime") == "off" else "--mime"]
                if hdr.get("policy") == "strict":
                    cmd.append("--strict")
                # HTML parts (rules 18-22): read as the case's `html:` says
                # (fallback by default, as the library).
                if hdr.get("mime") != "off" and hdr.get("html", "fallback") != "never":
                    cmd.append("--html=" + hdr.get("html", "fallback"))
                # The cases of tests/data/naked run with naked URLs on.
                if os.path.basename(os.path.dirname(os.path.abspath(f))) == "naked":
                    cmd.append("--naked")
                out = subprocess.run(cmd + [p], capture_output=True, check=True).stdout
                rows = [r.split("\t") for r in out.decode().splitlines()]
                got = [r[2] for r in rows]
                exp = [w[0] for w in want]
                errs = []
                if got != exp:
                    errs.append("urls: ref %r, case %r" % (got, exp))
                else:
                    for r, w in zip(rows, want):
                        tags = r[3].split(",")
                        for a in w[1:]:
                            k, _, v = a.partition("=")
                            if k == "line" and r[1] != v:
                                errs.append("%s line ref %s case %s" % (r[2], r[1], v))
                            if k == "form" and tags[0] != {"bracketed": "bare"}.get(v, v):
                                errs.append("%s form ref %s case %s" % (r[2], tags, v))
                            if k in ("broken", "unbroken") and ("broken" in tags) != (k == "broken"):
                                errs.append("%s broken ref %s case %s" % (r[2], tags, k))
                            if k in ("quoted", "unquoted") and ("quoted-break" in tags) != (k == "quoted"):
                                errs.append("%s quoted ref %s case %s" % (r[2], tags, k))
                            if k == "hyphen" and ("hyphen-break" in tags) != (v != "none"):
                                errs.append("%s hyphen ref %s case %s" % (r[2], tags, v))
                            # ref-extract names an alternative only for one hyphen break
                            if k == "alt" and r[4] and r[4] != v:
                                errs.append("%s alt ref %s case %s" % (r[2], r[4], v))
                            if k == "alt" and r[4] == "" and v not in ("none", ""):
                                errs.append("%s alt: ref none, case %s (ok if several hyphen breaks)" % (r[2], v))
                if errs:
                    bad += 1
                    print("%s:%s" % (os.path.basename(f), name))
                    for e in errs:
                        print("   " + e)
    print("%d cases checked with ref-extract, %d differ" % (n, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
