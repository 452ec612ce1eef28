"""Image descriptors: a stored image a host tool hands to a program (run contract:
`PtcImage`, and `{type: 'image', attachment}` output entries).

A tool returns a `PtcImage(path, attachment)`: the absolute path of the image file in
the execution world and an `ImageAttachment` (the host's reference to the stored image
and its pixel dimensions). The program receives it as an opaque image value (`image?`,
`image-info` gives `{:path :width :height :id :media-type}`), and `(inspect img)` appends
an image entry to the run's output, in emission order with the text. Nothing reads the
file: the descriptor is data the host issued, checked for shape and size here.

The completion value may not hold an image (it is not lossless JSON: `invalid-output`).
A tool result that is an image is the whole result; images inside other data are refused
like any other non-JSON value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal

#: Longest `path` and `id`, in characters.
MAX_PATH_CHARS: Final = 4096
MAX_ID_CHARS: Final = 256
#: Largest width or height, in pixels.
MAX_DIMENSION: Final = 1_000_000
_MEDIA: Final = re.compile(r"^image/[a-z0-9.+-]{1,64}$")


def _text(value: object, what: str, cap: int) -> str:
    if type(value) is not str or not value:
        raise ValueError(f"{what} must be a non-empty string")
    if len(value) > cap:
        raise ValueError(f"{what} is longer than {cap} characters")
    if "\x00" in value or any("\ud800" <= c <= "\udfff" for c in value):
        raise ValueError(f"{what} holds a NUL or a lone surrogate")
    return value


@dataclass(frozen=True, slots=True)
class ImageAttachment:
    """The host's reference to one stored, immutable image and its pixel size."""

    id: str
    width: int
    height: int
    media_type: str = "image/png"

    def __post_init__(self) -> None:
        _text(self.id, "image attachment id", MAX_ID_CHARS)
        for name in ("width", "height"):
            v = getattr(self, name)
            if type(v) is not int or not 0 < v <= MAX_DIMENSION:
                raise ValueError(f"image {name} must be an integer in 1..{MAX_DIMENSION}")
        if type(self.media_type) is not str or not _MEDIA.match(self.media_type):
            raise ValueError("image media_type must look like image/png")

    def to_json(self) -> dict[str, Any]:
        """The attachment as plain JSON (output entries, the worker protocol)."""
        return {
            "id": self.id,
            "width": self.width,
            "height": self.height,
            "media_type": self.media_type,
        }


@dataclass(frozen=True, slots=True)
class PtcImage:
    """A stored image readable in the execution world, returned by a host tool."""

    #: the kind a program sees (`type`, messages): an image value
    java_class: ClassVar[str] = "Image"

    path: str
    attachment: ImageAttachment

    def __post_init__(self) -> None:
        _text(self.path, "image path", MAX_PATH_CHARS)
        if not self.path.startswith("/"):
            raise ValueError("image path must be absolute")
        if not isinstance(self.attachment, ImageAttachment):
            raise ValueError("image attachment must be an ImageAttachment")

    def __repr__(self) -> str:
        a = self.attachment
        return f"#image[{a.width}x{a.height} {self.path[:200]}]"

    def to_json(self) -> dict[str, Any]:
        """The descriptor as plain JSON (the worker protocol)."""
        return {"path": self.path, "attachment": self.attachment.to_json()}

    @classmethod
    def from_json(cls, body: object) -> PtcImage:
        """A descriptor from `to_json` output; ValueError when malformed."""
        if type(body) is not dict or set(body) != {"path", "attachment"}:
            raise ValueError("a malformed image descriptor")
        return cls(body["path"], attachment_from_json(body["attachment"]))


@dataclass(frozen=True, slots=True)
class OutputImage:
    """An image entry of `RunResult.output` (`type` is `"image"`)."""

    attachment: ImageAttachment
    type: Literal["image"] = "image"

    @property
    def text(self) -> str:
        """Images hold no text: `RunResult.text` joins the text entries only."""
        return ""


def output_wire(raw: list[Any]) -> list[Any]:
    """Captured output as worker-protocol JSON: text as is, an image as `{"image": ...}`."""
    return [t if type(t) is str else {"image": t.attachment.to_json()} for t in raw]


def attachment_from_json(body: object) -> ImageAttachment:
    """An attachment from `ImageAttachment.to_json` output; ValueError when malformed."""
    if type(body) is not dict or set(body) != {"id", "width", "height", "media_type"}:
        raise ValueError("a malformed image attachment")
    return ImageAttachment(body["id"], body["width"], body["height"], body["media_type"])


def entry_bytes(image: PtcImage) -> int:
    """Bytes an image entry counts against the run's output budget."""
    a = image.attachment
    return 64 + len(a.id.encode("utf-8")) + len(a.media_type)
