"""Inputs by URI: ``s3://``, ``gs://``, ``az://``/``abfs://``, ``hdfs://``,
``http(s)://`` and the other protocols of fsspec (``pip install
'urlsift[remote]'`` brings fsspec, s3fs and aiohttp; ``gcsfs``, ``adlfs``
and pyarrow's HDFS are the other stores' packages). ``file://`` URIs and
plain paths are local files, read natively.

Credentials and endpoints come as each store's package takes them: the
environment (``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ...) and its
config files; ``storage_options`` (a dict) passes anything else to fsspec.
"""

import errno
import os
import re
from typing import Dict, Iterator, List, Optional, Tuple

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def protocol(path) -> Optional[str]:
    """The URI's protocol in lower case, ``None`` for a plain path."""
    if not isinstance(path, str):
        return None
    m = _SCHEME.match(path)
    return m.group(1).lower() if m else None


def is_remote(path) -> bool:
    """Whether ``path`` is a URI that fsspec reads (not a plain path, not ``file://``)."""
    p = protocol(path)
    return p is not None and p not in ("file", "local")


def local_path(path):
    """A plain path for a plain path or a ``file://`` URI."""
    if protocol(path) in ("file", "local"):
        from urllib.parse import unquote, urlparse

        return unquote(urlparse(path).path)
    return path


def _fsspec():
    try:
        import fsspec
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError(
            "reading URIs needs fsspec (and the store's package, e.g. s3fs): "
            "pip install 'urlsift[remote]'"
        ) from e
    return fsspec


def filesystem(uri: str, storage_options: Optional[Dict] = None):
    """``(fs, path)``: the fsspec file system of ``uri`` and the path in it."""
    from fsspec.core import url_to_fs

    _fsspec()
    return url_to_fs(uri, **(storage_options or {}))


def _os_error(e: Exception, uri: str) -> OSError:
    """An error of a store as the ``OSError`` a local file would raise, naming the URI."""
    if isinstance(e, FileNotFoundError):
        return FileNotFoundError(errno.ENOENT, "No such file or directory", uri)
    if isinstance(e, PermissionError):
        return PermissionError(errno.EACCES, "Permission denied", uri)
    if isinstance(e, IsADirectoryError):
        return IsADirectoryError(errno.EISDIR, "Is a directory", uri)
    if isinstance(e, OSError) and e.errno:
        return OSError(e.errno, e.strerror or str(e), uri)
    return OSError(errno.EIO, f"{type(e).__name__}: {e}", uri)


def open_uri(uri: str, storage_options: Optional[Dict] = None):
    """The object at ``uri`` open for reading (binary, seekable where the
    store serves ranges). A missing or denied object raises the
    ``OSError`` a local file would, with the URI as its filename."""
    try:
        fs, path = filesystem(uri, storage_options)
        return fs.open(path, "rb")
    except ImportError:
        raise
    except Exception as e:
        raise _os_error(e, uri) from e


def _key(path: str) -> Tuple[bytes, ...]:
    # Entries in name order at each level, as the command walks a
    # directory: "a/x" before "a-b/x".
    return tuple(os.fsencode(part) for part in path.split("/"))


def list_files(uri: str, storage_options: Optional[Dict] = None) -> List[Tuple[str, int]]:
    """``(uri, size)`` of the object at ``uri``, or of every object under it
    when it is a directory or prefix (in name order, level by level). A
    missing one raises the ``OSError`` a local file would."""
    try:
        fs, path = filesystem(uri, storage_options)
        info = fs.info(path)
        if info.get("type") != "directory":
            return [(uri, int(info.get("size") or 0))]
        found = fs.find(path, detail=True)
    except ImportError:
        raise
    except Exception as e:
        raise _os_error(e, uri) from e
    out = []
    for name in sorted(found, key=_key):
        d = found[name]
        if d.get("type", "file") != "file":
            continue
        out.append((fs.unstrip_protocol(name), int(d.get("size") or 0)))
    return out


def read_text_lines(uri: str, storage_options: Optional[Dict] = None) -> Iterator[str]:
    """The lines of a text object (a list of inputs kept in the store)."""
    with open_uri(uri, storage_options) as f:
        data = f.read()
    return iter(data.decode("utf-8", "surrogateescape").splitlines())
