"""TLS for the MQTT clients: one place that turns the config's files into an ``ssl.SSLContext``.

A table whose events cross a network the pit does not own (a floor switch
shared with other systems, a link to another building) must not send them
in clear, and must know it talks to the pit's broker and not to anything
that answers on the port. So TLS here always verifies the broker's
certificate and its name (``ssl.create_default_context``: CERT_REQUIRED and
``check_hostname``); there is no switch to turn that off. A client
certificate is sent when the broker asks for one (Mosquitto's
``require_certificate true``).

The context is built once when the config is loaded, so that a missing,
unreadable or malformed file is a config error naming its key before the
table starts, not a reconnect loop at 3 a.m. An encrypted private key is
refused: a daemon has nobody to type its passphrase, and OpenSSL would
otherwise ask for one on the terminal.
"""

from __future__ import annotations

import ssl


class TlsError(ValueError):
    """A TLS file that cannot be used; ``key`` is the config key that names it."""

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        self.reason = message
        super().__init__(f"{key}: {message}")


def _no_passphrase() -> bytes:
    raise TlsError("mqtt.tls_key_file", "the private key is encrypted; a table needs one without a passphrase "
                                        "(readable by the tablectl user only, mode 600)")


def tls_context(ca_file: str | None, cert_file: str | None, key_file: str | None) -> ssl.SSLContext:
    """A client context that verifies the broker (against ``ca_file``, or the
    system's CAs without one) and offers ``cert_file``/``key_file`` if given.
    Raises :class:`TlsError` naming the config key at fault, never a file's content."""
    try:
        context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=ca_file)
    except ssl.SSLError as exc:  # (an OSError too: first)
        raise TlsError("mqtt.tls_ca_file", f"{ca_file} holds no PEM certificate ({exc.reason or exc})") from None
    except OSError as exc:  # FileNotFoundError, PermissionError ...
        raise TlsError("mqtt.tls_ca_file", f"cannot read {ca_file}: {exc.strerror or exc}") from None
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if cert_file is not None:
        for key, path in (("mqtt.tls_cert_file", cert_file), ("mqtt.tls_key_file", key_file)):
            try:
                with open(path, "rb"):
                    pass
            except OSError as exc:
                raise TlsError(key, f"cannot read {path}: {exc.strerror or exc}") from None
        try:
            context.load_cert_chain(cert_file, key_file, password=_no_passphrase)
        except ssl.SSLError as exc:
            reason = exc.reason or str(exc)
            if "KEY_VALUES_MISMATCH" in reason.upper():
                raise TlsError("mqtt.tls_key_file", f"{key_file} is not the key of {cert_file}") from None
            raise TlsError("mqtt.tls_cert_file", f"{cert_file} and {key_file} are not a PEM certificate "
                                                 f"and its key ({reason})") from None
    return context
