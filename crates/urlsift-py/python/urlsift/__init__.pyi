"""Type stubs of urlsift (the extension module urlsift._urlsift)."""

import datetime
import os
from typing import Any, BinaryIO, Dict, Iterator, List, Literal, Optional, Tuple, TypedDict, Union


__version__: str

class Warning(TypedDict):
    code: str
    message: str
    offset: int

class Match:
    """One URL found in text: the fields of ``urlsift --json``."""

    @property
    def path(self) -> Optional[str]: ...
    @property
    def member(self) -> Optional[str]: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def offset(self) -> int: ...
    @property
    def url(self) -> str: ...
    @property
    def form(self) -> str: ...
    @property
    def scheme(self) -> str: ...
    @property
    def fragment(self) -> Optional[str]: ...
    @property
    def broken(self) -> bool: ...
    @property
    def hyphen(self) -> Optional[str]: ...
    @property
    def alternative(self) -> Optional[str]: ...
    @property
    def spans(self) -> List[Tuple[int, int]]: ...
    @property
    def warnings(self) -> List[Warning]: ...
    @property
    def encoding(self) -> Optional[str]: ...
    @property
    def content_type(self) -> Optional[str]: ...
    @property
    def message_id(self) -> Optional[str]: ...
    @property
    def date(self) -> Optional[datetime.datetime]: ...
    @property
    def date_source(self) -> Optional[str]: ...
    @property
    def newsgroups(self) -> Optional[List[str]]: ...
    @property
    def subject(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, object]: ...

class FileMatches(Iterator[Match]):
    """The URLs of one file, streamed (see :func:`extract_file`)."""

    @property
    def damages(self) -> List[Tuple[Optional[str], str]]: ...
    def __iter__(self) -> "FileMatches": ...
    def __next__(self) -> Match: ...

class DamageWarning(UserWarning):
    """A file not read to its end (``errors="warn"``)."""

class URLError(ValueError):
    """Not a URL by RFC 1738."""

    input: str
    offset: int
    rule: str
    reason: str

def extract(
    data: Union[bytes, bytearray, str],
    *,
    naked: bool = False,
    raw: bool = False,
    strict: bool = False,
    html: Literal["fallback", "always", "never"] = "fallback",
) -> List[Match]: ...
def extract_file(
    path: Union[str, "os.PathLike[str]"],
    *,
    storage_options: Optional[Dict[str, Any]] = None,
    naked: bool = False,
    raw: bool = False,
    strict: bool = False,
    html: Literal["fallback", "always", "never"] = "fallback",
    errors: Literal["strict", "warn", "ignore"] = "strict",
) -> FileMatches: ...
def extract_stream(
    fileobj: BinaryIO,
    *,
    name: Optional[str] = None,
    naked: bool = False,
    raw: bool = False,
    strict: bool = False,
    html: Literal["fallback", "always", "never"] = "fallback",
    errors: Literal["strict", "warn", "ignore"] = "strict",
) -> FileMatches: ...
def parse(url: Union[str, bytes], *, strict: bool = False) -> Dict[str, object]: ...
