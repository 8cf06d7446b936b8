"""cascadia.replays"""
