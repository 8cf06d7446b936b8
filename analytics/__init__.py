"""cascadia.analytics"""
