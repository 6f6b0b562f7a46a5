"""Backend: Tile IR text and bytecode, tileiras, cubin cache, interpreter."""
