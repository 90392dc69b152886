"""A push service of the tests' own, and the browsers that subscribe to it: what a push reaches, read as a browser
reads it.

:class:`PushService` is an HTTPS server on loopback (its certificate made here, trusted through
``REQUESTS_CA_BUNDLE``) that keeps every message posted to it and answers each endpoint as it is told (201, or 410
for one that is gone).  :class:`Device` is a browser's side of a subscription: its own P-256 key pair and auth
secret, with which it decrypts a message (RFC 8291, aes128gcm), and the check of the message's VAPID signature
(RFC 8292) against the café's public key.
"""

from __future__ import annotations

import base64
import datetime as dt
import ipaddress
import json
import secrets
import ssl
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any

import http_ece
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.x509.oid import NameOID


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One message a push service received."""

    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Device:
    """A browser's subscription: the endpoint it was given, and the keys only it holds."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    def subscription(self) -> dict[str, Any]:
        """What PushSubscription.toJSON() gives."""
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64(point), "auth": b64(self.auth)}
        return {"endpoint": self.endpoint, "expirationTime": None, "keys": keys}

    def read(self, message: Received) -> dict[str, Any]:
        """The notice, decrypted with this device's keys (a message for another device cannot be)."""
        assert message.headers["content-encoding"] == "aes128gcm"
        plain = http_ece.decrypt(message.body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        notice: dict[str, Any] = json.loads(plain)
        return notice


def vapid_claims(message: Received, public: str) -> dict[str, Any]:
    """The claims of the message's VAPID token, once its signature is checked against the café's public key."""
    scheme, _, params = message.headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(part.split("=", 1) for part in params.split(","))
    assert parts["k"] == public  # the key the browser subscribed with
    head, claims, signature = parts["t"].split(".")
    raw = unb64(signature)
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(public))
    der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
    key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises if not the café's signature
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    found: dict[str, Any] = json.loads(unb64(claims))
    return found


class PushService:
    """An HTTPS push service on 127.0.0.1, in a thread of the test."""

    def __init__(self, folder: Path) -> None:
        self.ca = folder / "push-service.pem"
        self.received: list[Received] = []
        self.answers: dict[str, int] = {}  # path -> status (201 unless told; a redirection leads to PATH/elsewhere)
        self._arrived = threading.Condition()
        key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "push.test")])
        now = dt.datetime.now(dt.UTC)
        cert = (
            x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256())
        )  # fmt: skip
        self.ca.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        secret = folder / "push-service-key.pem"
        secret.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                             serialization.NoEncryption()))  # fmt: skip
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}
                status = service.answers.get(self.path, 201)
                self.send_response(status)
                if 300 <= status < 400:  # elsewhere on the same service
                    self.send_header("location", f"{self.path}/elsewhere")
                self.send_header("content-length", "0")
                self.end_headers()
                with service._arrived:
                    service.received.append(Received(self.path, headers, body))
                    service._arrived.notify_all()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.ca, secret)
        self._server.socket = context.wrap_socket(self._server.socket, server_side=True)
        self.port = self._server.server_address[1]
        self.origin = f"https://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> PushService:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self._server.shutdown()
        self._server.server_close()

    def device(self, name: str) -> Device:
        return Device(f"{self.origin}/push/{name}")

    def wait(self, count: int) -> list[Received]:
        """The messages received, once there are ``count`` of them (a failure if they never come)."""
        with self._arrived:
            for _ in range(600):
                if len(self.received) >= count:
                    return list(self.received)
                self._arrived.wait(0.1)
        raise AssertionError(f"{len(self.received)} pushes arrived, not {count}")
