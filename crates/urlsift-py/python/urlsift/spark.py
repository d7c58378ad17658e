"""urlsift at archive scale, on Apache Spark.

As a job::

    python -m urlsift.spark --master local[2] --files-from LIST --out DIR [PATH-OR-URI ...]

reads the paths and URIs listed in LIST (one per line; LIST may be a URI)
and those given as arguments (directories and store prefixes are listed on
the driver, in name order, as the command walks a directory), and writes
one row per URL into DIR (JSON lines, or Parquet with ``--format
parquet``): ``path`` and the fields of ``urlsift --json``, the same rows the
command prints for the same files. The driver plans the tasks from the
files' sizes (runs of about equal bytes, in order; a large plain file cut
into ranges at message starts); each task reads its own files (a URI with
fsspec, ``--storage-option KEY=VALUE`` passed to it) and hands its rows to
Spark as Arrow record batches whose columns the library builds in Rust
(``mapInArrow``). An input that cannot be read, or read to its end, keeps
the rows before the damage and ends no task: each failure is a row of
``DIR/_errors`` (``path``, ``member``, ``error``) and the job exits 2, as
the command does. With spark-submit the job is this file (see
docs/python.md, "At scale").

For DataFrames of text, :func:`extract_urls` is a column function: an array
of structs (the ``--json`` fields but ``path``) per row.
"""

import argparse
import os
import stat
import sys
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

import urlsift
from urlsift import _urlsift, remote

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
    "anchor",
    "warnings",
    "message_id",
)
#: The fields of an output row: the command's ``--json`` object. A table has
#: one schema, so ``member`` (written by the command only for a member of an
#: archive), ``encoding`` and ``content_type`` (only for a URL in a MIME part
#: or encoded text) and ``anchor`` (only for an ``href`` URL) are null
#: elsewhere.
ROW_FIELDS = ("path", "member") + MATCH_FIELDS


#: The fields ``unwrap=True`` adds after ``warnings``, as ``--json --unwrap``
#: does: the wrapper's target and the kinds of wrappers it goes through.
UNWRAP_FIELDS = ("target", "via")


def _match_fields(unwrap: bool) -> Tuple[str, ...]:
    """:data:`MATCH_FIELDS`, with ``unwrap`` :data:`UNWRAP_FIELDS` after
    ``warnings``."""
    if not unwrap:
        return MATCH_FIELDS
    at = MATCH_FIELDS.index("warnings") + 1
    return MATCH_FIELDS[:at] + UNWRAP_FIELDS + MATCH_FIELDS[at:]


def match_struct(unwrap: bool = False):
    """The Spark type of one match (the ``--json`` fields but ``path``;
    with ``unwrap``, ``target`` and ``via`` after ``warnings``)."""
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
    unwrapped = [
        StructField("target", StringType(), True),
        StructField("via", ArrayType(StringType(), False), False),
    ] if unwrap else []
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
            StructField("anchor", StringType(), True),
            StructField("warnings", ArrayType(warning, False), False),
            *unwrapped,
            StructField("message_id", StringType(), True),
        ]
    )


def row_schema(unwrap: bool = False, list_id: bool = False):
    """The Spark schema of the job's rows, from the library's list of
    fields (:func:`urlsift._urlsift.columns`): ``path``, ``member``, then
    the ``--json`` fields (with ``unwrap``, ``--json --unwrap``'s: ``target``
    and ``via`` after ``warnings``; with ``list_id``, ``list_id`` last)."""
    from pyspark.sql.types import StructField, StructType, _parse_datatype_string

    return StructType(
        [
            StructField(name, _parse_datatype_string(spark_type), nullable)
            for name, _, spark_type, nullable in _urlsift.columns(unwrap, list_id)
        ]
    )


def _values(match: "urlsift.Match", fields: Sequence[str]) -> Tuple:
    d = match.to_dict()
    return tuple(d.get(k) for k in fields)


def _describe(e: OSError) -> str:
    """An error as the command words it: ``path: what``."""
    if e.filename is not None and e.strerror:
        return f"{e.filename}: {e.strerror}"
    return str(e)


#: The fields of a row of ``OUT/_errors``: one failure each.
ERROR_FIELDS = ("path", "member", "error")


def failures(uri: str, e: BaseException) -> List[Tuple[str, Optional[str], str]]:
    """``(path, member, error)`` of each failure an exception raised over
    the input ``uri`` stands for: a damaged file's ``damages`` (one per
    member that could not be read), else the error itself."""
    damages = getattr(e, "damages", None)
    if damages:
        return [(uri, member, error) for member, error in damages]
    if isinstance(e, OSError):
        if e.strerror:
            return [(uri, None, e.strerror)]
        text = str(e)
        return [(uri, None, text[len(uri) + 2:] if text.startswith(uri + ": ") else text)]
    return [(uri, None, f"{type(e).__name__}: {e}")]


def _say(failure: Tuple[str, Optional[str], str]) -> str:
    """A failure as the command prints it: ``path{member}: error``."""
    path, member, error = failure
    where = path if member is None else f"{path}{{{member}}}"
    return f"urlsift: {where}: {error}"


class FailureList:
    """The accumulator parameter of the tasks' failures: lists of
    ``(path, member, error)``, joined (an accumulator of a few rows: one per
    input that could not be read)."""

    def zero(self, value):
        return []

    def addInPlace(self, a, b):
        a.extend(b)
        return a


class DerivativesParam:
    """The accumulator parameter of the report's counts: a
    :class:`urlsift.Derivatives` per task (shipped as its bytes), merged
    into the driver's as each task ends. The counts are added by the tasks
    that write the rows, in the write's own (result) stage: Spark applies
    a result task's accumulator updates once per partition, so a task run
    again, or a speculative copy, counts nothing twice."""

    def zero(self, value):
        return _urlsift.Derivatives()

    def addInPlace(self, a, b):
        # The terms are the tasks' own (or unpickled for the driver): moved,
        # not copied; into nothing, a term is the sum.
        if a.urls == 0:
            return b
        a.merge(b, consume=True)
        return a


#: Ranges of a large plain file are cut this often (``--split-size``).
SPLIT = 256 << 20
#: How far before a nominal cut a message start is looked for.
WINDOW = 64 << 10
#: The share of the split size a file may pass it by and stay whole, and
#: the shortest last range: a range of a few bytes would cost a task of its
#: own and a count of every line before it.
SLOP = 0.1


def _open(uri: str, storage_options):
    """A local path as it is (read natively), a URI open with fsspec."""
    if remote.is_remote(uri):
        return remote.open_uri(uri, storage_options)
    return remote.local_path(uri)


def _read(uri: str, storage_options, start: int, stop: int) -> bytes:
    src = _open(uri, storage_options)
    f = open(src, "rb") if isinstance(src, str) else src
    with f:
        f.seek(start)
        return f.read(stop - start)


def cuts(uri: str, size: int, storage_options=None, split: int = SPLIT) -> List[int]:
    """Where a file of ``size`` bytes is cut into ranges read by different
    tasks: ``[0, ..., size]``, each inner cut a message start (an mbox
    ``From `` line after an empty line) found in the window before a
    multiple of ``split``; a compressed file or an archive (by content), or
    one with no message start in a window, is not cut there. A file at
    most :data:`SLOP` of ``split`` larger than ``split`` is not cut, and
    the last range is at least that long."""
    slop = int(split * SLOP)
    if size <= split + slop:
        return [0, size]
    if not _urlsift.plain_head(_read(uri, storage_options, 0, 512)):
        return [0, size]
    out = [0]
    for at in range(split, size - slop, split):
        lo = max(out[-1], at - WINDOW)
        k = _urlsift.message_start(_read(uri, storage_options, lo, at))
        if k is not None and lo + k > out[-1]:
            out.append(lo + k)
    out.append(size)
    return out


def _line_counts(sc, pieces, storage_options) -> List[int]:
    """The line feeds of each ``(uri, start, stop)``, counted by tasks."""
    if not pieces:
        return []

    def count(piece):
        uri, start, stop = piece
        try:
            return _urlsift.count_lines(_open(uri, storage_options), start, stop)
        except Exception:
            return 0  # the range's own task reports what is wrong

    slices = min(len(pieces), 4 * sc.defaultParallelism)
    return sc.parallelize(pieces, slices).map(count).collect()


def plan(sc, files, storage_options=None, split: int = SPLIT):
    """The tasks for ``(uri, size)`` files, in order: ``(uri, size, range)``,
    ``range`` being ``None`` for a whole file or ``(start, stop, lines)``
    for a range of a large plain file (the lines before it counted by a
    first set of tasks)."""
    tasks, pieces = [], []
    for uri, size in files:
        try:
            c = cuts(uri, size, storage_options, split)
        except Exception:
            c = [0, size]  # the task reports what is wrong
        if len(c) <= 2:
            tasks.append([uri, size, None])
            continue
        for a, b in zip(c, c[1:]):
            pieces.append((uri, a, b))
            tasks.append([uri, b - a, (a, b)])
    counts = iter(_line_counts(sc, pieces, storage_options))
    lines = {}
    for uri, a, b in pieces:
        lines[(uri, a)] = lines.get((uri, a), 0)
        n = next(counts)
        lines[(uri, b)] = lines[(uri, a)] + n
    for t in tasks:
        if t[2] is not None:
            a, b = t[2]
            t[2] = (a, b, lines[(t[0], a)])
    return [tuple(t) for t in tasks]


def balance(tasks, parts: int) -> List[List]:
    """``tasks`` in order cut into about ``parts`` runs of about equal
    bytes: a large file is a run alone, small ones are grouped, and the
    runs in order are the command's order."""
    total = sum(max(t[1], 1) for t in tasks)
    target = total / max(1, parts)
    runs, run, acc = [], [], 0
    for t in tasks:
        size = max(t[1], 1)
        bound = target * (len(runs) + 1)
        # A run ends before a task that would take it further past its
        # share than it stays short of it: a large file starts a run.
        if run and acc + size - bound > bound - acc:
            runs.append(run)
            run = []
        run.append(t)
        acc += size
        if acc >= target * (len(runs) + 1):
            runs.append(run)
            run = []
    if run:
        runs.append(run)
    return runs


def batches(task, storage_options=None, naked=False, raw=False, counts=None, errors=None,
            json=False, html="fallback", unwrap=False, failed=None, list_id=False, report=None):
    """The record batches of one task ``(uri, size, range)`` (with
    ``list_id``, each row's ``List-Id`` too: see
    :func:`urlsift.arrow.record_batches`). A file that
    cannot be read, or read to its end, is reported on stderr (counted in
    the accumulator ``errors``, its failures added to ``failed``, a
    :class:`FailureList` accumulator), the batches before the damage kept,
    as the command goes on after an unreadable file: whatever an input
    raises ends its task's reading of that input only, never the task;
    ``counts`` gets the number of rows, and ``report`` (a
    :class:`urlsift.Derivatives`) the rows counted as ``--report`` counts
    them."""
    # Absolute: a task's function may come from the job run as a file.
    from urlsift.arrow import record_batches

    uri, _, rng = task
    n = 0
    src = None
    try:
        src = _open(uri, storage_options)
        for b in record_batches(src, name=uri, range=rng, naked=naked, raw=raw, json=json,
                                html=html, unwrap=unwrap, list_id=list_id, report=report):
            n += b.num_rows
            yield b
    except (GeneratorExit, KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # a panic in the library too: one input's failure
        found = failures(uri, e)
        for f in found:
            print(_say(f), file=sys.stderr)
        if errors is not None:
            errors.add(1)
        if failed is not None:
            failed.add(found)
    finally:
        if src is not None and not isinstance(src, str):
            src.close()
    if counts is not None:
        counts.add(n)


#: Rows a record batch handed to Spark gathers from the small files of a
#: task, at least (as many as a large file's batches hold).
GROUP = 16384


def grouped(batches: Iterable, rows: int = GROUP) -> Iterator:
    """``batches`` (pyarrow record batches of one schema) in order, those
    of fewer than ``rows`` rows joined with the next ones into batches of
    about ``rows`` rows: a small file's few rows are not a batch of their
    own, each of which costs the JVM as much as a large one to take in."""
    held: List = []
    n = 0
    for b in batches:
        if not held and b.num_rows >= rows:
            yield b
            continue
        held.append(b)
        n += b.num_rows
        if n >= rows:
            yield _joined(held)
            held, n = [], 0
    if held:
        yield _joined(held)


def _joined(held: List):
    """One record batch of the rows of ``held``, in order."""
    if len(held) == 1:
        return held[0]
    import pyarrow as pa

    return pa.Table.from_batches(held).combine_chunks().to_batches()[0]


def walk(path: str, errors: Optional[List[str]] = None, _above=(), *,
         failed: Optional[List[Tuple[str, Optional[str], str]]] = None) -> Iterator[str]:
    """The files under ``path`` as the command lists them: a file as given,
    a directory walked recursively, entries sorted by their names' bytes,
    symbolic links followed, a link back to a directory being walked
    reported instead (the messages go to stderr and into ``errors``, and
    as ``(path, None, error)`` into ``failed``)."""

    def error(where, what):
        print(f"urlsift: {where}: {what}", file=sys.stderr)
        if errors is not None:
            errors.append(f"{where}: {what}")
        if failed is not None:
            failed.append((where, None, what))

    try:
        st = os.stat(path)
    except OSError as e:
        if not _above:
            yield path  # as given: the task reports what is wrong with it
        else:
            error(path, e.strerror)
        return
    if not stat.S_ISDIR(st.st_mode):
        yield path
        return
    here = (st.st_dev, st.st_ino)
    if here in _above:
        error(path, "symbolic link loop (directory already being searched)")
        return
    try:
        names = sorted(os.listdir(path), key=os.fsencode)
    except OSError as e:
        error(path, e.strerror)
        return
    for name in names:
        yield from walk(os.path.join(path, name), errors, _above + (here,), failed=failed)


def extract_urls(col, *, naked: bool = False, raw: bool = False, strict: bool = False,
                 html: str = "fallback", unwrap: bool = False):
    """A column of ``string`` or ``binary`` text -> a column of arrays of
    structs, one per URL, with the fields of ``urlsift --json`` but ``path``
    (see :func:`match_struct`; with ``unwrap``, a wrapped link's ``target``
    and ``via`` too, as ``--json --unwrap``). A null text gives a null
    array.

    >>> df.select(extract_urls("body").alias("urls"))  # doctest: +SKIP
    """
    from pyspark.sql.functions import udf
    from pyspark.sql.types import ArrayType

    # Checked here, on the driver: an option the library lacks fails now,
    # not in every task.
    urlsift.extract(b"", naked=naked, raw=raw, strict=strict, html=html, unwrap=unwrap)
    fields = _match_fields(unwrap)

    def urls(text):
        if text is None:
            return None
        found = urlsift.extract(text, naked=naked, raw=raw, strict=strict, html=html,
                                unwrap=unwrap)
        return [_values(m, fields) for m in found]

    return udf(urls, ArrayType(match_struct(unwrap), False), useArrow=False)(col)


def derivatives(df, *, url="url", date="date", newsgroups="newsgroups", list_id=None,
                path="path", member="member", message_id="message_id"):
    """The derivatives of ``urlsift --report`` (:class:`urlsift.Derivatives`)
    of a DataFrame with a row per URL, as a Spark aggregation: each
    partition counts its rows, read as Arrow batches, into an accumulator
    (the library's code), shipped as bytes and merged by ``treeAggregate``;
    no row goes to the driver. ``date`` is a timestamp column (or RFC 3339 strings);
    ``newsgroups`` an array of strings; the other columns strings, those
    named ``None`` taken as null. The result's ``files()`` and ``write(dir)``
    give the command's files and page."""
    from pyspark.sql import functions as F

    def col(name, alias, kind="string"):
        return (F.col(name) if name else F.lit(None).cast(kind)).alias(alias)

    when = F.col(date)
    if dict(df.dtypes).get(date) == "string":
        when = F.to_timestamp(when)
    rows = df.select(
        col(url, "u"),
        F.unix_timestamp(when).alias("t") if date else F.lit(None).cast("long").alias("t"),
        col(newsgroups, "g", "array<string>"),
        col(list_id, "l"),
        col(path, "p"),
        col(member, "m"),
        col(message_id, "i"),
    )

    def count(parts):
        # Arrow batches, each column made a list at once: the rows are never
        # Python `Row` objects (a DataFrame's `.rdd` makes one per row, and
        # that cost the job five times its own time).
        import pyarrow as pa

        d = _urlsift.Derivatives()
        for b in parts:
            c = b.to_pydict()
            for u, t, g, l, p, m, i in zip(c["u"], c["t"], c["g"], c["l"], c["p"], c["m"], c["i"]):
                if u is not None:
                    d.add(u, t, g, l, p or "", m, i)
        yield pa.RecordBatch.from_arrays([pa.array([d.to_bytes()], pa.binary())], names=["d"])

    merge = _urlsift.Derivatives.merge_bytes
    merged = rows.mapInArrow(count, "d binary").rdd.map(lambda r: bytes(r.d)).treeAggregate(
        _urlsift.Derivatives().to_bytes(), merge, merge)
    return _urlsift.Derivatives.from_bytes(merged)


def read_list(path: str, storage_options=None) -> List[str]:
    """The paths listed in a file, one per line (``-``: stdin; a URI: the
    object there); empty lines are skipped."""
    if remote.is_remote(path):
        return [line for line in remote.read_text_lines(path, storage_options) if line]
    stream = sys.stdin if path == "-" else open(remote.local_path(path), encoding="utf-8", errors="surrogateescape")
    with stream:
        return [line.rstrip("\r\n") for line in stream if line.strip("\r\n")]


def _option_value(v: str):
    low = v.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(v)
    except ValueError:
        return v


def storage_options(pairs: Sequence[str]) -> dict:
    """``KEY=VALUE`` pairs as fsspec's storage options: ``true``/``false``
    and integers as such, a dotted key (``client_kwargs.region_name``) as
    a nested dict."""
    out: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--storage-option takes KEY=VALUE, not {pair!r}")
        *path, last = key.split(".")
        d = out
        for k in path:
            d = d.setdefault(k, {})
        d[last] = _option_value(value)
    return out


def inputs(paths: Sequence[str], storage_options=None, errors: Optional[List[str]] = None,
           failed: Optional[List[Tuple[str, Optional[str], str]]] = None):
    """``(uri, size)`` of the files named: local directories walked and
    store prefixes listed, in name order (a missing input given as it is,
    for its task to report). A store path that cannot be listed is said on
    stderr, into ``errors`` (as the command words it) and ``failed`` (as
    ``(path, member, error)``)."""
    out = []
    for p in paths:
        if remote.is_remote(p):
            try:
                out.extend(remote.list_files(p, storage_options))
            except OSError as e:
                print(f"urlsift: {_describe(e)}", file=sys.stderr)
                if errors is not None:
                    errors.append(_describe(e))
                if failed is not None:
                    failed.extend(failures(p, e))
            continue
        local = remote.local_path(p)
        for f in walk(local, errors, failed=failed):
            try:
                size = os.stat(f).st_size
            except OSError:
                size = 0
            out.append((f if local == p else "file://" + f, size))
    return out


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m urlsift.spark",
        description="Extract the RFC 1738 URLs of many files with Spark: one row "
        "per URL (path and the fields of urlsift --json) written to DIR.",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files, directories, URIs or prefixes (s3://bucket/dir/)")
    p.add_argument("--files-from", metavar="LIST", help="a file (or URI) of paths, one per line ('-': stdin)")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory or URI")
    p.add_argument("--format", choices=("json", "parquet"), default="json", help="output format (default json)")
    p.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    p.add_argument("--naked", action="store_true", help="also URLs written without brackets")
    p.add_argument("--raw", action="store_true", help="MIME parts as written, not decoded")
    p.add_argument("--html", choices=["fallback", "always", "never"], default="fallback",
                   help="which HTML parts are read (as the command's --html)")
    p.add_argument("--unwrap", action="store_true",
                   help="add target and via: where wrapped links (Safe Links, Proofpoint, ...) go")
    p.add_argument("--partitions", type=int, metavar="N", help="tasks (default: 4 per core)")
    p.add_argument("--split-size", type=int, default=SPLIT, metavar="BYTES",
                   help="a plain file larger than this (by more than a tenth) is cut into ranges at message starts")
    p.add_argument("--storage-option", action="append", default=[], metavar="KEY=VALUE",
                   help="an fsspec storage option (repeatable)")
    p.add_argument("--overwrite", action="store_true", help="replace DIR if it exists")
    p.add_argument("--compression", default="none", help="output compression: none, gzip, snappy, zstd, ...")
    p.add_argument("--report", metavar="DIR",
                   help="also write the derivatives and the report page of urlsift --report into DIR (local)")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs the job; the exit status is the command's: 0 when URLs were
    found, 1 when none were, 2 when a file could not be read."""
    parser = _parser()
    args = parser.parse_intermixed_args(argv)
    try:
        so = storage_options(args.storage_option)
    except ValueError as e:
        parser.error(str(e))
    paths: List[str] = []
    if args.files_from:
        paths.extend(read_list(args.files_from, so))
    paths.extend(args.paths)
    if not paths:
        parser.error("no input: give paths or --files-from LIST")
    listed: List[Tuple[str, Optional[str], str]] = []
    files = inputs(paths, so, failed=listed)

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
        failed = sc.accumulator([], FailureList())
        tasks = plan(sc, files, so, args.split_size)
        runs = balance(tasks, args.partitions or 4 * sc.defaultParallelism)
        shared = sc.broadcast(runs)
        naked, raw, html, unwrap = args.naked, args.raw, args.html, args.unwrap
        # The report's counts are made by the tasks that write the rows, as
        # they scan (the library's code, the command's counting): no row is
        # read back.
        report = bool(args.report)
        derived = sc.accumulator(_urlsift.Derivatives(), DerivativesParam()) if report else None
        # JSON lines are written by the library, one string per row, and
        # Spark's text writer writes them as they are: the JVM converts no
        # row (the bytes Spark's JSON writer gives for the typed rows).
        json = args.format == "json"

        def run(ids):
            d = _urlsift.Derivatives() if report else None
            tasks = (task for b in ids for i in b.column(0).to_pylist() for task in shared.value[i])
            yield from grouped(
                b for task in tasks
                for b in batches(task, so, naked, raw, counts, errors, json, html, unwrap,
                                 failed, report=d))
            if d is not None:
                derived.add(d)

        n = max(1, len(runs))
        ids = spark.range(0, len(runs), 1, n)
        schema = "value string" if json else row_schema(unwrap)
        df = ids.mapInArrow(run, schema)
        out = df.write.mode("overwrite" if args.overwrite else "errorifexists")
        if args.compression:
            out = out.option("compression", args.compression)
        if json:
            out.text(args.out)
        else:
            out.parquet(args.out)
        found = listed + _in_order(failed.value, files)
        if found:
            write_errors(spark, found, args.out, args.format)
        if report:
            derived.value.write(args.report)
    finally:
        if own:
            spark.stop()
    if found:
        n = len({path for path, _, _ in found})
        print(f"urlsift: {n} file(s) could not be read ({len(found)} failure(s) in "
              f"{_errors_dir(args.out)})", file=sys.stderr)
        return 2
    return 0 if counts.value else 1


def _in_order(found, files) -> List[Tuple[str, Optional[str], str]]:
    """The tasks' failures once each (a task run again adds its own again),
    in the inputs' order."""
    at = {uri: i for i, (uri, _) in enumerate(files)}
    unique = list(dict.fromkeys(tuple(f) for f in found))
    return sorted(unique, key=lambda f: at.get(f[0], -1))


def _errors_dir(out: str) -> str:
    return out.rstrip("/") + "/_errors"


def write_errors(spark, found, out: str, fmt: str = "json") -> None:
    """Writes ``(path, member, error)`` rows, one per failure, into
    ``OUT/_errors`` (one part, JSON lines with nulls written, or Parquet as
    the rows are): Spark's readers of ``OUT`` skip it, as they skip every
    name starting with ``_``."""
    from pyspark.sql.types import StringType, StructField, StructType

    schema = StructType([StructField(name, StringType(), name == "member") for name in ERROR_FIELDS])
    df = spark.createDataFrame([tuple(f) for f in found], schema).coalesce(1)
    w = df.write.mode("overwrite")
    if fmt == "parquet":
        w.parquet(_errors_dir(out))
    else:
        w.option("ignoreNullFields", "false").json(_errors_dir(out))


if __name__ == "__main__":
    # The package's module, not this file run as __main__ (spark-submit
    # runs the file): the tasks' functions are then pickled by reference to
    # urlsift.spark, which the executors import from the shipped package.
    from urlsift.spark import main as _main

    sys.exit(_main())
