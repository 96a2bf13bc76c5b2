"""TLS to the broker: a real Mosquitto with TLS listeners and certificates made
by openssl for the test (a pit CA, the broker's certificate for 127.0.0.1, a
table's client certificate, and a rogue CA that signed nothing of ours).

What is checked is what an operator relies on: events reach a TLS subscriber;
a broker whose certificate does not chain to the configured CA, or does not
name the host, is never talked to, and the log says why once; a broker that
requires client certificates takes the table's; every bad file is a config
error naming its key, and a key's content never appears in one.
"""

from __future__ import annotations

import logging
import queue
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from mqtt_support import WAIT, RunningBroker, running_broker
from paho.mqtt.enums import CallbackAPIVersion
from reactor_support import served, take

from controller.shared.mqtt_tls import tls_context
from controller.table.config import ConfigError, MqttSection, parse_config
from controller.table.inbox import Connected, Inbox
from controller.table.publisher import Publisher
from hw_sim.broker import free_port, wait_for_port


@dataclass
class Pki:
    dir: Path

    def __getattr__(self, name: str) -> str:
        return str(self.dir / name.replace("_", "."))


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def pki() -> Iterator[Pki]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    with tempfile.TemporaryDirectory(prefix="tablectl-pki-") as tmp:
        d = Path(tmp)
        for ca in ("ca", "rogue"):
            _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{ca}.key", "-out", f"{ca}.crt",
                     "-days", "2", "-subj", f"/CN={ca} test CA", cwd=d)
        (d / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
        for name, ext in (("broker", ["-extfile", "san.ext"]), ("table", [])):
            _openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr",
                     "-subj", f"/CN={name}", cwd=d)
            _openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                     "-out", f"{name}.crt", "-days", "2", *ext, cwd=d)
        _openssl("pkey", "-in", "table.key", "-aes256", "-passout", "pass:secret", "-out", "locked.key", cwd=d)
        yield Pki(d)


@dataclass
class TlsBroker:
    broker: RunningBroker
    port: int          # TLS, any client
    strict_port: int   # TLS, a client certificate signed by the pit CA required


@pytest.fixture
def tls_broker(pki: Pki) -> Iterator[TlsBroker]:
    strict = free_port()
    tls = f"cafile {pki.ca_crt}\ncertfile {pki.broker_crt}\nkeyfile {pki.broker_key}\n"
    with running_broker("tablectl-tls-broker-", lambda port, _tmp: (
            f"allow_anonymous true\npersistence false\nlog_dest none\nlistener {port} 127.0.0.1\n{tls}"
            f"listener {strict} 127.0.0.1\n{tls}require_certificate true\n")) as broker:
        # running_broker waits for the first listener only; Mosquitto opens the second just after,
        # and a client that tried it first got "connection refused" once (the flaky case).
        wait_for_port("127.0.0.1", strict)
        yield TlsBroker(broker, broker.port, strict)


def _tls_subscriber(pki: Pki, port: int, topic: str) -> tuple[mqtt.Client, queue.Queue]:
    got: queue.Queue = queue.Queue()
    subscribed = queue.Queue()
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.tls_set_context(tls_context(pki.ca_crt, pki.table_crt, pki.table_key))
    client.on_connect = lambda c, u, f, rc, p: c.subscribe(topic, qos=1)
    client.on_subscribe = lambda *a: subscribed.put(True)
    client.on_message = lambda c, u, m: got.put((m.topic, m.payload))
    client.connect("127.0.0.1", port)
    client.loop_start()
    subscribed.get(timeout=WAIT)
    return client, got


def _publisher(port: int, host: str = "127.0.0.1", **tls: str) -> tuple[Publisher, Inbox]:
    inbox = Inbox()
    settings = MqttSection(host=host, port=port, tls=True, reconnect_max_delay=0.2, **tls)
    publisher = Publisher(settings, "bac-01", inbox, game="baccarat")
    served(publisher, inbox)
    publisher.start(birth=1)
    return publisher, inbox


def _connected(inbox: Inbox, timeout: float = WAIT) -> bool:
    """Whether the publisher's session came up (``Connected``) within ``timeout``, the socket
    served meanwhile (this test plays the table thread)."""
    try:
        take(inbox, Connected, timeout)
    except queue.Empty:
        return False
    return True


@pytest.mark.parametrize("strict", [False, True], ids=["server-auth", "client-certificate"])
def test_the_table_publishes_over_tls(pki: Pki, tls_broker: TlsBroker, strict: bool) -> None:
    port = tls_broker.strict_port if strict else tls_broker.port
    client, got = _tls_subscriber(pki, port, "casino/bac-01/status")
    extra = {"tls_cert_file": pki.table_crt, "tls_key_file": pki.table_key} if strict else {}
    publisher, inbox = _publisher(port, tls_ca_file=pki.ca_crt, **extra)
    try:
        assert _connected(inbox)
        publisher.publish_birth(next_seq=1, devices={})
        topic, payload = got.get(timeout=WAIT)
        assert topic == "casino/bac-01/status" and b'"online":true' in payload
    finally:
        publisher.stop()
        client.disconnect()
        client.loop_stop()


@pytest.mark.parametrize("case, host, tls, reason", [
    ("a CA that did not sign the broker", "127.0.0.1", {"tls_ca_file": "rogue_crt"},
     "certificate verify failed: self-signed certificate in certificate chain"),
    ("the certificate names another host", "localhost", {"tls_ca_file": "ca_crt"},
     "certificate verify failed: Hostname mismatch"),
    ("no client certificate where one is required", "127.0.0.1", {"tls_ca_file": "ca_crt"}, None),
])
def test_a_broker_that_fails_verification_is_never_talked_to(pki: Pki, tls_broker: TlsBroker, caplog,
                                                             case: str, host: str, tls: dict, reason: str | None) -> None:
    port = tls_broker.strict_port if reason is None else tls_broker.port
    caplog.set_level(logging.DEBUG, logger="controller.table.publisher")
    publisher, inbox = _publisher(port, host, **{k: getattr(pki, v) for k, v in tls.items()})
    try:
        assert not _connected(inbox, timeout=2.0), case  # it retries meanwhile (every 0.2 s here)
    finally:
        publisher.stop()
    failures = [r for r in caplog.records if "MQTT: cannot connect to" in r.getMessage()]
    assert len(failures) >= 2, "it kept retrying"
    warnings = [r.getMessage() for r in failures if r.levelno == logging.WARNING]
    if reason is not None:
        assert len(warnings) == 1, "one warning per reason, not one per retry"
        assert f"cannot connect to {host}:{port} (TLS): SSLCertVerificationError: " in warnings[0]
        assert reason in warnings[0], warnings[0]
    else:  # TLS 1.3: the broker checks for the client certificate after the handshake and
        # closes the connection before any CONNACK: a failed connect, said once
        assert len(warnings) == 1, warnings
        assert f"cannot connect to {host}:{port} (TLS): the broker closed the connection before accepting it" \
            in warnings[0]
        assert not [r for r in caplog.records if "disconnected:" in r.getMessage() and r.levelno >= logging.WARNING]


def _config(port: int, mqtt_extra: str) -> str:
    return (f'[table]\nid = "bac-01"\ngame = "baccarat"\n[mqtt]\nport = {port}\n{mqtt_extra}\n'
            f'[journal]\npath = "x.db"\n[devices.shoe]\nkind = "card_shoe"\nurl = "/dev/null"\n[devices.shuffler]\nkind = "shuffler"\nurl = "/dev/null"\n')


def test_tls_config_is_read_and_checked(pki: Pki) -> None:
    cfg = parse_config(_config(8883, f'tls = true\ntls_ca_file = "{pki.ca_crt}"\n'
                                     f'tls_cert_file = "{pki.table_crt}"\ntls_key_file = "{pki.table_key}"'))
    assert (cfg.mqtt.tls, cfg.mqtt.tls_ca_file, cfg.mqtt.tls_key_file) == (True, pki.ca_crt, pki.table_key)
    assert parse_config(_config(8883, "tls = true")).mqtt.tls_ca_file is None  # the system's CAs


@pytest.mark.parametrize("extra, error", [
    ('tls_ca_file = "{ca_crt}"', "mqtt.tls_ca_file: TLS is off; set mqtt.tls = true to use it"),
    ('tls = true\ntls_cert_file = "{table_crt}"',
     "mqtt.tls_key_file: is required with mqtt.tls_cert_file (a client certificate and its key)"),
    ('tls = "yes"', "mqtt.tls: must be true or false"),
    ('tls = true\ntls_ca_file = "{dir}/nope.crt"', "mqtt.tls_ca_file: cannot read {dir}/nope.crt: No such file"),
    ('tls = true\ntls_ca_file = "{table_key}"', "mqtt.tls_ca_file: {table_key} holds no PEM certificate"),
    ('tls = true\ntls_cert_file = "{table_crt}"\ntls_key_file = "{locked_key}"',
     "mqtt.tls_key_file: the private key is encrypted"),
    ('tls = true\ntls_cert_file = "{table_crt}"\ntls_key_file = "{broker_key}"',
     "mqtt.tls_key_file: {broker_key} is not the key of {table_crt}"),
    ('tls = true\ntls_cert_file = "{table_key}"\ntls_key_file = "{table_key}"',
     "mqtt.tls_cert_file: {table_key} and {table_key} are not a PEM certificate and its key"),
])
def test_bad_tls_config_names_the_key_and_never_a_key_s_content(pki: Pki, extra: str, error: str) -> None:
    names = {n: getattr(pki, n) for n in ("ca_crt", "table_crt", "table_key", "locked_key", "broker_key")}
    names["dir"] = str(pki.dir)
    with pytest.raises(ConfigError) as err:
        parse_config(_config(8883, extra.format(**names)), "tls.toml")
    message = str(err.value)
    assert error.format(**names) in message, message
    for key in ("table_key", "broker_key"):
        body = Path(names[key]).read_text().splitlines()[1]
        assert body not in message


def test_watch_over_tls(pki: Pki, tls_broker: TlsBroker) -> None:
    """`tablectl watch --tls-ca-file` reaches a TLS broker; against the rogue CA it says why and exits 1."""
    address = f"127.0.0.1:{tls_broker.port}"
    watch = subprocess.Popen([sys.executable, "-m", "controller.cli", "watch", "--broker", address,
                              "--tls-ca-file", pki.ca_crt], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert watch.stdout.readline().startswith(f"watching casino/+ on {address}")
    finally:
        watch.terminate()
        watch.wait(15)
    rogue = subprocess.run([sys.executable, "-m", "controller.cli", "watch", "--broker", address,
                            "--tls-ca-file", pki.rogue_crt], capture_output=True, text=True, timeout=30)
    assert rogue.returncode == 1 and "CERTIFICATE_VERIFY_FAILED" in rogue.stderr, rogue.stderr
