"""cascadia.cli"""
