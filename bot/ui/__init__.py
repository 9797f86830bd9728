"""Presenters: engine views and events → message specs. Pure; they never change state."""
