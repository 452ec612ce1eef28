"""Runtime helpers that exist only for the optimiser's rewrites (`ptc_compiler.optimize`).

Generated code calls them when a rule has matched; the general builtins never import
this package (`tests/test_fast_package.py` checks it), so with the optimiser off
(`compile(..., optimize=False)`) none of it runs and every builtin keeps its own meaning.
"""
