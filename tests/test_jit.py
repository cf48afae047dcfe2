"""How the engine's functions are compiled: those with declared signatures (jit.njit_typed) not
at import and not at a warm start, and, with a cold cache, once each with their signature for
each type of game pointer; a two-sided deck's games by kernels of their own (sides.two_sided)."""

import json
import os
import subprocess
import sys
import textwrap

import pytest


def _python(code: str, **env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=os.environ | env, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_warm_start_loads_none_of_the_declared_functions():
    from uno_sim.running.warmup import warm_up

    warm_up("games")  # the cache now holds the kernel
    seen = _python("""
        import json
        from uno_sim.running.warmup import warm_up
        from uno_sim.engine import jit
        warm_up("games")
        print(json.dumps({"declared": len(jit.DECLARED),
                          "loaded": sum(len(d.signatures) for d, _ in jit.DECLARED)}))
    """)
    assert seen["declared"] >= 30
    assert seen["loaded"] == 0


@pytest.mark.slow
def test_with_a_cold_cache_each_declared_function_compiles_once_per_game_pointer_type(tmp_path):
    # A new function that passes constants of several kinds to declared functions: each is
    # compiled once with its declared argument types, and once more only for the other type
    # of game pointer (a two-sided game's).
    seen = _python("""
        import json
        import numpy as np
        from numba import njit
        from uno_sim.engine import sumsets
        from uno_sim.engine.state import N_GAME
        from uno_sim.engine.unowned import unowned, unowned_two_sided

        @njit
        def caller(a):
            one, two = unowned(a), unowned_two_sided(a)
            return (sumsets.sums_mask(1, 2, 3) + sumsets.sums_mask(True, 2, 3) + sumsets.collect(one, 0, 5)
                    + sumsets.collect(one, 1, True) + sumsets.collect(two, 0, 5))

        caller(np.zeros(N_GAME, dtype=np.int64))
        print(json.dumps({"sums_mask": [str(s) for s in sumsets.sums_mask.signatures],
                          "collect": [str(s) for s in sumsets.collect.signatures]}))
    """, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    assert seen["sums_mask"] == ["(int64, int64, int64)"]
    assert seen["collect"] == ["(int64*, int64, int64)", "(two-sided int64*, int64, int64)"]


def test_two_sidedness_is_the_game_pointers_type_not_the_flag_in_the_game():
    # sides.two_sided is a constant of the pointer's type in compiled code (so one-sided kernels
    # carry no two-sided code); only an array (Python) reads the flag.
    import numpy as np
    from numba import njit

    from uno_sim.engine.sides import two_sided
    from uno_sim.engine.state import N_GAME, O_TWO_SIDED
    from uno_sim.engine.unowned import keep_alive, unowned, unowned_like, unowned_two_sided

    @njit
    def both(a, scratch):
        one, two = unowned(a), unowned_two_sided(a)
        result = (two_sided(one), two_sided(two), two_sided(unowned_like(one, scratch)),
                  two_sided(unowned_like(two, scratch)))
        keep_alive(a)
        keep_alive(scratch)
        return result

    game, scratch = np.zeros(N_GAME, dtype=np.int64), np.zeros(N_GAME, dtype=np.int64)
    for flag in (0, 1):
        game[O_TWO_SIDED] = flag
        assert both(game, scratch) == (False, True, False, True)
        assert two_sided(game) == bool(flag)


def test_a_two_sided_deck_is_played_by_the_two_sided_kernels_only():
    seen = _python("""
        import json
        from uno_sim.engine import batch
        from uno_sim.game.bots import pack_bots, parse_bots
        from uno_sim.game.decks import FLIP
        from uno_sim.game.rules import Rules
        from uno_sim.running.warmup import kernel_kind

        rules = Rules().with_deck(FLIP)
        codes, params = pack_bots(parse_bots(None, rules.players))
        records = batch.run_chunk(rules.pack(), codes, params, batch.run_key(1), 0, 50, deck=FLIP)
        print(json.dumps({"one-sided": len(batch._play_games.signatures),
                          "classic": len(batch._play_games_classic.signatures),
                          "two-sided": len(batch._play_games_two_sided.signatures),
                          "kind": kernel_kind(codes, FLIP), "games": len(records)}))
    """)
    assert seen == {"one-sided": 0, "classic": 0, "two-sided": 1, "kind": "two-sided games", "games": 50}


def test_each_deck_family_is_played_by_its_own_kernel_only():
    """A deck of the classic shape by the classic kernel, another one-sided deck by the kernel
    reading the face table (engine/access.py, deck_family)."""
    seen = _python("""
        import json
        from uno_sim.engine import batch
        from uno_sim.game.bots import pack_bots, parse_bots
        from uno_sim.game.decks import CLASSIC, NO_MERCY
        from uno_sim.game.rules import Rules
        from uno_sim.running.warmup import kernel_kind

        counts = {}
        for deck in (CLASSIC, NO_MERCY):
            rules = Rules().with_deck(deck)
            codes, params = pack_bots(parse_bots(None, rules.players))
            batch.run_chunk(rules.pack(), codes, params, batch.run_key(1), 0, 20, deck=deck)
            counts[deck.name] = [len(batch._play_games_classic.signatures), len(batch._play_games.signatures),
                                 kernel_kind(codes, deck)]
        print(json.dumps(counts))
    """)
    assert seen == {"classic": [1, 0, "games"], "no-mercy": [1, 1, "other-deck games"]}
