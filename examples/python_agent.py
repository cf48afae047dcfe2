"""Your own agent against uno-sim's bots, evaluated with uno-sim's own statistics.

Run it as a script (`python examples/python_agent.py`) or cell by cell in a notebook. It seats
a hand-written policy ("dump points": play the legal card worth the most points, name the
colour you hold most), which reads its cards by their text through uno_sim.env.View, at seat 0
of a 4-player table in the Gymnasium environment, the other seats played by the compiled
`random` bot, and compares its win rate with that of
uno_sim.env.RandomBot (the `random` bot's own choices) in the same deals. Needs the extra
`uno-sim[rl]`.
"""

# %% the policy: the question by card texts and colour letters in, one action's name out
import uno_sim.env as env
from uno_sim.stats.intervals import newcombe_interval, wilson_interval


def dump_points(view: env.View) -> str:
    """Play the legal card worth the most points; name the colour held most."""
    if view.question in ("turn", "answer"):
        cards = [name for name in view.legal if view.is_card(name)]  # e.g. ["R5", "W4"]; "no" draws
        return max(cards, key=view.points) if cards else "no"
    if view.question in ("color", "roulette_color"):
        held = [view.color_of(card) for card in view.hand]  # "R", "Y", "G", "B" (dark: P T O V); None: a wild
        return max(view.colors, key=held.count)  # the four colours of the side in play
    if view.question == "play_drawn":
        return "yes"
    return "no" if "no" in view.legal else view.legal[0]  # no challenge, jump, swap or extra card


def policy(observation, legal_actions) -> int:
    """dump_points as the command line seats it: `--bots python:examples/python_agent.py:policy`
    calls it with the observation and the legal actions; View names them by the classic deck's
    cards (give View rules=... for a rule set with another deck)."""
    view = env.View(observation, legal_actions)
    return view.action(dump_points(view))


# %% play: the same deals for both policies (reset(seed=...) then game after game)
def wins(policy, games: int = 5000, seed: int = 1) -> int:
    gym = env.gym_env(rules="standard", players=4, opponents="random", seat=0)
    won = 0
    obs, info = gym.reset(seed=seed)
    for game in range(games):
        if game:
            obs, info = gym.reset()
        done = False
        while not done:
            obs, reward, terminated, truncated, info = gym.step(policy(obs, info["action_mask"]))
            done = terminated or truncated
        won += reward > 0
    return won


# %% the win rates with 95% intervals, and the difference
if __name__ == "__main__":
    n = 5000
    ours, baseline = wins(policy, n), wins(env.RandomBot(seed=0), n)
    for name, k in (("dump points", ours), ("random", baseline)):
        lo, hi = wilson_interval(k, n)
        print(f"{name:12s} wins {k / n:.1%} of {n} games at seat 0 (95% CI {lo:.1%} to {hi:.1%})")
    lo, hi = newcombe_interval(baseline, n, ours, n)  # ours - baseline; as independent samples (conservative for the same deals)
    verdict = "significant" if lo > 0 or hi < 0 else "not significant"
    print(f"difference {(ours - baseline) / n:+.1%} (95% CI {lo:+.1%} to {hi:+.1%}; {verdict} at 5%)")
