"""Image builtins (`image?`, `image-info`, `inspect`) called directly; the end-to-end
cases in both modes are in tests/test_images.py."""

from __future__ import annotations

import pytest

from ptc_runtime import context
from ptc_runtime.builtins import BUILTINS
from ptc_runtime.errors import LimitExceeded, PtcError
from ptc_runtime.images import ImageAttachment, PtcImage
from ptc_runtime.values import keyword

IMG = PtcImage("/img/a.png", ImageAttachment("a1", 3, 4))

# program forms exercised in tests/test_images.py: (image? x) (image-info x) (inspect x)


def test_image_predicate() -> None:
    assert BUILTINS["image?"].fn(IMG) is True
    assert BUILTINS["image?"].fn({"path": "/img/a.png"}) is False


def test_image_info() -> None:
    info = BUILTINS["image-info"].fn(IMG)
    assert info[keyword("path")] == "/img/a.png"
    assert (info[keyword("width")], info[keyword("height")]) == (3, 4)
    with pytest.raises(PtcError) as e:
        BUILTINS["image-info"].fn("x")
    assert e.value.code == "type_error" and "expected an image, got string" in e.value.message


def test_inspect_emits_within_the_output_budget() -> None:
    ctx = context.RunContext(max_output_bytes=200)
    token = context.install(ctx)
    try:
        BUILTINS["inspect"].fn(IMG)
        assert ctx.output == [IMG]
        with pytest.raises(LimitExceeded):
            for _ in range(10):
                BUILTINS["inspect"].fn(IMG)
    finally:
        context.uninstall(token)
