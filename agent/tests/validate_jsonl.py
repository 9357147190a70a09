#!/usr/bin/python3
"""Validates every line of a JSONL file against a JSON Schema (agent/schemas/): `validate_jsonl.py SCHEMA FILE`.

Prints "FILE: N lines valid" and exits 0, or one "FILE:LINE: path: problem" per invalid line and exits 1. The
validator is python3-jsonschema's Draft 2020-12 (Debian 12 ships 4.10; scripts/setup.sh test installs it).
"""
import json
import sys

import jsonschema


def main():
    schema_path, data_path = sys.argv[1], sys.argv[2]
    schema = json.load(open(schema_path))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad, count = 0, 0
    for number, text in enumerate(open(data_path), 1):
        count += 1
        try:
            value = json.loads(text)
        except json.JSONDecodeError as e:
            print(f"{data_path}:{number}: not JSON: {e}")
            bad += 1
            continue
        for e in validator.iter_errors(value):
            where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in e.absolute_path)
            print(f"{data_path}:{number}: ${where}: {e.message}")
            bad += 1
    if bad:
        return 1
    print(f"{data_path}: {count} lines valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
