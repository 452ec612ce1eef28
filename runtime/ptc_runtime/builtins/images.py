"""Image values (`ptc_runtime.images`): what a program can do with an image a tool
returned: test for one, read its path and size, and show it (an output entry)."""

from __future__ import annotations

from ptc_runtime.builtins.registry import BuiltinSpec, declare
from ptc_runtime.collections import kind_name
from ptc_runtime.context import current
from ptc_runtime.errors import PtcError
from ptc_runtime.images import PtcImage
from ptc_runtime.values import keyword

DECLS: list[BuiltinSpec] = []


def _image(who: str, x: object) -> PtcImage:
    if type(x) is not PtcImage:
        raise PtcError("type_error", f"{who}: expected an image, got {kind_name(x)}")
    return x


@declare(DECLS, "image?", arities=(1,), doc="True if x is an image a tool returned.")
def is_image(x: object) -> bool:
    return type(x) is PtcImage


@declare(
    DECLS,
    "image-info",
    arities=(1,),
    doc="The image's {:path :width :height :id :media-type} (path in the execution world).",
)
def image_info(x: object) -> dict[object, object]:
    img = _image("image-info", x)
    a = img.attachment
    return {
        keyword("path"): img.path,
        keyword("width"): a.width,
        keyword("height"): a.height,
        keyword("id"): a.id,
        keyword("media-type"): a.media_type,
    }


@declare(
    DECLS,
    "inspect",
    arities=(1,),
    pure=False,
    doc="Show the image: append it to the run's output, in order with printed text.",
)
def inspect(x: object) -> None:
    current().emit(_image("inspect", x))
