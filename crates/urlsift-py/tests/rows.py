"""The command's ``--json`` objects as the Spark job's rows.

A table has one schema: the fields the command leaves out where they do not
apply (``member`` outside archives, ``encoding`` and ``content_type``
outside MIME parts, ``anchor`` outside HTML links) are null in the job's
rows. Shared by the tests and by ``cluster.sh``, which puts this directory on
``sys.path``.
"""

#: Runs of fields in the command's (and the job's) order, each optional one
#: written only where it applies.
RUNS = (("path", "member", "line"), ("spans", "encoding", "content_type", "anchor", "warnings"))
OPTIONAL = {"member", "encoding", "content_type", "anchor"}
_AT = {name: (r, i) for r, run in enumerate(RUNS) for i, name in enumerate(run)}


def tabular(rows):
    """Each of the command's objects with its missing optional fields null,
    in the job's column order."""
    out = []
    for row in rows:
        t = {}
        for k, v in row.items():
            if k in _AT:
                r, i = _AT[k]
                for name in RUNS[r][:i]:
                    if name in OPTIONAL:
                        t.setdefault(name, None)
            t[k] = v
        out.append(t)
    return out
