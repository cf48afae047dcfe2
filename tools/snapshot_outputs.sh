#!/usr/bin/env bash
# Every output file of a fixed set of commands, into DIR: run a checkout before and after a
# change that must not change behaviour, then compare with
#   diff -r --exclude='*.html' --exclude='*.png' BEFORE AFTER
# or, when the later outputs may only add metrics, columns or trace fields,
#   python tools/compare_snapshots.py BEFORE AFTER
# (report.html carries the version and timings; the charts are checked by eye).
# Usage: tools/snapshot_outputs.sh DIR [UNO_SIM_COMMAND]
set -euo pipefail
dir=${1:?usage: tools/snapshot_outputs.sh DIR [uno-sim command]}
uno=${2:-.venv/bin/uno-sim}
mkdir -p "$dir"
presets=$($uno presets | awk 'NR>0 {print $1}' | grep -E '^[a-z0-9-]+$')
for p in $presets; do
  $uno run "$p" --games 1000000 --seed 7 --out "$dir/run-$p" --force >/dev/null
  $uno run "$p" --games 50000 --seed 3 --per-game --out "$dir/games-$p" --force >/dev/null
  $uno trace "$p" --games 3 --seed 5 > "$dir/trace-$p.jsonl"
done
$uno run house --games 200000 --seed 1 --bots greedy,expert,bluffer,random --rotate-seats --out "$dir/bots-house" --force >/dev/null
$uno run standard --games 2000 --seed 1 --bots search:rollouts=50,expert,random,greedy --out "$dir/search" --force >/dev/null
$uno trace house --games 2 --seed 9 --bots expert,bluffer,greedy,random > "$dir/trace-bots.jsonl"
$uno compare stacking nostacking --games 200000 --skill --out "$dir/compare" --force >/dev/null
$uno compare standard house jump-in --games 100000 --seed 2 --per-game --out "$dir/compare3" --force >/dev/null
$uno sweep standard --vary players=2..4 --vary jump_in=false,true --games 30000 --skill --out "$dir/sweep" --force >/dev/null
$uno sweep standard --vary hand_size=5,7 --games 30000 --out "$dir/sweep1" --force >/dev/null
$uno match standard --matches 3000 --seed 4 --out "$dir/match" --force >/dev/null
$uno match teams --matches 2000 --seed 4 --bots expert,random,random,random --rotate-seats --out "$dir/match-teams" --force >/dev/null
$uno match chips --matches 2000 --out "$dir/match-chips" --force >/dev/null
$uno tournament --bots random,greedy,expert --presets standard,house --deals 2000 --out "$dir/tournament" --force >/dev/null
$uno run standard --games 100000 --seed 11 --json --out "$dir/json-run" --force 2>/dev/null \
  | grep -v -E 'seconds|per_second' | sed "s#$dir/##" > "$dir/run.json"
echo "snapshot written to $dir"
