"""Contracts at run time: signature types, their compiled validators, boundary normalisation.

The compiler parses signature *text* (`ptc_compiler.signatures`); what a running program
needs — the types, validation of both sides of a call, key normalisation at the public
boundary — lives here, so compiled code and isolated workers need the runtime alone. A
compiled program carries its contracts as plain data (`data.to_data` / `data.from_data`).
"""
