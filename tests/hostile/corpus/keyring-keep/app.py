"""Keeps what it sees in the kernel keyring, where bubblewrap and namespaces do not separate tasks."""
import ctypes
import os

from hostile_kit import forever, record, serve

ADD_KEY, KEYCTL = 248, 250  # x86_64 system call numbers
KEY_SPEC_SESSION_KEYRING, KEY_SPEC_USER_KEYRING = -3, -4
libc = ctypes.CDLL(None, use_errno=True)


def keep():
    payload = b"every request of the hidden suite would go here"
    for name, ring in (("user", KEY_SPEC_USER_KEYRING), ("session", KEY_SPEC_SESSION_KEYRING)):
        key = libc.syscall(ADD_KEY, b"user", f"rg-hostile-keep-{name}".encode(), payload, len(payload), ring)
        if key >= 0:
            record("breached", f"stored a key in the {name} keyring", key)
        else:
            record("blocked", f"add_key to the {name} keyring", os.strerror(ctypes.get_errno()))
    if libc.syscall(KEYCTL, 0, KEY_SPEC_USER_KEYRING, 0) < 0:  # KEYCTL_GET_KEYRING_ID
        record("note", "keyring refused", os.strerror(ctypes.get_errno()))
    try:
        with open("/proc/keys") as handle:
            left = [line for line in handle if "rg-hostile" in line]
        if left:
            record("breached", "read keys another task left", "".join(left)[:300])
    except OSError as exc:
        record("blocked", "/proc/keys", exc)


forever(keep, every=2, name="keep")
serve()
