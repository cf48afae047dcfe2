"""Profile the compiled engine with Linux perf, by function name.

numba's compiled code has no symbols that perf can read, so a profile of a run shows one
anonymous `[JIT]` blob. This script loads the engine's kernel from numba's cache, writes
/tmp/perf-<pid>.map (perf's map format: start, size, name of every compiled function of
the engine), then plays games in one thread. perf reads the map when it reports:

    perf record -F 1999 -o perf.data python tools/perf_kernel.py house random 400000
    perf report -i perf.data --stdio --sort sym

Arguments: a preset (or rule file), the bots (as for --bots), the number of games. The
sizes in the map run from one function to the next, which is what perf needs to attribute a
sample. A development tool: nothing in uno_sim imports it.
"""

import os
import sys

from numba.core import codegen

_loaded = {}  # id -> code library of every compiled function loaded from the cache
_getbuffer = codegen.CPUCodeLibrary._object_getbuffer_hook.__func__


def _keep_library(cls, ll_module):
    """numba's hook that hands the cached object code to LLVM; also note its library."""
    buf = _getbuffer(cls, ll_module)
    library = getattr(ll_module, "_CPUCodeLibrary__library", None)
    if buf and library is not None:
        _loaded[id(library)] = library
    return buf


codegen.CPUCodeLibrary._object_getbuffer_hook = classmethod(_keep_library)


def function_addresses() -> list[tuple[int, str]]:
    """(address, symbol) of every function defined by the loaded engine libraries."""
    out = set()
    for library in _loaded.values():
        module = getattr(library, "_shared_module", None)
        for function in (module.functions if module is not None else []):
            if function.is_declaration:
                continue
            try:
                address = library.get_pointer_to_function(function.name)
            except Exception:  # not emitted into this library's object code
                continue
            if address:
                out.add((address, function.name))
    return sorted(out)


def write_perf_map(path: str) -> int:
    """perf's map file for this process; returns the number of functions in it."""
    entries = function_addresses()
    with open(path, "w") as fh:
        for i, (address, name) in enumerate(entries):
            size = entries[i + 1][0] - address if i + 1 < len(entries) else 4096
            fh.write(f"{address:x} {min(size, 1 << 20):x} {name}\n")
    return len(entries)


def main(argv: list[str]) -> None:
    from uno_sim.api import load_rules
    from uno_sim.game.bots import pack_bots, parse_bots
    from uno_sim.engine.batch import run_chunk
    from uno_sim.engine.keys import run_key

    preset, bots, games = argv[0], argv[1], int(argv[2])
    _, rules = load_rules(preset)
    codes, params = pack_bots(parse_bots(bots, rules.players))
    packed, key = rules.pack(), run_key(0)
    run_chunk(packed, codes, params, key, 0, 64, workers=1)  # compile or load the kernel
    path = f"/tmp/perf-{os.getpid()}.map"
    count = write_perf_map(path)
    print(f"{count} compiled functions mapped in {path}", file=sys.stderr)
    run_chunk(packed, codes, params, key, 0, games, workers=1)


if __name__ == "__main__":
    main(sys.argv[1:])
