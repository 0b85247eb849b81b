"""The bridge's frames and its value format (see the package's docstring). Standard library only.

A frame is a 4-byte big-endian length and that many bytes of UTF-8 JSON. A value is JSON's `null`, `true`/`false`,
a number or a string as itself (the exact types None, bool, int, float, str), or an object tagged by "$":
`bytes` (base64), `list`, `tuple`, `set` and `dict` (a list of key/value pairs), or `h`, a handle: an object
that stays on the application side, with its type's name and, for an instance of a subclass of str, int, float or
bytes (an enum member, say), its plain value (`plain`), which comparisons on the verdict side use.
"""
from __future__ import annotations

import base64
import json
import socket
import struct

#: The largest frame either side reads, in bytes: a reply beyond it ends the run's bridge.
MAX_FRAME = 64 * 1024 * 1024
#: How deeply values may nest (lists in dicts in ...) in one frame.
MAX_DEPTH = 200
_HEADER = struct.Struct(">I")
_SCALARS = (type(None), bool, int, float, str)
_CONTAINERS = {list: "list", tuple: "tuple", set: "set", frozenset: "set"}


class BridgeError(Exception):
    """The other side broke the protocol (a frame too large or malformed, a closed socket, a value out of form)."""


def send(sock: socket.socket, message: object) -> None:
    """Write `message` (JSON-serialisable) as one frame. Raises OSError when the socket is closed."""
    data = json.dumps(message, separators=(",", ":")).encode()
    sock.sendall(_HEADER.pack(len(data)) + data)


def recv(sock: socket.socket) -> object:
    """Read one frame and return its JSON value. Raises BridgeError on a closed socket, a frame larger than
    MAX_FRAME bytes or one that is not JSON."""
    (size,) = _HEADER.unpack(_exactly(sock, _HEADER.size))
    if size > MAX_FRAME:
        raise BridgeError(f"a frame of {size} bytes, over the limit of {MAX_FRAME}")
    try:
        return json.loads(_exactly(sock, size))
    except (ValueError, RecursionError) as exc:
        raise BridgeError(f"a frame that is not JSON: {exc}") from None


def _exactly(sock: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise BridgeError("the other side closed the bridge")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def encode(value: object, handle, depth: int = 0) -> object:
    """`value` in the wire format; `handle(value)` gives the tagged handle of an object that does not cross by value
    (the application side names its objects; the verdict side passes back the handles it holds and refuses
    anything else with TypeError). Raises BridgeError past MAX_DEPTH."""
    if depth > MAX_DEPTH:
        raise BridgeError(f"a value nested more than {MAX_DEPTH} deep")
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is bytes:
        return {"$": "bytes", "v": base64.b64encode(value).decode()}
    if kind in _CONTAINERS:
        return {"$": _CONTAINERS[kind], "v": [encode(item, handle, depth + 1) for item in value]}
    if kind is dict:
        return {"$": "dict", "v": [[encode(k, handle, depth + 1), encode(v, handle, depth + 1)]
                                   for k, v in value.items()]}
    return handle(value)


def decode(data: object, handle, depth: int = 0) -> object:
    """The value `data` (wire format) stands for; `handle(tagged)` makes the local object for a handle. Raises
    BridgeError on anything out of form (an unknown tag, a dict key that cannot be hashed, nesting past
    MAX_DEPTH)."""
    if depth > MAX_DEPTH:
        raise BridgeError(f"a value nested more than {MAX_DEPTH} deep")
    if type(data) in _SCALARS:
        return data
    if type(data) is not dict or type(data.get("$")) is not str:
        raise BridgeError("a value out of form")
    tag, items = data["$"], data.get("v")
    try:
        if tag == "h":
            return handle(data)
        if tag == "bytes" and type(items) is str:
            return base64.b64decode(items, validate=True)
        if type(items) is not list:
            raise BridgeError(f"a {tag!r} value without its items")
        if tag == "dict":
            return {decode(k, handle, depth + 1): decode(v, handle, depth + 1) for k, v in _pairs(items)}
        values = [decode(item, handle, depth + 1) for item in items]
        if tag == "list":
            return values
        if tag == "tuple":
            return tuple(values)
        if tag == "set":
            return set(values)
    except (TypeError, ValueError) as exc:  # an unhashable key or set item, bad base64
        raise BridgeError(f"a {tag!r} value out of form: {exc}") from None
    raise BridgeError(f"an unknown value tag {tag!r}")


def _pairs(items: list) -> list:
    if any(type(pair) is not list or len(pair) != 2 for pair in items):
        raise BridgeError("a dict value whose items are not key/value pairs")
    return items
