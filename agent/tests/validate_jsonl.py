#!/usr/bin/python3
"""Validates every line of a JSONL file against a JSON Schema (agent/schemas/): `validate_jsonl.py SCHEMA FILE`.

Prints "FILE: N lines valid (VALIDATOR)" and exits 0, or one "FILE:LINE: path: problem" per invalid line and exits
1. The validator is python3-jsonschema (Draft 2020-12) when it is installed (scripts/setup.sh test); without it, the
subset below, which implements exactly the keywords agent/schemas/ use and refuses a schema with any other, so no
part of a schema can go unchecked.
"""
import json
import sys

ANNOTATIONS = {"$schema", "title", "description", "$defs"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
}


def same(a, b):
    # JSON's equality: true is not 1.
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


class SubsetValidator:
    name = "the in-repo subset validator"

    def __init__(self, schema):
        self.root = schema

    def errors(self, value, schema=None, path="$"):
        schema = self.root if schema is None else schema
        unknown = set(schema) - ANNOTATIONS - set(KEYWORDS)
        if unknown:
            raise SystemExit(f"validate_jsonl.py: the schema uses {sorted(unknown)}, which the subset validator "
                             "does not implement: install python3-jsonschema (scripts/setup.sh test)")
        for keyword, argument in schema.items():
            if keyword in KEYWORDS:
                yield from KEYWORDS[keyword](self, value, argument, schema, path)

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise SystemExit(f"validate_jsonl.py: only local $refs are implemented, not {ref}")
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part]
        return node


def k_type(v, value, t, _s, path):
    if not TYPES[t](value):
        yield f"{path}: {json.dumps(value)[:60]} is not of type '{t}'"


def k_properties(v, value, props, _s, path):
    if isinstance(value, dict):
        for name, sub in props.items():
            if name in value:
                yield from v.errors(value[name], sub, f"{path}.{name}")


def k_required(v, value, names, _s, path):
    if isinstance(value, dict):
        for name in names:
            if name not in value:
                yield f"{path}: '{name}' is a required property"


def k_additional(v, value, allowed, schema, path):
    if allowed is not False:
        raise SystemExit("validate_jsonl.py: additionalProperties other than false is not implemented")
    if isinstance(value, dict):
        for name in value:
            if name not in schema.get("properties", {}):
                yield f"{path}: additional property '{name}' is not allowed"


def k_items(v, value, sub, _s, path):
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from v.errors(item, sub, f"{path}[{i}]")


def k_min_items(v, value, n, _s, path):
    if isinstance(value, list) and len(value) < n:
        yield f"{path}: fewer than {n} items"


def k_max_items(v, value, n, _s, path):
    if isinstance(value, list) and len(value) > n:
        yield f"{path}: more than {n} items"


def k_min_length(v, value, n, _s, path):
    if isinstance(value, str) and len(value) < n:
        yield f"{path}: shorter than {n} characters"


def k_enum(v, value, options, _s, path):
    if not any(same(value, o) for o in options):
        yield f"{path}: {json.dumps(value)[:60]} is not one of {options}"


def k_const(v, value, c, _s, path):
    if not same(value, c):
        yield f"{path}: {json.dumps(value)[:60]} was expected to be {json.dumps(c)}"


def k_ref(v, value, ref, _s, path):
    yield from v.errors(value, v.resolve(ref), path)


def k_any_of(v, value, subs, _s, path):
    if all(list(v.errors(value, sub, path)) for sub in subs):
        yield f"{path}: matches none of the anyOf schemas"


def k_contains(v, value, sub, _s, path):
    if isinstance(value, list) and all(list(v.errors(item, sub, path)) for item in value):
        yield f"{path}: no item matches the 'contains' schema"


KEYWORDS = {"type": k_type, "properties": k_properties, "required": k_required, "additionalProperties": k_additional,
            "items": k_items, "minItems": k_min_items, "maxItems": k_max_items, "minLength": k_min_length,
            "enum": k_enum, "const": k_const, "$ref": k_ref, "anyOf": k_any_of, "contains": k_contains}


def validator_for(schema):
    try:
        import jsonschema
    except ImportError:
        return SubsetValidator(schema)

    class Real:
        name = f"jsonschema {jsonschema.__version__}"

        def __init__(self):
            jsonschema.Draft202012Validator.check_schema(schema)
            self.v = jsonschema.Draft202012Validator(schema)

        def errors(self, value):
            for e in self.v.iter_errors(value):
                where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path)
                yield f"${where}: {e.message}"

    return Real()


def main():
    schema_path, data_path = sys.argv[1], sys.argv[2]
    validator = validator_for(json.load(open(schema_path)))
    bad, count = 0, 0
    for number, text in enumerate(open(data_path), 1):
        count += 1
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            print(f"{data_path}:{number}: not JSON: {e}")
            bad += 1
            continue
        for problem in validator.errors(value):
            print(f"{data_path}:{number}: {problem}")
            bad += 1
    if bad:
        return 1
    print(f"{data_path}: {count} lines valid ({validator.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
