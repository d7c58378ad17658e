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
  in bounded memory whatever the file's size;
- :func:`parse` parses one URL as ``urlsift --parse`` does, raising
  :class:`URLError` for one that is not valid.

A :class:`Match` has the fields of the command's ``--json`` output as
attributes, and :meth:`Match.to_dict` gives the object ``--json`` prints.
The GIL is released while the library scans. :mod:`urlsift.spark` runs the
extraction over many files with Apache Spark.
"""

from ._urlsift import (
    FileMatches,
    Match,
    URLError,
    __version__,
    extract,
    extract_file,
    parse,
)

__all__ = [
    "FileMatches",
    "Match",
    "URLError",
    "__version__",
    "extract",
    "extract_file",
    "parse",
]
