"""The endpoints' bearer secrets, encrypted at rest with Fernet (cryptography).

Keys: AGENT_SECRET_KEYS (Fernet keys; the first encrypts, every one decrypts, so keys can be rotated),
or, when empty, one key derived from SECRET_KEY with HKDF-SHA256. Changing SECRET_KEY without setting
AGENT_SECRET_KEYS makes stored secrets unreadable: teams then register their secret again.
"""
from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings


class SecretUnreadable(ValueError):
    """The stored secret cannot be decrypted with the configured keys."""


def _derived_key() -> bytes:
    hkdf = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"repogenesis-agent-endpoint-secret", info=b"agent/1")
    return base64.urlsafe_b64encode(hkdf.derive(settings.SECRET_KEY.encode()))


def _fernet() -> MultiFernet:
    keys = [k.strip() for k in settings.AGENT_SECRET_KEYS if k.strip()] or [_derived_key()]
    return MultiFernet([Fernet(k) for k in keys])


def secret_encrypt(plain: str) -> str:
    """The Fernet token (text) of `plain`."""
    return _fernet().encrypt(plain.encode()).decode()


def secret_decrypt(token: str) -> str:
    """The secret behind a token from `secret_encrypt`. Raises SecretUnreadable."""
    try:
        return _fernet().decrypt(token.encode()).decode()
    except (InvalidToken, ValueError) as exc:
        raise SecretUnreadable("the stored secret cannot be decrypted (the site's key changed): "
                               "register the endpoint's secret again") from exc
