"""Command modules: each defines ``register(app)`` that adds its commands to a typer app."""
