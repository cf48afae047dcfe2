"""The bots: every decision a seat takes, dispatched on its bot code (docs/BOTS.md)."""
