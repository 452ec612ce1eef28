"""The bounded structural preview of an observed value (agent-design §3.5, seed 001).

The model sees a successful program's value through this preview. The traversal has
independent ceilings — depth, items per collection, nodes, characters per string, total
characters and total UTF-8 bytes — and stops as soon as the total ceilings are reached, so a
value of millions of items costs what the preview shows, never a full serialisation. Sibling
shape survives: a collection cut at its item cap says how many items it left out, a string
cut at its cap says how many characters. Functions and other executable values appear only as
inert labels (`#function[name]`).

When the shape pass hit only the per-string cap, and that cap was the default one, one
greedy pass tries the exact compact rendering: it replaces the preview only when it fits every
total ceiling (an incomplete attempt is discarded).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from ptc_runtime.host_api import EqKey, Label, PMap, PSet, PVec, pr_str

#: The cap names a preview reports, in the order they are listed.
CAP_NAMES: Final = ("depth", "collection", "nodes", "string", "chars", "bytes")
SAMPLED_KEYS: Final = 12
KEY_SAMPLE_CHARS: Final = 40


@dataclass(frozen=True)
class PreviewCaps:
    """The ceilings of one preview; `for_budget` scales them to an observation budget."""

    max_depth: int = 8
    max_items: int = 100
    max_nodes: int = 1000
    max_string: int = 500
    max_chars: int = 2048
    max_bytes: int = 8192
    #: False when the string cap was chosen by the caller: then no greedy exact pass.
    default_string: bool = True

    def __post_init__(self) -> None:
        for name in ("max_depth", "max_items", "max_nodes", "max_string", "max_chars",
                     "max_bytes"):
            v = getattr(self, name)
            if type(v) is not int or v < 1:
                raise ValueError(f"PreviewCaps.{name} must be a positive integer, got {v!r}")

    @classmethod
    def for_budget(cls, chars: int) -> PreviewCaps:
        """Heap-proportional ceilings for an observation of at most `chars` characters."""
        chars = max(1, chars)
        return cls(
            max_items=max(20, chars // 2),
            max_nodes=max(50, chars // 2),
            max_chars=chars,
            max_bytes=4 * chars,
        )


@dataclass(frozen=True)
class Preview:
    text: str
    caps_hit: tuple[str, ...]
    sampled_keys: tuple[str, ...] = ()

    @property
    def truncated(self) -> bool:
        return bool(self.caps_hit)


class _Stop(Exception):
    """A total ceiling (nodes, chars, bytes) was reached: the traversal ends."""


class _Writer:
    def __init__(self, caps: PreviewCaps) -> None:
        self.caps = caps
        self.out: list[str] = []
        self.chars = 0
        self.bytes = 0
        self.nodes = 0
        self.hit: set[str] = set()
        self.keys: list[str] = []
        self.labels = False  # a Label was shown (the printer does not know them)

    def emit(self, text: str) -> None:
        caps = self.caps
        room = caps.max_chars - self.chars
        if len(text) > room:
            text = text[: max(0, room)]
            self.hit.add("chars")
        size = len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
        if self.bytes + size > caps.max_bytes:
            budget = caps.max_bytes - self.bytes
            kept: list[str] = []
            for ch in text:  # cut on a character boundary, never inside a code point
                n = len(ch.encode("utf-8", "surrogatepass"))
                if n > budget:
                    break
                kept.append(ch)
                budget -= n
            text = "".join(kept)
            size = caps.max_bytes - self.bytes - budget
            self.hit.add("bytes")
        self.out.append(text)
        self.chars += len(text)
        self.bytes += size
        if "chars" in self.hit or "bytes" in self.hit:
            raise _Stop

    def node(self) -> None:
        self.nodes += 1
        if self.nodes > self.caps.max_nodes:
            self.hit.add("nodes")
            self.emit("...")
            raise _Stop

    def value(self, v: object, depth: int) -> None:
        if type(v) is EqKey:
            v = v.value
        self.node()
        t = type(v)
        if t is str:
            s: str = v  # type: ignore[assignment]
            # The per-string cap keeps siblings visible; a lone top-level string has none,
            # so only the total ceilings bound it.
            cut = self.caps.max_string if depth else self.caps.max_chars
            if len(s) > cut:
                self.hit.add("string" if depth else "chars")
                self.emit(pr_str(s[:cut]) + f"...(+{len(s) - cut} chars)")
            else:
                self.emit(pr_str(s))
            return
        if t is list or t is tuple or t is PVec:
            self.seq("[", "]", v, len(v), depth)  # type: ignore[arg-type]
        elif t is PSet:
            self.seq("#{", "}", v.m.values(), len(v.m), depth)  # type: ignore[attr-defined]
        elif t is dict or t is PMap:
            self.map(v, depth)  # type: ignore[arg-type]
        elif t is Label:  # a value that crossed from an isolated worker as its label
            self.labels = True
            self.emit(v.text)  # type: ignore[attr-defined]
        else:
            self.emit(pr_str(v))  # scalars; functions become inert #function[...] labels

    def seq(self, open_: str, close: str, items: Iterable[object], n: int, depth: int) -> None:
        if depth >= self.caps.max_depth and n:
            self.hit.add("depth")
            self.emit(f"{open_}...{close}")
            return
        self.emit(open_)
        for i, x in enumerate(items):
            if i >= self.caps.max_items:
                self.hit.add("collection")
                self.emit(f" ...(+{n - i} more)")
                break
            if i:
                self.emit(" ")
            self.value(x, depth + 1)
        self.emit(close)

    def map(self, m: dict[object, object] | PMap, depth: int) -> None:
        n = len(m)
        if depth == 0:
            for k in m:
                if len(self.keys) >= SAMPLED_KEYS:
                    break
                key = k.value if type(k) is EqKey else k
                self.keys.append(pr_str(key, KEY_SAMPLE_CHARS)[:KEY_SAMPLE_CHARS])
        if depth >= self.caps.max_depth and n:
            self.hit.add("depth")
            self.emit("{...}")
            return
        self.emit("{")
        for i, (k, x) in enumerate(m.items()):
            if i >= self.caps.max_items:
                self.hit.add("collection")
                self.emit(f", ...(+{n - i} more)")
                break
            if i:
                self.emit(", ")
            self.value(k, depth + 1)
            self.emit(" ")
            self.value(x, depth + 1)
        self.emit("}")


def preview(value: object, caps: PreviewCaps | None = None) -> Preview:
    """The bounded preview of `value` (see the module docstring)."""
    caps = caps or PreviewCaps()
    w = _Writer(caps)
    try:
        w.value(value, 0)
    except _Stop:
        pass
    hit = tuple(c for c in CAP_NAMES if c in w.hit)
    keys = tuple(w.keys) if hit else ()
    if hit == ("string",) and caps.default_string and not w.labels:
        # pr_str stops just past max_chars (adding a marker), so this pass is bounded too.
        exact = pr_str(value, caps.max_chars)
        if (
            len(exact) <= caps.max_chars
            and len(exact.encode("utf-8", "surrogatepass")) <= caps.max_bytes
        ):
            return Preview(exact, ())
    return Preview("".join(w.out), hit, keys)


#: The most of an observation's budget kept for println output.
PRINT_RESERVE_MAX: Final = 512


def observation(value: Any, output: str, limit: int) -> dict[str, Any]:
    """What the model is shown of an ordinary result: `user=> ` and the value's preview
    within `limit` characters, then its println output (a bounded reserve of the budget);
    and the preview facts (`truncated?`, `caps_hit`). A failing preview never changes the
    outcome: the value then shows as `#<preview unavailable>`."""
    caps: list[str] = []
    # println output keeps its own reserve of the observation budget, its head and its
    # omission flag included, so the observation cap never cuts the flag away
    prints = _prints(output, min(limit // 3, PRINT_RESERVE_MAX)) if output else ""
    room = max(1, limit - len(prints))  # what the value's part may take
    # without prints, the feedback's own cap marks a value cut at the limit
    head = len(VALUE_HEAD) if prints else 0
    try:
        shown = preview(value, PreviewCaps.for_budget(max(1, room - head)))
        caps = list(shown.caps_hit)
        text = shown.text
        if shown.sampled_keys:  # map keys are data too: inside the untrusted body
            keys = ("\nsampled keys: " + " ".join(shown.sampled_keys))[: limit // 4]
            text = text[: max(0, room - len(VALUE_HEAD) - len(keys))] + keys
        body = VALUE_HEAD + text
    except Exception:  # a preview failure never changes the outcome
        body = VALUE_HEAD + "#<preview unavailable>"
    if prints and len(body) > room:  # the value is cut, never the prints and their flag
        body = body[:room]
    return {"observation": body + prints, "preview": {"truncated?": bool(caps), "caps_hit": caps}}


VALUE_HEAD: Final = "user=> "
PRINTS_HEAD: Final = "\nprintln:\n"
PRINTS_OMITTED: Final = "...[prints omitted]"


def _prints(output: str, reserve: int) -> str:
    """The println part of an observation: within `reserve` characters (head and flag
    included) whenever the reserve can hold them; the flag whenever output was cut."""
    if len(PRINTS_HEAD) + len(output) <= reserve:
        return PRINTS_HEAD + output
    keep = max(0, reserve - len(PRINTS_HEAD) - len(PRINTS_OMITTED))
    return PRINTS_HEAD + output[:keep] + PRINTS_OMITTED
