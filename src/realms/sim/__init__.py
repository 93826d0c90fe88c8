"""Many games at once: running games with bots and summarising them."""
