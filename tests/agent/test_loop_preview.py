"""agent-design §3.12 OBS-03 (the bounded structural preview) and OBS-07 (a preview failure
never changes the outcome)."""

from __future__ import annotations

import pytest
from loop_helpers import agent, call, last_content

import ptc_agent.preview as preview_module
from ptc_agent.preview import Preview, PreviewCaps, preview
from ptc_runtime.collections import PMap, PVec
from ptc_runtime.values import Keyword

WIDE = PreviewCaps(max_depth=50, max_items=10_000, max_nodes=100_000, max_string=10_000,
                   max_chars=100_000, max_bytes=400_000)


def _caps(**kw: int) -> PreviewCaps:
    return PreviewCaps(**{**WIDE.__dict__, **kw})


def test_OBS_03_small_values_are_exact() -> None:
    items: list[object] = [1, 2.5, "x", None, True]
    v = PMap.from_items([(Keyword("a"), PVec(items, len(items)))])
    p = preview(v, PreviewCaps())
    assert p == Preview('{:a [1 2.5 "x" nil true]}', ())


def test_OBS_03_depth_cap_keeps_the_outer_shape() -> None:
    deep: object = [1]
    for _ in range(10):
        deep = [deep]
    p = preview(deep, _caps(max_depth=3))
    assert p.caps_hit == ("depth",) and p.text == "[[[[...]]]]"


def test_OBS_03_collection_cap_counts_what_it_left_out() -> None:
    p = preview([list(range(50)), "tail"], _caps(max_items=3))
    assert p.caps_hit == ("collection",)
    assert p.text == '[[0 1 2 ...(+47 more)] "tail"]'  # the sibling after the cut survives


def test_OBS_03_node_cap_is_independent_of_the_item_cap() -> None:
    p = preview([[1, 2], [3, 4], [5, 6]], _caps(max_nodes=5))
    assert p.caps_hit == ("nodes",) and p.text == "[[1 2] [..."  # the sixth node is cut


def test_OBS_03_string_cap_per_string() -> None:
    p = preview(["a" * 30, "b" * 3], _caps(max_string=10, max_chars=100, default_string=False))
    assert p.caps_hit == ("string",)
    assert p.text == '["aaaaaaaaaa"...(+20 chars) "bbb"]'


def test_OBS_03_a_lone_string_is_bounded_by_the_total_ceiling_only() -> None:
    p = preview("y" * 5000, _caps(max_string=10, max_chars=100))
    assert p.caps_hit == ("chars",) and p.text.count("y") == 99  # the opening quote counts


def test_OBS_03_string_only_cut_gets_the_exact_rendering_when_it_fits() -> None:
    value = ["a" * 30, "b"]
    p = preview(value, PreviewCaps(max_string=10, max_chars=100))
    assert p == Preview('["' + "a" * 30 + '" "b"]', ())
    explicit = PreviewCaps(max_string=10, max_chars=100, default_string=False)
    assert preview(value, explicit).caps_hit == ("string",)  # an explicit cap is kept


def test_OBS_03_char_and_byte_caps_cut_on_code_points() -> None:
    p = preview(list(range(1000)), _caps(max_chars=20))
    assert p.caps_hit == ("chars",) and p.text == "[0 1 2 3 4 5 6 7 8 9"
    astral = "\U0001f600" * 10
    p = preview([astral], _caps(max_bytes=15))
    assert p.caps_hit == ("bytes",)
    assert p.text == '["' + "\U0001f600" * 3  # 2 + 3 * 4 bytes; no half character
    assert len(p.text.encode("utf-8")) <= 15


class _Bomb:
    """Rendering it raises: a preview that reached it would have walked the whole value."""

    def __call__(self) -> None:  # pragma: no cover - never called
        raise AssertionError

    def __getattr__(self, name: str) -> object:
        raise AssertionError("the preview walked past its ceiling")


def test_OBS_03_traversal_stops_at_the_ceiling_without_serialising() -> None:
    value = [*range(200_000), _Bomb()]
    p = preview(value, PreviewCaps.for_budget(2048))
    assert p.caps_hit == ("chars",) and len(p.text) == 2048
    with pytest.raises(AssertionError):
        preview([_Bomb()], PreviewCaps())  # the bomb is real: reaching it does raise


def test_OBS_03_map_keys_are_sampled_when_truncated() -> None:
    m = {f"key{i}": "v" * 100 for i in range(40)}
    p = preview(m, _caps(max_chars=200))
    assert p.caps_hit == ("chars",)
    assert p.sampled_keys[:3] == ('"key0"', '"key1"', '"key2"') and len(p.sampled_keys) == 12


def test_OBS_03_caps_are_validated() -> None:
    with pytest.raises(ValueError, match=r"PreviewCaps\.max_depth"):
        PreviewCaps(max_depth=0)


def test_OBS_03_loop_observation_reports_the_caps_and_keys() -> None:
    _, sp = agent([call('(into {} (map (fn [i] [(keyword (str "k" i)) (vec (range 50))]) '
                        '(range 200)))'), call("(return 1)")],
                  config={"max_observation_chars": 400})
    fb = last_content(sp)
    assert "The preview was truncated (" in fb
    assert "sampled keys: :k0 :k1" in fb


def test_OBS_07_preview_failure_leaves_the_outcome_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(value: object, caps: PreviewCaps | None = None) -> Preview:
        raise RuntimeError("preview exploded")

    monkeypatch.setattr(preview_module, "preview", broken)
    out, sp = agent([call("(def kept 41) (inc kept)"), call("(return [kept *1])")])
    assert "user=> #<preview unavailable>" in last_content(sp)
    assert list(out.value) == [41, 42]  # the turn committed its definition and its history
