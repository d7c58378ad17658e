"""urlsift: the URLs that mail and Usenet news carry, found exactly as RFC 1738's
Appendix writes them (``<URL:...>`` and ``<scheme:...>``, broken across lines,
quoted in replies), MIME decoded, naked URLs on request, by the urlsift Rust
library.

>>> import urlsift
>>> [m.url for m in urlsift.extract(b"> see <URL:ftp://ds.in\\n>   ternic.net/rfc/>")]
['ftp://ds.internic.net/rfc/']

- :func:`extract` scans ``bytes`` or ``str`` in memory and returns a list of
  :class:`Match`;
- :func:`extract_file` streams a file as the command reads it (gzip, bzip2,
  xz and zstd decoded; the members of zip and tar archives searched one by
  one, :attr:`Match.member` naming each) and yields :class:`Match` objects,
  in bounded memory whatever the file's size; it takes a path or a URI
  (``s3://``, ``gs://``, ``az://``, ``hdfs://``, ``http(s)://``, ``file://``:
  see :mod:`urlsift.remote`);
- :func:`extract_stream` does the same with a binary file object already
  open (a file, an fsspec file, a socket's ``makefile("rb")``,
  ``sys.stdin.buffer``);
- :func:`parse` parses one URL as ``urlsift --parse`` does, raising
  :class:`URLError` for one that is not valid.

A :class:`Match` has the fields of the command's ``--json`` output as
attributes, and :meth:`Match.to_dict` gives the object ``--json`` prints.
The GIL is released while the library scans. :mod:`urlsift.spark` runs the
extraction over many files with Apache Spark.
"""

import os

from . import remote
from ._urlsift import (
    DamageWarning,
    Derivatives,
    FileMatches,
    Match,
    URLError,
    __version__,
    extract,
    extract_stream,
    parse,
)
from ._urlsift import extract_file as _extract_path


def extract_file(path, *, storage_options=None, naked=False, raw=False, strict=False,
                 html="fallback", unwrap=False, errors="strict", list_id=False, fields=None):
    """Streams the file at ``path`` (a path, or a URI fsspec reads) as the
    command reads it and iterates over its URLs: :class:`Match` objects
    whose ``path`` is ``path`` as given. Plain paths and ``file://`` URIs
    are read natively; other URIs are opened with fsspec
    (``storage_options`` passed to it) and streamed as
    :func:`extract_stream` streams them, seekable ones read in place (a
    zip by range requests). A file that cannot be opened raises
    ``OSError`` (with the URI as its filename) at once. ``unwrap`` gives
    each match its ``target`` and ``via`` (where a wrapped link goes),
    ``list_id`` its message's ``list_id`` (the ``List-Id:``). ``fields``
    names the message fields read, as the command's ``--fields`` does
    (``"date,subject"`` or ``["date", "subject"]``; ``"none"`` or ``()``
    for none); by default ``--json``'s four (``date``, ``newsgroups``,
    ``subject``, ``message_id``). A field not read is ``None`` on every
    match, and a scan that reads none walks no header for them: with
    ``fields=()`` a mailbox is read about as fast as by the command.

    A file damaged further on (a gzip cut short, a bad member of a zip)
    yields every URL of the bytes before the damage, as the command prints
    them; then ``errors`` says what follows, as Python's codecs name it:
    ``"strict"`` (the default) raises ``OSError``, whose ``damages`` lists
    ``(member, error)`` per failure (``member`` ``None`` for the file
    itself); ``"warn"`` warns with :class:`DamageWarning` and ends;
    ``"ignore"`` ends. The iterator's ``damages`` lists the failures met
    in every case. A file read natively is scanned on a thread of its own
    once it has given a few hundred URLs, so that the next are found while
    Python works on the ones before."""
    if remote.is_remote(path):
        f = remote.open_uri(path, storage_options)
        try:
            return extract_stream(f, name=path, naked=naked, raw=raw, strict=strict, html=html,
                                  unwrap=unwrap, errors=errors, list_id=list_id, fields=fields)
        except BaseException:
            f.close()
            raise
    if isinstance(path, str) and remote.protocol(path) is not None:
        # A file:// URI: the local file, the matches naming the URI.
        local = remote.local_path(path)
        return _extract_path(local, name=path, naked=naked, raw=raw, strict=strict, html=html,
                             unwrap=unwrap, errors=errors, list_id=list_id, fields=fields)
    return _extract_path(os.fspath(path), naked=naked, raw=raw, strict=strict, html=html,
                         unwrap=unwrap, errors=errors, list_id=list_id, fields=fields)

__all__ = [
    "DamageWarning",
    "Derivatives",
    "FileMatches",
    "Match",
    "URLError",
    "__version__",
    "extract",
    "extract_file",
    "extract_stream",
    "parse",
]
