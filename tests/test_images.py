"""Image output entries: a tool returns a `PtcImage`, the program sees an image value
and `(inspect img)` puts an image entry in `RunResult.output`, in emission order with
the text, in both modes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from ptc_compiler import api
from ptc_runtime.bindings import BindingNamespace
from ptc_runtime.images import ImageAttachment, OutputImage, PtcImage
from ptc_runtime.limits import Limits
from ptc_runtime.seam import OutputText, RunRequest, RunResult, Runtime

SHOT = PtcImage("/srv/shots/a.png", ImageAttachment("att-1", 640, 480))
OTHER = PtcImage("/srv/shots/b.jpg", ImageAttachment("att-2", 10, 20, "image/jpeg"))


def _shots(args: Any) -> Any:
    return OTHER if args.get("n") == 2 else SHOT


TOOLS = (
    BindingNamespace(
        "tool", {"shot": _shots, "nested": lambda a: [SHOT], "mapped": lambda a: {"i": SHOT}}
    ),
)


@pytest.fixture(scope="module", params=["in-process", "isolated"])
def runtime(request: pytest.FixtureRequest) -> Iterator[Runtime]:
    rt = api.runtime(request.param, pool_size=1)
    yield rt
    rt.close()


def _run(rt: Runtime, program: str) -> RunResult:
    return rt.run(rt.resolve(RunRequest(program, bindings=TOOLS, timeout_ms=10_000)))


def test_images_appear_in_emission_order(runtime: Runtime) -> None:
    r = _run(
        runtime,
        "(let [a (tool/shot {}) b (tool/shot {:n 2})]"
        ' (println "first") (inspect a) (println "mid") (inspect b) (inspect a) (println "!") 1)',
    )
    assert r.error is None, r.error
    assert r.output == (
        OutputText("first\n"),
        OutputImage(SHOT.attachment),
        OutputText("mid\n"),
        OutputImage(OTHER.attachment),
        OutputImage(SHOT.attachment),
        OutputText("!\n"),
    )
    assert r.text == "first\nmid\n!\n"
    assert [o.type for o in r.output] == ["text", "image", "text", "image", "image", "text"]


def test_the_program_sees_path_and_dimensions(runtime: Runtime) -> None:
    r = _run(
        runtime, "(let [i (tool/shot {:n 2})] [(image? i) (image? {}) (image-info i) (str i)])"
    )
    assert r.error is None, r.error
    assert r.value == [
        True,
        False,
        {
            "path": "/srv/shots/b.jpg",
            "width": 10,
            "height": 20,
            "id": "att-2",
            "media-type": "image/jpeg",
        },
        "#image[10x20 /srv/shots/b.jpg]",
    ]


def test_an_image_is_not_a_completion_value(runtime: Runtime) -> None:
    r = _run(runtime, "(tool/shot {})")
    assert r.error is not None and r.error.kind == "invalid-output", r.error


@pytest.mark.parametrize("member", ["nested", "mapped"])
def test_an_image_inside_other_data_is_refused(runtime: Runtime, member: str) -> None:
    r = _run(runtime, f"(tool/{member} {{}})")
    assert r.error is not None and r.error.code == "tool_error", r.error
    assert r.output == ()


def test_inspect_takes_an_image_only(runtime: Runtime) -> None:
    r = _run(runtime, '(inspect "/etc/passwd")')
    assert r.error is not None and r.error.code == "type_error", r.error


def test_image_entries_count_against_the_output_budget() -> None:
    for mode in ("in-process", "isolated"):
        rt = api.runtime(mode, limits=Limits(max_output_bytes=1000), pool_size=1)
        try:
            r = _run(rt, "(let [i (tool/shot {})] (doseq [_ (range 100)] (inspect i)) 1)")
        finally:
            rt.close()
        assert r.error is not None and r.error.kind == "output-limit", (mode, r.error)


@pytest.mark.parametrize(
    "make",
    [
        lambda: PtcImage("relative.png", ImageAttachment("a", 1, 1)),
        lambda: PtcImage("/a\x00b", ImageAttachment("a", 1, 1)),
        lambda: PtcImage("", ImageAttachment("a", 1, 1)),
        lambda: PtcImage("/a.png", {"id": "a"}),  # type: ignore[arg-type]
        lambda: ImageAttachment("a", 0, 1),
        lambda: ImageAttachment("a", 1, 10**7),
        lambda: ImageAttachment("a", True, 1),  # type: ignore[arg-type]
        lambda: ImageAttachment("", 1, 1),
        lambda: ImageAttachment("a", 1, 1, "text/html"),
    ],
)
def test_malformed_descriptors_are_refused_at_construction(make: Any) -> None:
    with pytest.raises(ValueError):
        make()
