"""urlsift at archive scale, on Apache Spark.

As a job::

    python -m urlsift.spark --master local[2] --files-from LIST --out DIR [PATH ...]

reads the paths listed in LIST (one per line) and those given as arguments
(directories are walked, entries in name order, as the command walks them),
and writes one JSON line per URL into DIR with Spark's JSON writer: ``path``
and the fields of ``urlsift --json``, the same rows the command prints for
the same files. The paths are what is distributed: each task opens and
streams its own files with :func:`urlsift.extract_file` (bounded memory, no
file read whole), one file after another in one thread. With spark-submit
the job is this file: ``spark-submit [options] path/to/urlsift/spark.py
--files-from LIST --out DIR`` (see docs/python.md).

For DataFrames of text, :func:`extract_urls` is a column function: an array
of structs (the ``--json`` fields but ``path``) per row.
"""

import argparse
import os
import stat
import sys
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

import urlsift

#: The fields of a ``--json`` object after ``path``, in the command's order.
MATCH_FIELDS = (
    "line",
    "column",
    "offset",
    "url",
    "form",
    "scheme",
    "fragment",
    "broken",
    "hyphen",
    "alternative",
    "spans",
    "encoding",
    "content_type",
    "warnings",
    "message_id",
)
#: The fields of an output row: the command's ``--json`` object. A table has
#: one schema, so ``member`` (written by the command only for a member of an
#: archive), ``encoding`` and ``content_type`` (only for a URL in a MIME part
#: or encoded text) are null elsewhere.
ROW_FIELDS = ("path", "member") + MATCH_FIELDS


def match_struct():
    """The Spark type of one match (the ``--json`` fields but ``path``)."""
    from pyspark.sql.types import (
        ArrayType,
        BooleanType,
        LongType,
        StringType,
        StructField,
        StructType,
    )

    warning = StructType(
        [
            StructField("code", StringType(), False),
            StructField("message", StringType(), False),
            StructField("offset", LongType(), False),
        ]
    )
    return StructType(
        [
            StructField("line", LongType(), False),
            StructField("column", LongType(), False),
            StructField("offset", LongType(), False),
            StructField("url", StringType(), False),
            StructField("form", StringType(), False),
            StructField("scheme", StringType(), False),
            StructField("fragment", StringType(), True),
            StructField("broken", BooleanType(), False),
            StructField("hyphen", StringType(), True),
            StructField("alternative", StringType(), True),
            StructField("spans", ArrayType(ArrayType(LongType(), False), False), False),
            StructField("encoding", StringType(), True),
            StructField("content_type", StringType(), True),
            StructField("warnings", ArrayType(warning, False), False),
            StructField("message_id", StringType(), True),
        ]
    )


def row_schema():
    """The Spark schema of the job's rows: ``path``, ``member``, then :func:`match_struct`'s fields."""
    from pyspark.sql.types import StringType, StructField, StructType

    return StructType(
        [StructField("path", StringType(), True), StructField("member", StringType(), True)]
        + match_struct().fields
    )


def _values(match: "urlsift.Match", fields: Sequence[str]) -> Tuple:
    d = match.to_dict()
    return tuple(d.get(k) for k in fields)


def file_rows(
    paths: Iterable[str], naked: bool = False, raw: bool = False, counts=None, errors=None
) -> Iterator[Tuple]:
    """The rows of the files at ``paths``, one file after another, each
    streamed. A file that cannot be read is reported on stderr (and counted
    in the accumulator ``errors``) and skipped, as the command goes on after
    an unreadable file; the rows read before a read error stay. The
    accumulator ``counts`` gets the number of rows."""
    for path in paths:
        n = 0
        try:
            for match in urlsift.extract_file(path, naked=naked, raw=raw):
                n += 1
                yield _values(match, ROW_FIELDS)
        except OSError as e:
            print(f"urlsift: {path}: {e}", file=sys.stderr)
            if errors is not None:
                errors.add(1)
        if counts is not None:
            counts.add(n)


def walk(path: str, errors: Optional[List[str]] = None, _above=()) -> Iterator[str]:
    """The files under ``path`` as the command lists them: a file as given,
    a directory walked recursively, entries sorted by their names' bytes,
    symbolic links followed, a link back to a directory being walked
    reported instead (the messages go to stderr and into ``errors``)."""

    def error(message):
        print(f"urlsift: {message}", file=sys.stderr)
        if errors is not None:
            errors.append(message)

    try:
        st = os.stat(path)
    except OSError as e:
        if not _above:
            yield path  # as given: the task reports what is wrong with it
        else:
            error(f"{path}: {e.strerror}")
        return
    if not stat.S_ISDIR(st.st_mode):
        yield path
        return
    here = (st.st_dev, st.st_ino)
    if here in _above:
        error(f"{path}: symbolic link loop (directory already being searched)")
        return
    try:
        names = sorted(os.listdir(path), key=os.fsencode)
    except OSError as e:
        error(f"{path}: {e.strerror}")
        return
    for name in names:
        yield from walk(os.path.join(path, name), errors, _above + (here,))


def extract_urls(col, *, naked: bool = False, raw: bool = False, strict: bool = False):
    """A column of ``string`` or ``binary`` text -> a column of arrays of
    structs, one per URL, with the fields of ``urlsift --json`` but ``path``
    (see :func:`match_struct`). A null text gives a null array.

    >>> df.select(extract_urls("body").alias("urls"))  # doctest: +SKIP
    """
    from pyspark.sql.functions import udf
    from pyspark.sql.types import ArrayType

    # Checked here, on the driver: an option the library lacks fails now,
    # not in every task.
    urlsift.extract(b"", naked=naked, raw=raw, strict=strict)

    def urls(text):
        if text is None:
            return None
        found = urlsift.extract(text, naked=naked, raw=raw, strict=strict)
        return [_values(m, MATCH_FIELDS) for m in found]

    return udf(urls, ArrayType(match_struct(), False), useArrow=False)(col)


def read_list(path: str) -> List[str]:
    """The paths listed in a file, one per line (``-``: stdin); empty lines
    are skipped."""
    stream = sys.stdin if path == "-" else open(path, encoding="utf-8", errors="surrogateescape")
    with stream:
        return [line.rstrip("\r\n") for line in stream if line.strip("\r\n")]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m urlsift.spark",
        description="Extract the RFC 1738 URLs of many files with Spark: one JSON line "
        "per URL (path and the fields of urlsift --json) written to DIR.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories")
    p.add_argument("--files-from", metavar="LIST", help="a file of paths, one per line ('-': stdin)")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory (Spark's JSON writer)")
    p.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    p.add_argument("--naked", action="store_true", help="also URLs written without brackets")
    p.add_argument("--raw", action="store_true", help="MIME parts as written, not decoded")
    p.add_argument("--partitions", type=int, metavar="N", help="tasks (default: 4 per core, at most one per file)")
    p.add_argument("--overwrite", action="store_true", help="replace DIR if it exists")
    p.add_argument("--compression", default="none", help="output compression: none, gzip, bzip2, ...")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the job; the exit status is the command's: 0 when URLs were
    found, 1 when none were, 2 when a file could not be read."""
    args = _parser().parse_args(argv)
    paths: List[str] = []
    if args.files_from:
        paths.extend(read_list(args.files_from))
    paths.extend(args.paths)
    if not paths:
        _parser().error("no input: give paths or --files-from LIST")
    walk_errors: List[str] = []
    files = [f for p in paths for f in walk(p, walk_errors)]

    from pyspark.sql import SparkSession

    if args.master and args.master.startswith("local"):
        # Local workers run this interpreter (and so this package).
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # A session already running (a notebook's, a test's) is used and left
    # running; one started here is stopped at the end.
    spark = SparkSession.getActiveSession()
    own = spark is None
    if own:
        builder = SparkSession.builder.appName("urlsift")
        if args.master:
            builder = builder.master(args.master)
        spark = builder.getOrCreate()
    try:
        sc = spark.sparkContext
        errors = sc.accumulator(0)
        counts = sc.accumulator(0)
        slices = args.partitions or min(len(files), 4 * sc.defaultParallelism)
        naked, raw = args.naked, args.raw
        rows = sc.parallelize(files, max(1, slices)).mapPartitions(
            lambda part: file_rows(part, naked, raw, counts, errors)
        )
        # The rows are built to the schema: no check per row.
        df = spark.createDataFrame(rows, row_schema(), verifySchema=False)
        df.write.mode("overwrite" if args.overwrite else "errorifexists").option(
            "ignoreNullFields", "false"
        ).option("compression", args.compression).json(args.out)
    finally:
        if own:
            spark.stop()
    if errors.value or walk_errors:
        n = errors.value + len(walk_errors)
        print(f"urlsift: {n} file(s) could not be read", file=sys.stderr)
        return 2
    return 0 if counts.value else 1


if __name__ == "__main__":
    sys.exit(main())
