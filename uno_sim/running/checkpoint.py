"""Checkpoints: every finished chunk's aggregate kept on disk, so that a stopped run (Ctrl-C,
SIGTERM, SIGKILL, a lost cluster) continues where it stopped and ends with the same bytes.

A checkpoint folder holds:

    checkpoint.json        the parameters of every run in it (rules, bots, seed, games,
                           seat rotation, chunk size), the uno-sim version and engine hash,
                           and the command that made it (for `uno-sim resume DIR`)
    unit-0000/             one folder per run (a comparison's variant, a sweep's grid point)
      chunk-<first>-<n>.npz  the aggregate of items first .. first+n-1
      total.npz              the whole run's aggregate, once complete (the chunk files go)

Every file is written to a temporary name, flushed to disk (fsync) and renamed, and the
folder is synced after the rename, so a file either holds a whole aggregate or is absent.
Chunks are a fixed plan (chunks.fixed_chunk), recorded in the parameters, so a resumed run
plays exactly the chunks that are missing. A checkpoint of other parameters or another
engine is refused (BadInput naming the difference), never mixed in. A lock on the folder
keeps two processes from using one checkpoint at once.

The aggregates are stored as plain arrays (numpy .npz without pickles): loading a
checkpoint never runs code from it.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import shlex
from pathlib import Path
from typing import Any

import numpy as np

from ..game.errors import BadInput
from ..output.files import durable_write, remove_stale_temp_files
from ..stats import IntHistogram

FORMAT = 1
MANIFEST = "checkpoint.json"
LOCK = ".lock"
CHUNK_FILE = re.compile(r"^chunk-(\d{15})-(\d+)\.npz$")
TOTAL_FILE = "total.npz"
SOURCE = "source_sha256"  # a `python:` bot's file, hashed (env/policies.py policy_source)
# Scalar fields of an aggregate that describe the rules (checked on loading); the others are counts.
SETTINGS = ("players", "teams", "rotate", "scoring", "fixed_rounds", "size", "base_size")


class CheckpointError(BadInput):
    """A checkpoint folder that cannot be used for this command; the message says why.
    `mismatch`: how the folder's runs differ from this command's (then the message advises
    `uno-sim resume`, which `resume` itself must not repeat)."""

    def __init__(self, message: str, mismatch: str | None = None, made_by: tuple[list[str], str] | None = None,
                 where: str = "") -> None:
        super().__init__(message)
        self.mismatch = mismatch
        self.made_by = made_by  # (argv, cwd) of the command line the folder records, if any
        self.where = where  # `--checkpoint 'DIR'`


def recorded_command(folder: Path) -> tuple[list[str], str]:
    """(argv, cwd) of the command line a checkpoint folder records, for `uno-sim resume`;
    CheckpointError naming the problem when the folder is no checkpoint, its manifest cannot be
    read or is damaged, or it holds no command line (made from Python)."""
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise CheckpointError(f"{str(folder)!r} is not a checkpoint folder (no {MANIFEST}); "
                              "make one with --checkpoint DIR")
    try:
        text = manifest_path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise CheckpointError(f"cannot read the checkpoint file {str(manifest_path)!r} "
                              f"({getattr(exc, 'strerror', None) or exc})") from None
    try:
        manifest = json.loads(text)
    except ValueError as exc:
        what = "empty" if not text.strip() else f"cut short or not JSON ({exc.msg} at line {exc.lineno})"
        raise CheckpointError(f"the checkpoint file {str(manifest_path)!r} is damaged ({what}), so the run cannot "
                              "be resumed from it; remove the folder and run the command again") from None
    if not isinstance(manifest, dict):
        raise CheckpointError(f"the checkpoint file {str(manifest_path)!r} is damaged (not a JSON object), so the "
                              "run cannot be resumed from it; remove the folder and run the command again")
    try:
        return [str(a) for a in manifest["argv"]], str(manifest["cwd"])
    except (KeyError, TypeError):
        raise CheckpointError(f"{str(folder)!r}: its {MANIFEST} holds no command line to repeat (made from "
                              "Python? then run the same call with this checkpoint again)") from None


# ---------------------------------------------------------------- aggregates as arrays


def to_arrays(agg: Any, prefix: str = "") -> dict[str, np.ndarray]:
    """A dataclass aggregate (stats.Aggregate, matches.MatchAggregate, stats.PairedAggregate)
    as named arrays: scalars `s:NAME`, arrays `a:NAME`, histograms `h:NAME:offset|counts`,
    dicts of histograms `d:NAME:KEY:...`, lists of histograms `l:NAME:I:...`, lists of
    aggregates (a paired aggregate's variants) with their fields named `NAME.I.FIELD`."""
    out: dict[str, np.ndarray] = {}

    def hist(key: str, h: IntHistogram) -> None:
        out[f"{key}:offset"] = np.array(h.offset, dtype=np.int64)
        out[f"{key}:counts"] = np.asarray(h.counts, dtype=np.int64)

    for f in dataclasses.fields(agg):
        value = getattr(agg, f.name)
        name = prefix + f.name
        if isinstance(value, IntHistogram):
            hist(f"h:{name}", value)
        elif isinstance(value, dict):
            for key, h in value.items():
                hist(f"d:{name}:{key}", h)
        elif isinstance(value, list):
            out[f"n:{name}"] = np.array(len(value), dtype=np.int64)
            for i, item in enumerate(value):
                if dataclasses.is_dataclass(item):
                    out |= to_arrays(item, f"{name}.{i}.")
                else:
                    hist(f"l:{name}:{i}", item)
        elif isinstance(value, np.ndarray):
            out[f"a:{name}"] = value
        elif isinstance(value, (bool, int, str, np.integer)):
            out[f"s:{name}"] = np.array(value)
        else:
            raise TypeError(f"cannot store field {name} of type {type(value).__name__}")
    return out


def from_arrays(template: Any, arrays: dict[str, np.ndarray], prefix: str = "") -> Any:
    """The aggregate stored by to_arrays, built on an empty aggregate of the same kind
    (`template`, whose scalar settings must match the stored ones)."""
    agg = dataclasses.replace(template)

    def hist(key: str) -> IntHistogram:
        h = IntHistogram()
        h.offset = int(arrays[f"{key}:offset"])
        h.counts = np.array(arrays[f"{key}:counts"], dtype=np.int64)
        return h

    for f in dataclasses.fields(agg):
        value = getattr(agg, f.name)
        name = prefix + f.name
        if isinstance(value, IntHistogram):
            setattr(agg, f.name, hist(f"h:{name}"))
        elif isinstance(value, dict):
            setattr(agg, f.name, {key: hist(f"d:{name}:{key}") for key in value})
        elif isinstance(value, list) and value and dataclasses.is_dataclass(value[0]):
            if int(arrays[f"n:{name}"]) != len(value):
                raise ValueError(f"stored {name} has {int(arrays[f'n:{name}'])} parts, expected {len(value)}")
            setattr(agg, f.name, [from_arrays(item, arrays, f"{name}.{i}.") for i, item in enumerate(value)])
        elif isinstance(value, list):
            setattr(agg, f.name, [hist(f"l:{name}:{i}") for i in range(int(arrays[f"n:{name}"]))])
        elif isinstance(value, np.ndarray):
            stored = np.array(arrays[f"a:{name}"], dtype=value.dtype)
            if stored.shape != value.shape:
                raise ValueError(f"stored {name} has shape {stored.shape}, expected {value.shape}")
            setattr(agg, f.name, stored)
        else:
            stored = arrays[f"s:{name}"].item()
            if f.name in SETTINGS:
                if stored != value:
                    raise ValueError(f"stored {name} is {stored!r}, expected {value!r}")
            else:  # a count
                setattr(agg, f.name, int(stored))
    return agg


def _npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _items(agg: Any) -> int:
    return int(getattr(agg, "games", getattr(agg, "matches", 0)))


# ---------------------------------------------------------------- the folder


def engine_identity() -> dict[str, str]:
    from ..game.version import VERSION as __version__
    from ..engine.jit import sources_hash

    return {"uno_sim": __version__, "engine": sources_hash()}


def unit_params(kind: str, rules, bots, seed: int, total: int, rotate: bool, chunk: int,
                skill_index: bool = False) -> dict[str, Any]:
    """Everything that decides a run's numbers (its name does not): a rule file's own deck
    too, kind by kind (its `deck` knob reads only `custom`), a `python:` bot's source (the
    SHA-256 of its file: an edited policy is another bot); `skill_index`: the run is the
    skill games played beside another (--skill), so marked."""
    from ..env.policies import policy_source

    deck = {"deck": [k.to_table() for k in rules.custom_deck.kinds]} if rules.custom_deck is not None else {}
    params = {
        "kind": kind,
        "rules": {k: v for k, v in rules.as_dict().items()},
        **deck,
        "bots": [{"name": b.name, "params": dict(sorted(b.params.items()))}
                 | ({"python": b.python, SOURCE: policy_source(b.python)} if b.python else {})
                 for b in bots],
        "seed": int(seed),
        kind: int(total),
        "rotate_seats": bool(rotate),
        "chunk": int(chunk),
    }
    if skill_index:
        params["skill_index"] = True
    return params


def unit_items(params: dict[str, Any]) -> int:
    """The games (or matches) of a unit of the checkpoint: a paired unit's deals under each
    of its variants."""
    return int(params[params["kind"]]) * len(params.get("paired") or [None])


def _difference(old: Any, new: Any, path: tuple = (), root: Any = None) -> str | None:
    """The first difference between two parameter trees, in words (None: equal); `root`: the
    stored tree, whose decks name a kind by its text."""
    root = old if root is None else root
    if isinstance(old, dict) and isinstance(new, dict):
        for key in dict.fromkeys([*old, *new]):
            if key not in old or key not in new:
                if key == "deck":
                    where = _where(path, root)
                    return (f"{where + ': ' if where else ''}a rule file's own deck: "
                            f"{'only in the checkpoint' if key in old else 'only now'}")
                if "deck" in path:  # a kind's table leaves out the fields at their defaults
                    shown = [_show(t[key]) if key in t else "not given (the default)" for t in (old, new)]
                    return f"{_where(path + (key,), root)}: {shown[0]} in the checkpoint, {shown[1]} now"
                return f"{_where(path + (key,), root)} is set in only one of them"
            found = _difference(old[key], new[key], path + (key,), root)
            if found:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return f"{_where(path, root)}: {len(old):,} in the checkpoint, {len(new):,} now"
        for i, (a, b) in enumerate(zip(old, new)):
            found = _difference(a, b, path + (i,), root)
            if found:
                return found
        return None
    if old != new:
        if path and path[-1] == SOURCE:
            return f"{_where(path[:-1], root)}: its policy's file was edited since the checkpoint was made"
        return f"{_where(path, root)}: {_show(old)} in the checkpoint, {_show(new)} now"
    return None


def _without_sources(tree: Any) -> Any:
    """A parameter tree with the python: bots' sources blanked (to tell an edited policy from
    other differences)."""
    if isinstance(tree, dict):
        return {k: "" if k == SOURCE else _without_sources(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_without_sources(v) for v in tree]
    return tree


def _where(path: tuple, root: Any = None) -> str:
    """("rules", "jump_in") -> `rules.jump_in`; a rule file's deck by its kinds' texts:
    ("deck", 15, "draw") -> the kind `W6`'s field `draw` (after the path to that unit, as in
    a paired compare's `paired.1`)."""
    node = root
    for i, key in enumerate(path):
        if key == "deck" and isinstance(node, dict) and isinstance(node.get("deck"), list):
            head = ".".join(str(p) for p in path[:i])
            head, rest, kinds = (head + ": " if head else ""), path[i + 1:], node["deck"]
            if not rest:
                return head + "the deck's kinds"
            place = rest[0]
            kind = kinds[place] if isinstance(place, int) and place < len(kinds) else None
            text = kind.get("text") if isinstance(kind, dict) else None
            if len(rest) == 1 or rest[1] == "text" or not isinstance(text, str):
                return head + f"the deck's kind {place + 1 if isinstance(place, int) else place}"
            return head + f"the kind `{text}`'s field `{rest[1]}`"
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
    return ".".join(str(p) for p in path)


def _unit_difference(old: list, new: list) -> str | None:
    """The first difference between the stored runs and these, in words (None: equal)."""
    if len(old) != len(new):
        text = f"{len(old):,} runs in the checkpoint, {len(new):,} now"
        skill = [any(u.get("skill_index") or any(v.get("skill_index") for v in u.get("paired") or [])
                     for u in units if isinstance(u, dict)) for units in (old, new)]
        if skill[0] != skill[1]:
            text += f"; it was made {'with' if skill[0] else 'without'} --skill"
        return text
    for i, (a, b) in enumerate(zip(old, new)):
        found = _difference(a, b)
        if found:
            return found if len(new) == 1 else f"run {i + 1} of {len(new)}: {found}"
    return None


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


class Checkpoint:
    """A checkpoint folder for one command's runs (`units`: their unit_params)."""

    def __init__(self, path: Path, command: str, units: list[dict[str, Any]]) -> None:
        self.path = Path(path)
        self.command = command
        self.units = units
        self.identity = engine_identity()
        self.lock_fd: int | None = None
        self.stores: list[UnitStore] = []
        self.argv: list[str] | None = None  # the command line, set by the CLI (for `uno-sim resume`)
        self.resumable = False  # the manifest holds a command line

    # -- checks before anything runs

    @classmethod
    def open(cls, path: str | os.PathLike, command: str, units: list[dict[str, Any]]) -> "Checkpoint":
        """Check the folder: absent, empty, or a checkpoint of exactly these runs made by this
        engine (CheckpointError otherwise)."""
        ck = cls(Path(path), command, json.loads(json.dumps(units)))
        what = f"--checkpoint {str(path)!r}"
        if ck.path.exists() and not ck.path.is_dir():
            raise CheckpointError(f"{what} exists and is not a folder")
        manifest = ck.path / MANIFEST
        if ck.path.is_dir() and not manifest.exists():
            held = [p.name for p in ck.path.iterdir() if p.name != LOCK]
            if held:
                raise CheckpointError(f"{what} is not a checkpoint folder (it holds {', '.join(sorted(held)[:3])}"
                                      f"{', ...' if len(held) > 3 else ''}); choose an empty or new folder")
        if manifest.exists():
            try:
                stored = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise CheckpointError(f"{what}: cannot read {MANIFEST} ({exc})") from None
            if stored.get("format") != FORMAT:
                raise CheckpointError(f"{what} has checkpoint format {stored.get('format')!r}; this uno-sim "
                                      f"reads format {FORMAT}: remove the folder or choose another")
            old = {k: stored.get(k) for k in ("uno_sim", "engine")}
            if old != ck.identity:
                raise CheckpointError(
                    f"{what} was written by uno-sim {old['uno_sim']} (engine {old['engine']}), this is uno-sim "
                    f"{ck.identity['uno_sim']} (engine {ck.identity['engine']}): its games would not match these, "
                    "so it cannot be resumed; remove the folder or choose another")
            made_by = (stored.get("argv"), stored.get("cwd"))
            made_by = made_by if isinstance(made_by[0], list) and isinstance(made_by[1], str) else None
            # resume repeats the command line the folder records; made from Python, there is none
            resume = (f"resume it with `uno-sim resume {path}`" if made_by
                      else "continue it with the same call that made it")
            if stored.get("command") != command:
                raise CheckpointError(f"{what} holds a checkpoint of `uno-sim {stored.get('command')}`, "
                                      f"not of `uno-sim {command}`; {resume} or choose another folder",
                                      mismatch=f"it records a `{stored.get('command')}` run, its command line "
                                               f"is `{command}`", made_by=made_by, where=what)
            diff = _unit_difference(stored.get("units") or [], ck.units)
            if diff and _unit_difference(_without_sources(stored.get("units") or []), _without_sources(ck.units)) is None:
                raise CheckpointError(f"{what} holds the games of a python: bot as it was before its file was edited "
                                      f"({diff}): they are not this policy's games; remove the folder or choose "
                                      "another", mismatch=diff)
            if diff:
                raise CheckpointError(f"{what} holds a checkpoint of other parameters ({diff}); {resume}, "
                                      "or choose another folder", mismatch=diff, made_by=made_by, where=what)
        from ..output.files import probe_writable, nearest_existing

        probe_writable(nearest_existing(ck.path), what)
        return ck

    def total_items(self) -> int:
        """Items (games or matches) of every run in the folder."""
        return sum(unit_items(u) for u in self.units)

    def kept_items(self) -> int:
        """Items (games or matches) already recorded in the folder."""
        return sum(UnitStore(self, i, u).kept() for i, u in enumerate(self.units))

    # -- while running

    def begin(self) -> None:
        """Create the folder, take its lock and write the manifest (with the command line
        that `uno-sim resume` repeats, when run from the command line)."""
        import fcntl

        self.path.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise CheckpointError(f"--checkpoint {str(self.path)!r} is in use by another uno-sim run") from None
        self.lock_fd = fd
        remove_stale_temp_files(self.path)
        manifest = {"format": FORMAT, **self.identity, "command": self.command, "units": self.units}
        if self.argv is not None:
            manifest["argv"] = list(self.argv)
            manifest["cwd"] = os.getcwd()
        else:
            previous = self.path / MANIFEST
            if previous.exists():
                old = json.loads(previous.read_text(encoding="utf-8"))
                manifest.update({k: old[k] for k in ("argv", "cwd") if k in old})
        self.resumable = "argv" in manifest
        durable_write(self.path / MANIFEST, json.dumps(manifest, indent=1).encode("utf-8"))
        self.stores = [UnitStore(self, i, u) for i, u in enumerate(self.units)]

    def end(self) -> None:
        if self.lock_fd is not None:
            os.close(self.lock_fd)
            self.lock_fd = None

    def store(self, index: int) -> "UnitStore":
        return self.stores[index]

    def resume_hint(self, kept: int) -> str:
        what = self.units[0]["kind"] if self.units else "games"
        how = (f"`uno-sim resume {shlex.quote(str(self.path))}` continues" if self.resumable
               else "the same call with this checkpoint continues")
        return f"{kept:,} {what} are kept in the checkpoint {self.path}: {how}"


class UnitStore:
    """One run's chunks in a checkpoint folder."""

    def __init__(self, checkpoint: Checkpoint, index: int, params: dict[str, Any]) -> None:
        self.checkpoint = checkpoint
        self.folder = checkpoint.path / f"unit-{index:04d}"
        self.total = int(params[params["kind"]])
        self.weight = unit_items(params) // max(self.total, 1)
        self.chunk = int(params["chunk"])
        self.plan = {(first, min(self.chunk, self.total - first)) for first in range(0, self.total, self.chunk)}
        self._recorded: set[tuple[int, int]] = set()

    def _chunk_files(self) -> dict[tuple[int, int], Path]:
        found = {}
        if self.folder.is_dir():
            for p in self.folder.iterdir():
                m = CHUNK_FILE.match(p.name)
                if m and (int(m[1]), int(m[2])) in self.plan:
                    found[(int(m[1]), int(m[2]))] = p
        return found

    def kept(self) -> int:
        """Items recorded (by file names; a damaged file is found, and played again, on restore),
        every variant's games of a paired unit counted."""
        if (self.folder / TOTAL_FILE).exists():
            return self.total * self.weight
        return sum(n for _, n in self._chunk_files()) * self.weight

    def recorded(self) -> set[tuple[int, int]]:
        return self._recorded

    def _load(self, path: Path, template, n: int):
        try:
            with np.load(path, allow_pickle=False) as data:
                agg = from_arrays(template, {k: data[k] for k in data.files})
        except Exception:  # a damaged file (a disk fault): play its chunk again
            return None
        return agg if _items(agg) == n else None

    def restore(self, work) -> list[tuple[int, int, Any]]:
        """(first, n, aggregate) of every recorded chunk, in order: all of them in one piece
        once the run was complete."""
        self.folder.mkdir(parents=True, exist_ok=True)
        remove_stale_temp_files(self.folder)  # a write cut short by SIGKILL
        total = self.folder / TOTAL_FILE
        if total.exists():
            agg = self._load(total, work.empty(), self.total)
            if agg is not None:
                self._recorded = set(self.plan)
                return [(0, self.total, agg)]
        out = []
        for (first, n), path in sorted(self._chunk_files().items()):
            agg = self._load(path, work.empty(), n)
            if agg is not None:
                out.append((first, n, agg))
                self._recorded.add((first, n))
        return out

    def save(self, first: int, n: int, agg) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        durable_write(self.folder / f"chunk-{first:015d}-{n}.npz", _npz_bytes(to_arrays(agg)))
        self._recorded.add((first, n))

    def complete(self, merged) -> None:
        """The run is whole: keep its aggregate in one file, drop the chunk files."""
        if not (self.folder / TOTAL_FILE).exists():
            durable_write(self.folder / TOTAL_FILE, _npz_bytes(to_arrays(merged)))
        for path in self._chunk_files().values():
            path.unlink(missing_ok=True)
