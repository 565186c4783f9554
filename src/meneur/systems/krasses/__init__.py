"""Krâsses: a d20 system (rules K-1 to K-7): d20 + bonus against a difficulty ladder."""
