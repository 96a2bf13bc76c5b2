"""The rules of the table games: cards, deck specs, evaluators, round machines.

Nothing here does I/O, and nothing here imports the rest of the project
(DESIGN.md, import rule), so every rule can be tested on its own.
"""
