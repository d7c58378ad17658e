"""Type stubs of urlsift (the extension module urlsift._urlsift)."""

import datetime
import os
from typing import Any, BinaryIO, Dict, Iterable, Iterator, List, Literal, Optional, Tuple, TypedDict, Union


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
    def anchor(self) -> Optional[str]: ...
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
    @property
    def list_id(self) -> Optional[str]: ...
    @property
    def target(self) -> Optional[str]: ...
    @property
    def via(self) -> Optional[List[str]]: ...
    def to_dict(self) -> Dict[str, object]: ...

class FileMatches(Iterator[Match]):
    """The URLs of one file, streamed (see :func:`extract_file`)."""

    @property
    def damages(self) -> List[Tuple[Optional[str], str]]: ...
    def __iter__(self) -> "FileMatches": ...
    def __next__(self) -> Match: ...

class Derivatives:
    """Mergeable counts of URLs: the derivatives of ``urlsift --report``."""
    def __init__(self) -> None: ...
    def add(self, url: str, date: Optional[int] = None, newsgroups: Optional[List[str]] = None,
            list_id: Optional[str] = None, path: str = "", member: Optional[str] = None,
            message_id: Optional[str] = None) -> None: ...
    def merge(self, other: "Derivatives") -> None: ...
    def to_bytes(self) -> bytes: ...
    @staticmethod
    def from_bytes(b: bytes) -> "Derivatives": ...
    @staticmethod
    def merge_bytes(a: bytes, b: bytes) -> bytes: ...
    @property
    def urls(self) -> int: ...
    def files(self) -> Dict[str, str]: ...
    def write(self, dir: str) -> None: ...
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
    unwrap: bool = False,
    list_id: bool = False,
    fields: Union[None, str, Iterable[str]] = None,
) -> List[Match]: ...
def extract_file(
    path: Union[str, "os.PathLike[str]"],
    *,
    storage_options: Optional[Dict[str, Any]] = None,
    naked: bool = False,
    raw: bool = False,
    strict: bool = False,
    html: Literal["fallback", "always", "never"] = "fallback",
    unwrap: bool = False,
    errors: Literal["strict", "warn", "ignore"] = "strict",
    list_id: bool = False,
    fields: Union[None, str, Iterable[str]] = None,
) -> FileMatches: ...
def extract_stream(
    fileobj: BinaryIO,
    *,
    name: Optional[str] = None,
    naked: bool = False,
    raw: bool = False,
    strict: bool = False,
    html: Literal["fallback", "always", "never"] = "fallback",
    unwrap: bool = False,
    errors: Literal["strict", "warn", "ignore"] = "strict",
    list_id: bool = False,
    fields: Union[None, str, Iterable[str]] = None,
) -> FileMatches: ...
def parse(url: Union[str, bytes], *, strict: bool = False) -> Dict[str, object]: ...
