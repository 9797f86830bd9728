"""Board pictures (Pillow): pure functions from a public view to PNG bytes.

No discord, database or asyncio here: the caller runs a renderer in a worker thread and caches
the bytes by the renderer's fingerprint.
"""
