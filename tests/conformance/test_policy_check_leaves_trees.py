"""RestrictedPython's check leaves every conformance program's tree as it was.

`check_restricted` runs before `compile()` on the very tree that is compiled, so it must not
rewrite it (RestrictedPython's own transformer would add guard calls). The conformance
programs are the widest corpus of generated code we have.
"""

from __future__ import annotations

import ast

from suite import load_programs

from ptc_compiler import api
from ptc_compiler.lower import lower
from ptc_compiler.lower.check import check_restricted
from ptc_runtime.errors import PtcError


def test_conformance_programs_are_checked_without_rewriting() -> None:
    checked = 0
    for case in load_programs():
        try:
            program = api.compile(case.source)
        except PtcError:  # programs that must fail to compile are not this test's subject
            continue
        module = lower(program.ir).module
        before = ast.dump(module, include_attributes=True)
        check_restricted(module)
        assert ast.dump(module, include_attributes=True) == before, case.id
        checked += 1
    assert checked > 500
