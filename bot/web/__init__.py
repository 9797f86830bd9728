"""Game pages: watch a game live as a spectator, replay it move by move afterwards.

Off unless ``WEB_PORT`` is set. ``server`` holds the aiohttp app, ``replays`` rebuilds positions
from seed + log (public views only), ``links`` gives the Discord side its URLs.
"""
