"""Compare two snapshots of tools/snapshot_outputs.sh where the later one may only ADD things.

A change that extends the outputs (a new metric row, a new per-game column, a new field of a
trace event) makes `diff -r` report every file; this reads both sides and checks that
everything the earlier snapshot has is unchanged in the later one:

- CSV files: the rows (keyed by their first columns up to the first numeric one; for per-game
  files the row number) and columns both have are equal, cell by cell;
- JSON documents (`--json` output): every key of the earlier one unchanged, its metric rows
  kept (the later may hold more rows and keys);
- JSON lines (traces): line by line, every key of the earlier event has the same value
  (nested dicts compared the same way: the later one may hold more keys);
- files only in the later snapshot are listed as new; files only in the earlier one as missing.

Usage: python tools/compare_snapshots.py BEFORE AFTER [--skip GLOB ...]
Prints one line per file (same / extended / DIFFERENT / new / missing) and a count; exit 1 when
anything differs or is missing.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from pathlib import Path

import pandas as pd


def contained(old, new) -> bool:
    """Every key of `old` is in `new` with a contained value (lists element by element)."""
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and contained(v, new[k]) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and len(old) == len(new) and all(contained(a, b) for a, b in zip(old, new))
    return old == new


def compare_jsonl(old: Path, new: Path) -> str:
    a, b = old.read_text().splitlines(), new.read_text().splitlines()
    if len(a) != len(b):
        return f"DIFFERENT ({len(a)} lines before, {len(b)} after)"
    for i, (x, y) in enumerate(zip(a, b)):
        if not contained(json.loads(x), json.loads(y)):
            return f"DIFFERENT (line {i + 1})"
    return "same" if a == b else "extended"


def compare_json(old: Path, new: Path, roots: tuple[Path, Path]) -> str:
    """The paths a document names are read relative to its snapshot's folder."""
    def load(path: Path):
        text = path.read_text()
        for root in roots:
            text = text.replace(f"{root.resolve()}/", "").replace(f"{root}/", "")
        return json.loads(text)

    a, b = load(old), load(new)
    whole = b
    if isinstance(a, dict) and isinstance(b, dict):  # a record list under a key may grow by whole rows
        b = {k: _rows_like(v, b[k]) if k in b else None for k, v in a.items()} | {k: v for k, v in b.items() if k not in a}
    if not contained(a, b):
        return "DIFFERENT"
    return "same" if a == whole else "extended"


def _rows_like(old, new):
    """`new` restricted to the rows `old` has, when both are lists of records with a `metric`."""
    if isinstance(old, list) and isinstance(new, list) and all(isinstance(r, dict) and "metric" in r for r in old + new):
        wanted = {(r.get("variant"), r["metric"]) for r in old}
        return [r for r in new if (r.get("variant"), r["metric"]) in wanted]
    return new


def compare_csv(old: Path, new: Path) -> str:
    a, b = pd.read_csv(old, dtype=str, keep_default_na=False), pd.read_csv(new, dtype=str, keep_default_na=False)
    missing = [c for c in a.columns if c not in b.columns]
    if missing:
        return f"DIFFERENT (columns gone: {missing})"
    # a row's key: the columns before `value` (variant, a sweep's knobs, metric), else known names
    keys = (list(a.columns[:list(a.columns).index("value")]) if "value" in a.columns else
            [c for c in a.columns if c in ("variant", "metric", "seat", "bot", "game", "point", "preset", "x")])
    if keys and not a.duplicated(keys).any() and not b.duplicated(keys).any():
        b = b.set_index(keys).loc[lambda f: f.index.isin(a.set_index(keys).index)].reset_index()
        if len(b) != len(a):
            return "DIFFERENT (rows gone)"
        a = a.sort_values(keys).reset_index(drop=True)
        b = b.sort_values(keys).reset_index(drop=True)
    elif len(a) != len(b):
        return f"DIFFERENT ({len(a)} rows before, {len(b)} after)"
    b = b[list(a.columns)]
    if not a.equals(b):
        row = (a != b).any(axis=1).idxmax()
        return f"DIFFERENT (row {row}: {a.loc[row].to_dict()} -> {b.loc[row].to_dict()})"
    return "same" if old.read_bytes() == new.read_bytes() else "extended"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--skip", nargs="*", default=[], help="glob patterns of files to leave out")
    args = parser.parse_args()
    files = lambda root: {p.relative_to(root).as_posix() for p in root.rglob("*")
                          if p.is_file() and p.suffix in (".csv", ".jsonl", ".json")}
    before, after = files(args.before), files(args.after)
    counts: dict[str, int] = {}
    for name in sorted(before | after):
        if any(fnmatch.fnmatch(name, g) for g in args.skip):
            verdict = "skipped"
        elif name not in after:
            verdict = "missing"
        elif name not in before:
            verdict = "new"
        elif name.endswith(".csv"):
            verdict = compare_csv(args.before / name, args.after / name)
        elif name.endswith(".json"):
            verdict = compare_json(args.before / name, args.after / name, (args.before, args.after))
        else:
            verdict = compare_jsonl(args.before / name, args.after / name)
        kind = verdict.split()[0]
        counts[kind] = counts.get(kind, 0) + 1
        print(f"{verdict:<10} {name}" if kind in ("same", "extended", "new", "skipped") else f"{name}: {verdict}")
    print(", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    return 1 if counts.get("DIFFERENT") or counts.get("missing") else 0


if __name__ == "__main__":
    sys.exit(main())
