"""The simulated table: devices that speak the drivers' wire protocols, a
physical card model, and a dealer who plays only by following prompts.

hw_sim may import drivers (codecs) and games (deck specs) but never the
controller (DESIGN.md, import rule).
"""
