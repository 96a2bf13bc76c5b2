"""The JSON Schemas of docs/schemas/ (controller/shared/data/schemas, shipped in the wheel), loaded once, and errors a person can act on.

The schemas are the published contract with the pit (DESIGN.md, MQTT:
"Every event kind has a JSON Schema in docs"), so they live in docs/ as
plain JSON and this module only loads them; the controller checks pit
commands against ``command.json`` and the tests check every event they see.

jsonschema's own messages (``'bad id!' does not match '^[A-Za-z…'``) are
written for programmers; :func:`explain` turns one error into
``table.id: must match ^[A-Za-z0-9_-]+$ (got "bad id!")`` so that a config
typo or a malformed pit command names the key and the reason. The config
loader shares it, which is why it takes any schema, not only these.

A pit command's refusal quotes nothing it got (``quote=False``): the refusal is published on the
command topic, journaled and archived, and a refused value may be a card still face down typed in
the wrong place (``seat: must be an integer``, never ``(got "9C")``). It names the key and what
was expected; an unknown key is counted, not named (the key is what was typed). A config file's
errors go to the operator's console and the system log, never to the pit, and keep quoting what
they got (a password's value excepted): that is what the operator has to find in the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from games import registry as games

SCHEMA_DIR = Path(__file__).resolve().parent / "data" / "schemas"
BASE_URI = "https://tablectl.invalid/schemas/"
"""The ``$id`` base of every schema. ``.invalid`` can never resolve, so
nothing is ever fetched from the network: all references resolve locally."""

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A table id as defs.json's ``table_id`` has it (letters, digits, _ and -, 1 to 64), for checking a
topic level or a path before any schema runs (`tablectl watch`, the pit board's URLs)."""

SECRET_KEYS = frozenset({"password"})
"""Keys whose values never appear in an error message (DESIGN.md, secrets)."""


class SchemaError(ValueError):
    """An instance does not match its schema; ``problems`` are ``path: why`` lines."""

    def __init__(self, what: str, problems: list[str]) -> None:
        self.what = what
        self.problems = problems
        super().__init__(f"{what}: " + "; ".join(problems))


def _schema_files() -> list[Path]:
    """docs/schemas/, then each registered game's own event schemas (games/<game>/schemas/)."""
    files = sorted(SCHEMA_DIR.rglob("*.json"))
    for name in games.names():
        folder = games.get(name).schemas
        if folder is not None:
            files += sorted(folder.glob("*.json"))
    return files


@cache
def registry() -> Registry:
    """Every schema file, by its ``$id``: the controller's and the games' (``games/<game>/<kind>.json``)."""
    resources = []
    for path in _schema_files():
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


def game_kinds(game: str) -> frozenset[str]:
    """The event kinds a game narrows with a schema of its own."""
    folder = games.get(game).schemas
    return frozenset(p.stem for p in folder.glob("*.json")) if folder is not None else frozenset()


@cache
def validator(name: str) -> Draft202012Validator:
    """A validator for ``name``: a file under docs/schemas/ without ``.json``
    (``"envelope"``, ``"events/card"``), optionally with a JSON pointer
    (``"command#/$defs/void"``)."""
    file, _, pointer = name.partition("#")
    uri = f"{BASE_URI}{file}.json"
    if uri not in {json.loads(p.read_text(encoding="utf-8"))["$id"] for p in _schema_files()}:
        raise KeyError(f"no schema {file!r} in {SCHEMA_DIR} or a game's schemas")
    schema = {"$ref": f"{uri}#{pointer}"} if pointer else registry().contents(uri)
    return Draft202012Validator(schema, registry=registry())


def event_kinds() -> list[str]:
    """The event kinds that have a schema."""
    return sorted(p.stem for p in (SCHEMA_DIR / "events").glob("*.json"))


def problems(schema_validator: Draft202012Validator, instance: Any,
             secret_keys: frozenset[str] = SECRET_KEYS, *, quote: bool = True) -> list[str]:
    """Every problem with ``instance`` as ``path: why``, sorted by path; ``quote=False`` for what
    goes to the pit (a command's refusal): nothing of the instance is quoted (see :func:`explain`)."""
    return sorted({line for e in _leaves(schema_validator.iter_errors(instance))
                   for line in explain(e, secret_keys, quote=quote)})


def validate(name: str, instance: Any) -> None:
    """Raise :class:`SchemaError` unless ``instance`` matches schema ``name``."""
    found = problems(validator(name), instance)
    if found:
        raise SchemaError(name, found)


def validate_event(envelope: Mapping[str, Any], game: str | None = None) -> None:
    """Check a published event: its envelope, then its kind's data schema, then, for
    ``game``, the game's own schema of that kind where it has one (``card``, ``result`` ...).

    The error names the event (``event 12 (card)``) and each bad key, so a
    test failure points straight at the emitting code.
    """
    kind = envelope.get("kind") if isinstance(envelope, Mapping) else None
    what = f"event {envelope.get('seq', '?')} ({kind})" if isinstance(envelope, Mapping) else "event"
    found = problems(validator("envelope"), envelope)
    if not found:
        if kind not in event_kinds():
            found = [f"kind: no schema for event kind {kind!r} (known: {', '.join(event_kinds())})"]
        else:
            found = problems(validator(f"events/{kind}"), envelope)
            if game is not None and kind in game_kinds(game):
                found = sorted({*found, *problems(validator(f"games/{game}/{kind}"), envelope)})
    if found:
        raise SchemaError(what, found)


# -- turning jsonschema errors into sentences ---------------------------------

def _leaves(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """Descend into anyOf/oneOf to the branch that came closest to matching."""
    for error in errors:
        if error.context and error.validator in ("anyOf", "oneOf"):
            yield best_match(error.context)
        else:
            yield error


def dotted(path: Iterable[Any]) -> str:
    """``["gpio", "buttons", "deal"]`` -> ``gpio.buttons.deal``; indexes as ``[2]``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def _holds_secret(value: Any, keys: frozenset[str], depth: int = 0) -> bool:
    """Whether an instance quoted whole (an error at its parent) would show a secret key's value."""
    if depth > 8:
        return True
    if isinstance(value, dict):
        return any(str(k) in keys or _holds_secret(v, keys, depth + 1) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_secret(v, keys, depth + 1) for v in value)
    return False


def show(value: Any, limit: int = 60) -> str:
    """A value as JSON, cut short: error messages quote what they got."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_TYPE_WORDS = {"object": "a table", "array": "a list", "string": "a string", "integer": "an integer",
               "number": "a number", "boolean": "true or false", "null": "null"}


def explain(error: ValidationError, secret_keys: frozenset[str] = SECRET_KEYS, *, quote: bool = True) -> list[str]:
    """One error as ``path: why`` lines (one per missing or unknown key),
    never quoting a secret's value; with ``quote=False`` never quoting anything of the instance:
    not a value (string or number), not an unknown key, not a count of what it held."""
    if not quote:
        return _unquoted(error)
    path = list(error.absolute_path)
    v, want, got = error.validator, error.validator_value, error.instance
    if "propertyNames" in error.absolute_schema_path:  # the key itself is wrong: name it in the path
        path.append(got)
    secret = any(str(p) in secret_keys for p in path) or _holds_secret(got, secret_keys)
    got_text = "hidden" if secret else show(got)
    custom = error.schema.get("x-why") if isinstance(error.schema, dict) else None
    if custom:
        why = f"{custom} (got {got_text})" if v != "not" else custom
    elif v == "required":
        missing = [k for k in want if isinstance(got, dict) and k not in got]
        return [f"{dotted([*path, k])}: is required" for k in missing]
    elif v == "additionalProperties" and want is False:
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(k for k in got if k not in error.schema.get("properties", {}))
        hint = f" (allowed: {', '.join(allowed)})" if allowed else ""
        return [f"{dotted([*path, k])}: unknown key{hint}" for k in extra]
    elif v == "type":
        kinds = [want] if isinstance(want, str) else list(want)
        why = f"must be {' or '.join(_TYPE_WORDS.get(k, k) for k in kinds)} (got {got_text})"
    elif v == "pattern":
        why = f"must match {want} (got {got_text})"
    elif v == "enum":
        why = f"must be one of {', '.join(show(x) for x in want)} (got {got_text})"
    elif v == "const":
        why = f"must be {show(want)} (got {got_text})"
    elif v == "minimum":
        why = f"must be at least {want} (got {got_text})"
    elif v == "maximum":
        why = f"must be at most {want} (got {got_text})"
    elif v == "exclusiveMinimum":
        why = f"must be more than {want} (got {got_text})"
    elif v == "minLength":
        why = "must not be empty" if want == 1 else f"must be at least {want} characters long"
    elif v == "maxLength":
        why = f"must be at most {want} characters long"
    elif v in ("minItems", "maxItems"):
        why = f"must have {'at least' if v == 'minItems' else 'at most'} {want} items (got {len(got)})"
    elif v == "uniqueItems":
        why = f"must not repeat an item (got {got_text})"
    else:
        why = error.message if not secret else f"is not valid ({v})"
    return [f"{dotted(path)}: {why}"]


_SENDERS_KEY = "(a key)"
"""A key the sender chose (a seat's, a card's place) that the path cannot name: it may be anything."""


def _schema_named(error: ValidationError) -> list[Any]:
    """The error's path with only what the schema names: a property the schema lists, an array
    position, a seat number given as a key ("3"); any other key the sender chose (an object's
    ``additionalProperties`` or ``patternProperties``) is :data:`_SENDERS_KEY`."""
    instance = list(error.absolute_path)
    tokens = list(error.absolute_schema_path)[:-1]   # the last one is the failing keyword itself
    out: list[Any] = []
    i = t = 0
    while t < len(tokens) and i < len(instance):
        token = tokens[t]
        if token == "properties" and t + 1 < len(tokens):
            out.append(instance[i] if instance[i] == tokens[t + 1] else _SENDERS_KEY)
            i, t = i + 1, t + 2
            continue
        if token in ("additionalProperties", "patternProperties", "unevaluatedProperties"):
            part = instance[i]
            out.append(part if isinstance(part, str) and part.isdigit() and len(part) <= 2 else _SENDERS_KEY)
            i, t = i + 1, t + (2 if token == "patternProperties" else 1)
            continue
        if token in ("items", "prefixItems", "additionalItems", "unevaluatedItems", "contains"):
            part = instance[i]
            out.append(part if isinstance(part, int) else _SENDERS_KEY)
            i, t = i + 1, t + (2 if token == "prefixItems" else 1)
            continue
        t += 1
    out += [p if isinstance(p, int) else _SENDERS_KEY for p in instance[i:]]
    return out


def _unquoted(error: ValidationError) -> list[str]:
    """:func:`explain` for the pit: the key (its path, array positions as ``[2]``) and what the
    schema expects there, in the schema's words only. The path never takes in a key the sender
    typed that the schema refused (``propertyNames``, an unknown key): only keys the schema names,
    or keys it accepted on the way down."""
    path = _schema_named(error)
    v, want, got = error.validator, error.validator_value, error.instance
    key = "propertyNames" in error.absolute_schema_path   # the key itself is wrong: about "a key" of path
    custom = error.schema.get("x-why") if isinstance(error.schema, dict) else None
    if custom:
        why = custom
    elif v == "required":
        missing = [k for k in want if isinstance(got, dict) and k not in got]
        return [f"{dotted([*path, k])}: is required" for k in missing]
    elif v == "additionalProperties" and want is False:
        allowed = sorted(error.schema.get("properties", {}))
        n = sum(1 for k in got if k not in error.schema.get("properties", {})) if isinstance(got, dict) else 1
        hint = f" (the keys are {', '.join(allowed)})" if allowed else " (it takes no keys)"
        return [f"{dotted(path)}: {'an unknown key' if n == 1 else f'{n} unknown keys'}{hint}"]
    elif v == "type":
        kinds = [want] if isinstance(want, str) else list(want)
        why = f"must be {' or '.join(_TYPE_WORDS.get(k, k) for k in kinds)}"
    elif v == "pattern":
        why = f"must match {want}"
    elif v == "enum":
        why = f"must be one of {', '.join(show(x) for x in want)}"
    elif v == "const":
        why = f"must be {show(want)}"
    elif v == "minimum":
        why = f"must be at least {want}"
    elif v == "maximum":
        why = f"must be at most {want}"
    elif v == "exclusiveMinimum":
        why = f"must be more than {want}"
    elif v == "exclusiveMaximum":
        why = f"must be less than {want}"
    elif v == "minLength":
        why = "must not be empty" if want == 1 else f"must be at least {want} characters long"
    elif v == "maxLength":
        why = f"must be at most {want} characters long"
    elif v in ("minItems", "maxItems"):
        why = f"must have {'at least' if v == 'minItems' else 'at most'} {want} items"
    elif v in ("minProperties", "maxProperties"):
        why = f"must have {'at least' if v == 'minProperties' else 'at most'} {want} keys"
    elif v == "uniqueItems":
        why = "must not repeat an item"
    else:   # jsonschema's own message quotes the instance: say only which rule of the schema
        why = f"does not meet the schema ({v})"
    if key:
        why = f"a key {why}"
    return [f"{dotted(path)}: {why}"]
