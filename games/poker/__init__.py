"""Poker hands shared by the games that rank them (7 Card Thrill now; the poker room next)."""
