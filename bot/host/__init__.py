"""The game host: tables, lobby, arrival-order actions, persistence, timers."""
