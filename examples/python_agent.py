"""Your own agent against uno-sim's bots, evaluated with uno-sim's own statistics.

Run it as a script (`python examples/python_agent.py`) or cell by cell in a notebook. It seats
a hand-written policy ("dump points": play the legal card worth the most points, name the
colour you hold most) at seat 0 of a 4-player table in the Gymnasium environment, the other
seats played by the compiled `random` bot, and compares its win rate with that of
uno_sim.env.RandomBot (the `random` bot's own choices) in the same deals. Needs the extra
`uno-sim[rl]`.
"""

# %% the policy: observation and legal-action mask in, one action out
import numpy as np

import uno_sim.env as env
from uno_sim.engine.layout import OB_HAND, OB_QUESTION
from uno_sim.game.cards import FACE_TEXTS
from uno_sim.game.decks import CLASSIC
from uno_sim.stats.intervals import newcombe_interval, wilson_interval

POINTS = np.zeros(env.N_ACTIONS)
faces = CLASSIC.faces(0)  # the classic deck's face table: points of every face
POINTS[: faces.n_faces] = faces.points
COLOR_OF = np.full(env.N_ACTIONS, -1)
COLOR_OF[: faces.n_faces] = faces.color


def dump_points(observation: np.ndarray, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    question = env.QUESTIONS[int(observation[OB_QUESTION])]
    if question in ("turn", "answer"):
        cards = legal[legal < env.A_COLOR]
        if len(cards):
            return int(cards[np.argmax(POINTS[cards])])  # the most points leave the hand
        return env.A_NO
    if question in ("color", "roulette_color"):
        hand = observation[OB_HAND : OB_HAND + len(FACE_TEXTS)]
        held = [hand[COLOR_OF[: len(FACE_TEXTS)] == c].sum() for c in range(4)]
        return env.A_COLOR + int(np.argmax(held))
    if question == "play_drawn":
        return env.A_YES
    return int(legal[0]) if env.A_NO not in legal else env.A_NO  # no challenge, jump, swap or extra card


def policy(observation: np.ndarray, legal_actions: list[int]) -> int:
    """dump_points as the command line seats it: `--bots python:examples/python_agent.py:policy`
    calls it with the legal actions as a list."""
    mask = np.zeros(env.N_ACTIONS, dtype=bool)
    mask[legal_actions] = True
    return dump_points(observation, mask)


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
            obs, reward, terminated, truncated, info = gym.step(policy(obs, info["action_mask"].astype(bool)))
            done = terminated or truncated
        won += reward > 0
    return won


# %% the win rates with 95% intervals, and the difference
if __name__ == "__main__":
    n = 5000
    ours, baseline = wins(dump_points, n), wins(env.RandomBot(seed=0), n)
    for name, k in (("dump points", ours), ("random", baseline)):
        lo, hi = wilson_interval(k, n)
        print(f"{name:12s} wins {k / n:.1%} of {n} games at seat 0 (95% CI {lo:.1%} to {hi:.1%})")
    lo, hi = newcombe_interval(baseline, n, ours, n)  # ours - baseline; as independent samples (conservative for the same deals)
    verdict = "significant" if lo > 0 or hi < 0 else "not significant"
    print(f"difference {(ours - baseline) / n:+.1%} (95% CI {lo:+.1%} to {hi:+.1%}; {verdict} at 5%)")
