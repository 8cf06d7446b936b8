"""cascadia.projections"""
