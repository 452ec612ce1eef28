"""Replay fixtures: record then replay, misses naming the hash, and fixture load rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_fake_server import FakeLLMServer, Reply

from ptc_agent.providers import (
    FixtureError,
    Message,
    OpenAIChatProvider,
    ProviderError,
    ReplayProvider,
    Request,
    Response,
    ScriptedProvider,
    ToolCall,
    Usage,
    canonical_json,
    load_fixtures,
    request_hash,
)

TURN1 = Request((Message("user", "Sum the values. 2 turns remain."),), system="sys", model="fast")
TURN2 = Request(
    (
        *TURN1.messages,
        Message(
            "assistant", "", (ToolCall("c1", "run_ptc_lisp", {"program": "(sum data/values)"}),)
        ),
        Message("tool", "6", tool_call_id="c1"),
    ),
    system="sys",
    model="fast",
)
CALL = {
    "id": "c1",
    "type": "function",
    "function": {"name": "run_ptc_lisp", "arguments": '{"program": "(sum data/values)"}'},
}


def chat(content: str | None, calls: list[object] | None = None) -> dict[str, object]:
    message: dict[str, object] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = calls
    return {
        "choices": [{"message": message, "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5},
    }


def test_record_then_replay_round_trip(server: FakeLLMServer, tmp_path: Path) -> None:
    fixtures = tmp_path / "llm.jsonl"
    server.reply(Reply(200, chat(None, [CALL])), Reply(200, chat("done")))
    live = OpenAIChatProvider("gpt-test", base_url=server.base_url)
    recorder = ReplayProvider(fixtures, mode="record", inner=live)
    recorded = [recorder.request(TURN1), recorder.request(TURN2)]
    assert len(server.requests) == 2

    lines = [json.loads(line) for line in fixtures.read_text().splitlines()]
    assert [line["request_hash"] for line in lines] == [request_hash(TURN1), request_hash(TURN2)]
    assert all(line["schema_version"] == 1 and "response" in line for line in lines)

    replay = ReplayProvider(fixtures)
    assert [replay.request(TURN1), replay.request(TURN2)] == recorded
    assert recorded[0].tool_calls == (
        ToolCall("c1", "run_ptc_lisp", {"program": "(sum data/values)"}),
    )
    assert recorded[1].usage == Usage(input=10, output=5)
    assert len(server.requests) == 2  # replay never touched the server


def test_identical_requests_record_a_sequence(tmp_path: Path) -> None:
    fixtures = tmp_path / "seq.jsonl"
    inner = ScriptedProvider([{"content": "one"}, {"content": "two"}])
    recorder = ReplayProvider(fixtures, mode="record", inner=inner)
    recorder.request(TURN1)
    recorder.request(TURN1)
    [line] = [json.loads(x) for x in fixtures.read_text().splitlines()]
    assert [r["content"] for r in line["responses"]] == ["one", "two"]

    replay = ReplayProvider(fixtures)
    assert [replay.request(TURN1).content, replay.request(TURN1).content] == ["one", "two"]
    with pytest.raises(ProviderError) as info:
        replay.request(TURN1)
    failure = info.value.failure
    assert (failure.reason, failure.retryable) == ("not_found", False)
    assert request_hash(TURN1) in str(failure.details) and "exhausted" in str(failure.details)


def test_missing_fixture_names_the_hash(tmp_path: Path) -> None:
    fixtures = tmp_path / "one.jsonl"
    fixtures.write_text(
        canonical_json(
            {
                "schema_version": 1,
                "request_hash": request_hash(TURN1),
                "response": {"content": "hi"},
            }
        )
        + "\n"
    )
    replay = ReplayProvider(fixtures)
    with pytest.raises(ProviderError) as info:
        replay.request(TURN2)
    failure = info.value.failure
    assert (failure.kind, failure.reason, failure.retryable) == (
        "provider_error",
        "not_found",
        False,
    )
    assert failure.details == f"no replay fixture for request {request_hash(TURN2)}"


def test_recording_failures_are_not_stored(tmp_path: Path) -> None:
    from ptc_agent.providers import ProviderFailure

    fixtures = tmp_path / "f.jsonl"
    inner = ScriptedProvider([ProviderFailure("provider_error", "rate_limited", True)])
    with pytest.raises(ProviderError):
        ReplayProvider(fixtures, mode="record", inner=inner).request(TURN1)
    assert not fixtures.exists()


def test_record_mode_needs_inner(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        ReplayProvider(tmp_path / "x.jsonl", mode="record")


def test_close_closes_inner_once(tmp_path: Path) -> None:
    inner = ScriptedProvider()
    ReplayProvider(tmp_path / "x.jsonl", mode="record", inner=inner).close()
    assert inner.close_count == 1


def test_hash_covers_the_neutral_request_only() -> None:
    assert request_hash(TURN1).startswith("sha256:") and len(request_hash(TURN1)) == 71
    assert request_hash(TURN1) != request_hash(Request(TURN1.messages, system="sys", model="slow"))
    assert request_hash(TURN1) != request_hash(Request(TURN1.messages, system="sys2", model="fast"))
    assert request_hash(TURN1) != request_hash(
        Request(TURN1.messages, tools=(), system="sys", model="fast")
    )
    sampled = Request(
        TURN1.messages, system="sys", model="fast", max_tokens=9, temperature=1.0, timeout=3.0
    )
    assert request_hash(TURN1) == request_hash(sampled)


def test_canonical_json_is_sorted_compact_and_unicode() -> None:
    assert (
        canonical_json({"b": 1, "a": ["é", "\U0001f600"], "A": None})
        == '{"A":null,"a":["é","\U0001f600"],"b":1}'
    )
    with pytest.raises(ValueError):
        canonical_json({"x": float("nan")})


GOOD_HASH = "sha256:" + "0" * 64
BAD_LINES = [
    pytest.param("{secret text", "not valid JSON", id="invalid-json"),
    pytest.param("[1]", "entry is not a JSON object", id="not-object"),
    pytest.param(
        f'{{"schema_version": 2, "request_hash": "{GOOD_HASH}", "response": {{"content": ""}}}}',
        "schema_version must be 1",
        id="version",
    ),
    pytest.param(
        '{"schema_version": 1, "request_hash": "sha256:ABC", "response": {"content": ""}}',
        "request_hash must be",
        id="hash",
    ),
    pytest.param(
        f'{{"schema_version": 1, "request_hash": "{GOOD_HASH}"}}',
        "exactly one of",
        id="no-response",
    ),
    pytest.param(
        f'{{"schema_version": 1, "request_hash": "{GOOD_HASH}", "response": {{}}, "responses": [{{}}]}}',
        "exactly one of",
        id="both",
    ),
    pytest.param(
        f'{{"schema_version": 1, "request_hash": "{GOOD_HASH}", "responses": []}}',
        "responses must hold",
        id="empty-sequence",
    ),
    pytest.param(
        f'{{"schema_version": 1, "request_hash": "{GOOD_HASH}", "response": {{"content": 5}}}}',
        "response shape",
        id="bad-response",
    ),
    pytest.param(
        f'{{"schema_version": 1, "request_hash": "{GOOD_HASH}", "response": {{"content": "", "secret": 1}}}}',
        "response shape",
        id="unknown-response-key",
    ),
    pytest.param(
        f'{{"schema_version": 1, "request_hash": "{GOOD_HASH}", "response": {{}}, "note": "x"}}',
        "unknown key",
        id="unknown-key",
    ),
]


@pytest.mark.parametrize(("line", "rule"), BAD_LINES)
def test_load_errors_name_rule_and_line(tmp_path: Path, line: str, rule: str) -> None:
    fixtures = tmp_path / "bad.jsonl"
    ok = canonical_json(
        {"schema_version": 1, "request_hash": "sha256:" + "1" * 64, "response": {"content": "a"}}
    )
    fixtures.write_text(f"{ok}\n\n{line}\n")
    with pytest.raises(FixtureError) as info:
        load_fixtures(fixtures)
    assert info.value.line == 3  # blank lines count
    assert rule in info.value.rule
    assert "secret" not in str(info.value)


def test_duplicate_hash_and_entry_limit(tmp_path: Path) -> None:
    entry = canonical_json(
        {"schema_version": 1, "request_hash": GOOD_HASH, "response": {"content": "a"}}
    )
    fixtures = tmp_path / "dup.jsonl"
    fixtures.write_text(f"{entry}\n{entry}\n")
    with pytest.raises(FixtureError, match="line 2: duplicate request_hash"):
        load_fixtures(fixtures)
    other = canonical_json(
        {"schema_version": 1, "request_hash": "sha256:" + "2" * 64, "response": {"content": "b"}}
    )
    fixtures.write_text(f"{entry}\n{other}\n")
    with pytest.raises(FixtureError, match="line 2: more than 1 entries"):
        load_fixtures(fixtures, max_entries=1)


def test_oversized_response_is_refused(tmp_path: Path) -> None:
    fixtures = tmp_path / "big.jsonl"
    fixtures.write_text(
        canonical_json(
            {"schema_version": 1, "request_hash": GOOD_HASH, "response": {"content": "x" * 2000}}
        )
        + "\n"
    )
    with pytest.raises(FixtureError, match="exceeds 1000 bytes"):
        load_fixtures(fixtures, max_result_bytes=1000)


def test_replayed_response_carries_no_alias(tmp_path: Path) -> None:
    fixtures = tmp_path / "r.jsonl"
    inner = ScriptedProvider([Response("hi", model="should-not-be-stored")])
    ReplayProvider(fixtures, mode="record", inner=inner).request(TURN1)
    assert ReplayProvider(fixtures).request(TURN1) == Response("hi")
