"""Tunnels: a d6 pool system in the spirit of Tunnels & Trolls (rules T-1 to T-13)."""
