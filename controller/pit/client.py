"""A pit subscriber: the demo's, `tablectl watch`'s and the simulated dealer's view.

It sees exactly what any subscriber in the pit sees: JSON events from the
broker, nothing from inside the controller. Callbacks run on paho's network
thread, so they must hand work off rather than block.

Whatever arrives is untrusted: anyone the broker lets publish on a table's
topics can send any bytes. paho ends its network thread when a callback
raises, and the subscriber then stays up but deaf, so no payload and no bug
in a callback may raise out of here: a payload that is not a JSON object goes
to ``on_bad`` with the reason, and an exception in a callback is logged and
counted (:attr:`PitClient.callback_errors`).
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
from collections.abc import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.shared.mqtt_socket import tcp_no_delay

log = logging.getLogger(__name__)

MAX_PAYLOAD = 256 * 1024
"""Bytes a message may have to be parsed at all. The controller's largest event is
``controller.table.publisher.MAX_EVENT_BYTES`` (60,000), its state and replies are smaller: anything
far bigger is not the table's, and parsing it would only cost memory and time on paho's thread."""


def parse_address(text: str, default_port: int = 1883) -> tuple[str, int]:
    """``HOST:PORT`` or ``HOST`` -> (host, port), with a clear error."""
    host, sep, port = text.rpartition(":")
    if not sep:
        return text, default_port
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"broker address {text!r}: port must be a number 1-65535")
    return host or "127.0.0.1", int(port)


class PitClient:
    """Subscribes to ``<prefix>/<table>/...`` topics and hands each parsed message on."""

    def __init__(self, host: str, port: int, topics: list[str],
                 on_event: Callable[[str, dict], None], *, client_id: str = "",
                 on_bad: Callable[[str, bytes, str], None] | None = None,
                 username: str | None = None, password: str | None = None,
                 tls: ssl.SSLContext | None = None, max_payload: int = MAX_PAYLOAD,
                 on_link: Callable[[bool], None] | None = None) -> None:
        self.topics = topics
        self.on_link = on_link
        """Told once when the broker goes away (False) and once when it is back (True): paho retries
        every few seconds meanwhile, and says nothing each time (issue 24: watch printed an error
        every 2 s after the demo's broker stopped)."""
        self._lost = False
        self.on_event = on_event
        self.on_bad = on_bad
        """Called with the topic, the payload and why, for a payload that is not a JSON object."""
        self.max_payload = max_payload
        self.callback_errors = 0
        """Messages whose callback raised: logged and dropped, and the network thread went on."""
        self.connected = threading.Event()
        self.refused: str | None = None  # the broker's reason, when it refused the connection
        self._answered = threading.Event()  # subscribed, or refused: either way start() knows
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_socket_open = tcp_no_delay
        # Belt and braces for the callbacks not guarded below: paho logs the exception and goes on.
        self.client.suppress_exceptions = True
        self.client.enable_logger(log)
        if username is not None:
            self.client.username_pw_set(username, password)
        if tls is not None:
            self.client.tls_set_context(tls)
        self.host, self.port = host, port

    def start(self, timeout: float = 10.0) -> PitClient:
        self.client.connect(self.host, self.port, keepalive=30)
        self.client.loop_start()
        self._answered.wait(timeout)
        if not self.connected.is_set():
            self.client.loop_stop()
            why = f": the broker refused the connection: {self.refused}" if self.refused else ""
            raise RuntimeError(f"pit subscriber could not subscribe on {self.host}:{self.port}{why}")
        # From here a lost broker is one line through on_link (or one log line), not paho's error
        # at every retry; what it says of a callback that raised is ours to log (_on_message).
        self.client.disable_logger()
        return self

    def stop(self) -> None:
        # paho's network thread may take one more turn after the disconnect and log "Client is not
        # connected" at ERROR: shutdown noise a newcomer's demo must not print.
        self.client.disable_logger()
        self._lost = True        # a disconnect of our own is not the broker going away
        self.client.disconnect()
        self.client.loop_stop()

    def publish(self, topic: str, payload: dict, qos: int = 1) -> None:
        self.client.publish(topic, json.dumps(payload), qos=qos)

    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            self.refused = str(reason_code)
            log.error("pit subscriber refused by broker: %s", reason_code)
            self._answered.set()
            return
        if self._lost:
            self._lost = False
            self._link(True)
        result, _ = client.subscribe([(t, 1) for t in self.topics])
        if result == mqtt.MQTT_ERR_SUCCESS:
            client.on_subscribe = lambda *a: (self.connected.set(), self._answered.set())

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        if self.connected.is_set() and not self._lost:
            self._lost = True
            self._link(False)

    def _link(self, up: bool) -> None:
        try:
            if self.on_link is not None:
                self.on_link(up)
            elif up:
                log.warning("the broker at %s:%d is back", self.host, self.port)
            else:
                log.warning("the broker at %s:%d went away: retrying until it is back", self.host, self.port)
        except Exception:
            log.exception("pit subscriber: the link callback failed")

    def _on_message(self, client, userdata, msg: mqtt.MQTTMessage) -> None:
        """Parse and hand on; never raise (paho's thread would end with the exception)."""
        try:
            payload, why = parse_payload(msg.payload, self.max_payload)
            if why is not None:
                if self.on_bad:
                    self.on_bad(msg.topic, msg.payload, why)
                return
            self.on_event(msg.topic, payload)
        except Exception:
            self.callback_errors += 1
            log.exception("pit subscriber: handling a message on %r failed; dropped, still listening",
                          msg.topic[:200])


def parse_payload(payload: bytes, limit: int = MAX_PAYLOAD) -> tuple[dict, str | None]:
    """A message's payload as a JSON object, or why it is not one (the payload is never echoed:
    it may be huge, or binary). An empty payload (a retained message cleared) is ``{}``."""
    if len(payload) > limit:
        return {}, f"payload too large: {len(payload)} bytes, at most {limit}"
    try:
        value = json.loads(payload) if payload else {}
    except UnicodeDecodeError as exc:
        return {}, f"not UTF-8 ({exc.reason} at byte {exc.start})"
    except ValueError as exc:  # json.JSONDecodeError says where
        return {}, f"not JSON: {exc}"
    except RecursionError:  # a few thousand brackets exhaust the parser's stack
        return {}, "not JSON this side can read: nested too deeply"
    if not isinstance(value, dict):
        return {}, f"not a JSON object but {_JSON_TYPES.get(type(value), type(value).__name__)}"
    return value, None


_JSON_TYPES = {list: "a list", str: "a string", int: "a number", float: "a number", bool: "true or false",
               type(None): "null"}
