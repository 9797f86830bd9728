"""Running the bot for operators: metrics, health checks, a graceful stop."""
