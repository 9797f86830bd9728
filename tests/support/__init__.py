"""Test helpers: a tiny bot for the emulator tests."""
