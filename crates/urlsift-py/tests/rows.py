"""The command's ``--json`` objects as the Spark job's rows.

A table has one schema: the fields the command leaves out where they do not
apply (``member`` outside archives, ``encoding`` and ``content_type``
outside MIME parts, ``anchor`` outside HTML links) are null in the job's
rows. Shared by the tests and by ``cluster.sh``, which puts this directory on
``sys.path``.
"""

#: The fields the command writes only where they apply.
OPTIONAL = ("member", "encoding", "content_type", "anchor")


def tabular(rows):
    """Each of the command's objects with its missing optional fields null."""
    out = []
    for row in rows:
        t = dict(row)
        for k in OPTIONAL:
            t.setdefault(k, None)
        out.append(t)
    return out
