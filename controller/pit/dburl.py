"""A database URL's password kept out of what is printed, for every tool that takes ``--db``.

One helper, not one per command: a password in ``--db`` (which the docs advise against, but an
operator may do) must not reach a terminal, a log or a journal, whether the URL parses or not,
and libpq's own messages quote the URL they could not use. The password is found by plain text
rules (the user info of a URL, ``password=`` of a key/value string or a query), so a URL too
broken for a parser (``postgresql://pit:s3cret@[host/db``) is still scrubbed.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

MASK = "***"

_KEY_VALUE = re.compile(r"""password\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&]+)""", re.IGNORECASE)


def passwords(url: str) -> list[str]:
    """Every password ``url`` carries, as written and as decoded (either may be quoted back)."""
    found: list[str] = []
    _, sep, rest = url.partition("://")
    if sep and "@" in rest:  # user info: up to the last @ (a password may hold an unencoded @ or /)
        user, colon, password = rest[:rest.rfind("@")].partition(":")
        if colon and password and not re.search(r"[/?#]", user):
            found.append(password)
    for match in _KEY_VALUE.finditer(url):
        value = match.group(1)
        found.append(value)
        if value.startswith("'") and len(value) > 1:
            found.append(value[1:-1])
    found += [unquote(p) for p in found]
    return sorted({p for p in found if p}, key=len, reverse=True)


def scrub(text: str, url: str) -> str:
    """``text`` on one line with every password of ``url`` in it masked."""
    line = " ".join(part.strip() for part in str(text).splitlines() if part.strip())
    for password in passwords(url):
        line = line.replace(password, MASK)
    return line


def shown(url: str) -> str:
    """The URL as it may be printed: its password masked."""
    return scrub(url, url)
