"""The rules of Cascadia: components, hex grid, seeded draws, the Game aggregate."""
