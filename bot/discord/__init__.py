"""The discord.py layer: client, slash commands, buttons, rendering and delivery."""
