"""Légendes: a narrative system of legendary heroes, d6 sums against opposition levels."""
