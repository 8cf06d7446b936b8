"""cascadia.bots"""
