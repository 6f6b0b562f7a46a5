"""Analyses the safety passes share (facts about index values)."""
