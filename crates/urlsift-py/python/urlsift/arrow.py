"""URLs as Arrow record batches (needs pyarrow): the columns are built in
Rust (:func:`urlsift._urlsift.scan_arrow` gives each field's buffers) and
wrapped here as they are, no Python object per row. The fields are those
of :func:`urlsift._urlsift.columns`: ``path``, ``member`` and the
``--json`` fields, in the command's order (``list_id`` last when asked).
"""

from typing import Iterator, Optional, Tuple

import pyarrow as pa

from . import _urlsift

_WARNING = pa.struct(
    [
        pa.field("code", pa.string(), False),
        pa.field("message", pa.string(), False),
        pa.field("offset", pa.int64(), False),
    ]
)

#: The Arrow type of each layout ``columns()`` names.
TYPES = {
    "str": pa.string(),
    "int": pa.int64(),
    "bool": pa.bool_(),
    "spans": pa.list_(pa.field("element", pa.list_(pa.field("element", pa.int64(), False)), False)),
    "warnings": pa.list_(pa.field("element", _WARNING, False)),
    "strlist": pa.list_(pa.field("element", pa.string(), False)),
    "timestamp": pa.timestamp("us", tz="UTC"),
}


#: The layout of each field, in order, by ``(unwrap, list_id)`` (with
#: ``unwrap``: ``target`` and ``via`` too; with ``list_id``: ``list_id``).
_SHAPES = [(u, l) for u in (False, True) for l in (False, True)]
_KINDS = {k: [kind for _, kind, _, _ in _urlsift.columns(*k)] for k in _SHAPES}
_SCHEMA = {
    k: pa.schema(
        [pa.field(name, TYPES[kind], nullable) for name, kind, _, nullable in _urlsift.columns(*k)]
    )
    for k in _SHAPES
}


def schema(unwrap: bool = False, list_id: bool = False) -> pa.Schema:
    """The Arrow schema of the rows (with ``unwrap``, ``target`` and
    ``via`` after ``warnings``; with ``list_id``, ``list_id`` last)."""
    return _SCHEMA[(unwrap, list_id)]


def _buf(b):
    return None if b is None else pa.py_buffer(b)


def _strings(n, parts):
    nulls, valid, offsets, data = parts
    return pa.Array.from_buffers(pa.string(), n, [_buf(valid), _buf(offsets), _buf(data)], nulls)


def _array(kind: str, n: int, parts):
    if kind == "str":
        return _strings(n, parts)
    if kind == "int":
        nulls, valid, values = parts
        return pa.Array.from_buffers(pa.int64(), n, [_buf(valid), _buf(values)], nulls)
    if kind == "timestamp":
        nulls, valid, values = parts
        return pa.Array.from_buffers(TYPES["timestamp"], n, [_buf(valid), _buf(values)], nulls)
    if kind == "bool":
        nulls, valid, bits = parts
        return pa.Array.from_buffers(pa.bool_(), n, [_buf(valid), _buf(bits)], nulls)
    if kind == "spans":
        offsets, inner_offsets, values = parts
        pairs = len(values) // 16
        flat = pa.Array.from_buffers(pa.int64(), 2 * pairs, [None, _buf(values)])
        inner_type = TYPES["spans"].value_type
        inner = pa.Array.from_buffers(inner_type, pairs, [None, _buf(inner_offsets)], children=[flat])
        return pa.Array.from_buffers(TYPES["spans"], n, [None, _buf(offsets)], children=[inner])
    if kind == "strlist":
        nulls, valid, offsets, items = parts
        m = (len(items[2]) // 4) - 1
        child = _strings(max(m, 0), items)
        return pa.Array.from_buffers(
            TYPES["strlist"], n, [_buf(valid), _buf(offsets)], nulls, children=[child]
        )
    if kind == "warnings":
        offsets, codes, messages, at = parts
        m = len(at) // 8
        fields = [
            _strings(m, codes),
            _strings(m, messages),
            pa.Array.from_buffers(pa.int64(), m, [None, _buf(at)]),
        ]
        structs = pa.StructArray.from_arrays(fields, fields=list(_WARNING))
        return pa.Array.from_buffers(TYPES["warnings"], n, [None, _buf(offsets)], children=[structs])
    raise ValueError(f"unknown column layout {kind!r}")


#: The schema of :func:`record_batches` with ``json=True``.
JSON_SCHEMA = pa.schema([pa.field("value", pa.string(), False)])
#: The schema of :func:`record_batches` with ``json=True, list_id=True``:
#: each row's ``List-Id`` beside its JSON line, which stays the row without it.
JSON_LIST_ID_SCHEMA = JSON_SCHEMA.append(pa.field("list_id", pa.string(), True))


def record_batches(
    source,
    *,
    name: Optional[str] = None,
    range: Optional[Tuple[int, int, int]] = None,
    rows: int = 16384,
    json: bool = False,
    naked: bool = False,
    raw: bool = False,
    strict: bool = False,
    html: str = "fallback",
    unwrap: bool = False,
    list_id: bool = False,
    report=None,
) -> Iterator[pa.RecordBatch]:
    """The URLs of ``source`` (a path, or a binary file object as
    :func:`urlsift.extract_stream` takes) as record batches of at most
    ``rows`` rows. ``range=(start, stop, lines)`` scans that range of a
    plain file, ``start`` a message start after ``lines`` lines. With
    ``json`` the batches have one column, ``value``: each row as a JSON
    object (the fields in order, nulls written), as Spark's JSON writer
    would write the typed row. With ``unwrap`` the rows have ``target`` and
    ``via`` too (``--json --unwrap``'s fields). With ``list_id`` each
    message's ``List-Id:`` is read too: the rows' last column ``list_id``
    (as ``--json --fields ...,list-id`` adds it), and with ``json`` a
    column ``list_id`` beside ``value`` (the lines stay the rows without
    it, ready to be written). A read error raises ``OSError`` after the
    batches before it.

    ``report``, a :class:`urlsift.Derivatives`, gets each row counted in as
    it is given out (``urlsift --report``'s counts, made by the scan in
    Rust: no row is read back)."""
    batches = _urlsift.scan_arrow(
        source, name=name, range=range, rows=rows, json=json, naked=naked, raw=raw, strict=strict,
        html=html, unwrap=unwrap, list_id=list_id, report=report,
    )
    if json:
        for n, cols in batches:
            arrays = [_strings(n, c) for c in cols]
            yield pa.RecordBatch.from_arrays(
                arrays, schema=JSON_LIST_ID_SCHEMA if list_id else JSON_SCHEMA)
        return
    shape = (unwrap, list_id)
    for n, cols in batches:
        arrays = [_array(kind, n, parts) for kind, parts in zip(_KINDS[shape], cols)]
        yield pa.RecordBatch.from_arrays(arrays, schema=_SCHEMA[shape])
