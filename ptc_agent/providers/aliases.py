"""Model aliases and the router behind the `llm-request` host capability.

An alias names an installed model: a provider (adapter + provider model id), host-owned
sampling (`max_tokens`, `temperature`), a `timeout` and an optional per-alias `max_calls`.
PTC-Lisp only ever names an alias; credentials, endpoints, sampling and timeouts come from
the host configuration or the environment (seed 001, "Provider-neutral requests").

Resolution (seed 001 "Configuration", agent-design §3.8): no `model` -> the only alias, else
the one marked default, else `protocol_error/model_alias_required`; a non-string or blank
alias -> `invalid_model_alias`; an unknown one -> `unknown_model_alias`. None of these reaches
a provider, and none falls back. A spent `max_calls` -> `limit_exceeded/capability_quota`
with details `{limit: "max_calls", alias, limit_value}`.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from ptc_agent.providers.anthropic import AnthropicProvider
from ptc_agent.providers.base import Provider
from ptc_agent.providers.failure import ProviderError, ProviderFailure
from ptc_agent.providers.openai import OpenAIChatProvider
from ptc_agent.providers.replay import ReplayProvider
from ptc_agent.providers.request import (
    Message,
    Request,
    RequestShapeError,
    Response,
    request_from_json,
)

#: The environment variable each adapter reads its credential from unless configured otherwise.
DEFAULT_KEY_ENV: Final[Mapping[str, str]] = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
}


class AliasConfigError(ValueError):
    """The host's alias configuration is invalid (a host error, never shown to the model)."""


@dataclass(frozen=True, slots=True)
class Alias:
    name: str
    provider: Provider
    max_calls: int | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    timeout: float | None = None
    default: bool = False


@dataclass(slots=True)
class AliasUsage:
    calls: int = 0
    successes: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(slots=True)
class _State:
    usage: dict[str, AliasUsage] = field(default_factory=dict)
    closed: bool = False


class ModelRouter:
    """Resolves aliases, enforces `max_calls`, fills host-owned parameters, records usage."""

    def __init__(self, aliases: Sequence[Alias]) -> None:
        names = [a.name for a in aliases]
        if not aliases or len(set(names)) != len(names):
            raise AliasConfigError("aliases must be non-empty and uniquely named")
        defaults = [a.name for a in aliases if a.default]
        if len(defaults) > 1:
            raise AliasConfigError("at most one alias may be the default")
        for alias in aliases:
            if alias.max_calls is not None and alias.max_calls < 0:
                raise AliasConfigError(f"alias {alias.name}: max_calls must be >= 0")
        self.aliases: Mapping[str, Alias] = {a.name: a for a in aliases}
        self.default = defaults[0] if defaults else (names[0] if len(names) == 1 else None)
        self._lock = threading.Lock()
        self._state = _State({n: AliasUsage() for n in names})

    def resolve(self, model: object, *, given: bool) -> Alias:
        """The alias a request names (`given` is false when it named none)."""
        if not given:
            if self.default is None:
                raise _alias_error(
                    "model_alias_required",
                    None,
                    "several aliases and no default: " + ", ".join(sorted(self.aliases)),
                )
            return self.aliases[self.default]
        if not isinstance(model, str) or not model.strip():
            raise _alias_error("invalid_model_alias", None, "model must be a non-blank alias")
        alias = self.aliases.get(model)
        if alias is None:
            raise _alias_error(
                "unknown_model_alias",
                model[:128],
                "available aliases: " + ", ".join(sorted(self.aliases)),
            )
        return alias

    def request(self, request: Request) -> Response:
        """Route one request; raises `ProviderError` whose failure names the resolved alias."""
        alias = self.resolve(request.model, given=request.model is not None)
        with self._lock:
            usage = self._state.usage[alias.name]
            if alias.max_calls is not None and usage.calls >= alias.max_calls:
                raise ProviderError(
                    ProviderFailure(
                        "limit_exceeded",
                        "capability_quota",
                        False,
                        {"limit": "max_calls", "alias": alias.name, "limit_value": alias.max_calls},
                        model=alias.name,
                    )
                )
            usage.calls += 1
        routed = replace(
            request,
            max_tokens=alias.max_tokens if request.max_tokens is None else request.max_tokens,
            temperature=alias.temperature if request.temperature is None else request.temperature,
            timeout=alias.timeout if request.timeout is None else request.timeout,
        )
        try:
            response = alias.provider.request(routed)
        except ProviderError as exc:
            raise ProviderError(replace(exc.failure, model=alias.name)) from None
        if not isinstance(response, Response):
            # Neither a response nor a classified failure: a provider contract breach (§3.8).
            raise ProviderError(
                ProviderFailure(
                    "provider_error",
                    "internal",
                    False,
                    "the provider returned neither a response nor a failure",
                    model=alias.name,
                )
            )
        with self._lock:
            usage.successes += 1
            if response.usage is not None:
                usage.input_tokens += response.usage.input
                usage.output_tokens += response.usage.output
        return replace(response, model=alias.name)

    def llm_request(
        self, arguments: object, history: Sequence[Message] = ()
    ) -> dict[str, object]:
        """The `tool/llm-request` capability: request map -> `{status: ok, value}` or envelope.

        `history`: messages the host already holds for this request's transcript; they come
        before the map's own `messages` (`llm/request-appending`).
        Expected failures come back as data; any other exception (a provider bug, a crashed
        callback) propagates and fails the workflow.
        """
        given = isinstance(arguments, Mapping) and "model" in arguments
        if given and isinstance(arguments, Mapping) and not isinstance(arguments["model"], str):
            return _alias_error(
                "invalid_model_alias", None, "model must be a non-blank alias"
            ).failure.to_envelope()
        try:
            request = request_from_json(arguments)
        except RequestShapeError as exc:
            return ProviderFailure(
                "provider_error", "invalid_request", False, str(exc)
            ).to_envelope()
        if history:
            request = replace(request, messages=(*history, *request.messages))
        try:
            return {"status": "ok", "value": self.request(request).to_json()}
        except ProviderError as exc:
            return exc.failure.to_envelope()

    def usage(self) -> dict[str, AliasUsage]:
        with self._lock:
            return {name: replace(u) for name, u in self._state.usage.items()}

    def close(self) -> None:
        """Close every provider exactly once, however often this is called."""
        with self._lock:
            if self._state.closed:
                return
            self._state.closed = True
        for alias in self.aliases.values():
            alias.provider.close()


def _alias_error(reason: Any, model: str | None, details: str) -> ProviderError:
    return ProviderError(ProviderFailure("protocol_error", reason, False, details, model=model))


# ------------------------------------------------------------- host configuration


Factory = Callable[[Mapping[str, Any], Mapping[str, str]], Provider]


def router_from_config(
    config: Mapping[str, Any],
    *,
    environ: Mapping[str, str] | None = None,
    factories: Mapping[str, Factory] | None = None,
) -> ModelRouter:
    """Build the router from host configuration.

    `{"aliases": {name: {"adapter": "openai" | "anthropic" | "replay", "model": id,
    "base_url"?, "api_key"?, "api_key_env"?, "max_tokens"?, "temperature"?, "timeout"?,
    "max_calls"?, "default"?, "model_output_limit"? (catalog metadata: the model's output-token
    limit, which lowers the `max_tokens` an HTTP adapter sends), ...adapter options}}}`.
    `factories` adds or replaces adapters.
    """
    env = os.environ if environ is None else environ
    table: dict[str, Factory] = {**FACTORIES, **(factories or {})}
    entries = config.get("aliases")
    if not isinstance(entries, Mapping) or not entries:
        raise AliasConfigError("config.aliases must be a non-empty object")
    aliases: list[Alias] = []
    for name, entry in entries.items():
        if not isinstance(entry, Mapping):
            raise AliasConfigError(f"alias {name}: entry must be an object")
        adapter = entry.get("adapter")
        if adapter not in table:
            raise AliasConfigError(f"alias {name}: unknown adapter {adapter!r}")
        aliases.append(
            Alias(
                name=str(name),
                provider=table[adapter](entry, env),
                max_calls=_opt(entry, "max_calls", int, name),
                max_tokens=_opt(entry, "max_tokens", int, name),
                temperature=_opt(entry, "temperature", float, name),
                timeout=_opt(entry, "timeout", float, name),
                default=entry.get("default") is True,
            )
        )
    return ModelRouter(aliases)


def api_key(entry: Mapping[str, Any], env: Mapping[str, str], adapter: str) -> str | None:
    """`api_key` from host config, else the variable `api_key_env` names, else the default.

    A variable named explicitly must be set; the default variable may be absent (local
    OpenAI-compatible servers need no key). The error names the variable, never a value.
    """
    if isinstance(entry.get("api_key"), str):
        return str(entry["api_key"])
    named = entry.get("api_key_env")
    if named is not None:
        if not isinstance(named, str) or named not in env:
            raise AliasConfigError(f"credential variable {named!r} is not set")
        return env[named]
    return env.get(DEFAULT_KEY_ENV.get(adapter, ""))


def _opt(entry: Mapping[str, Any], key: str, kind: type, alias: object) -> Any:
    value = entry.get(key)
    if value is None:
        return None
    ok = isinstance(value, int | float) if kind is float else isinstance(value, int)
    if isinstance(value, bool) or not ok or value < 0:
        raise AliasConfigError(f"alias {alias}: {key} must be a non-negative number")
    return kind(value)


def _output_limit(entry: Mapping[str, Any]) -> int | None:
    """The entry's catalog `model_output_limit`: a positive integer, or None."""
    value = entry.get("model_output_limit")
    if value is not None and (type(value) is not int or value < 1):
        raise AliasConfigError(
            f"alias of model {str(entry.get('model'))[:64]!r}: model_output_limit must be a "
            "positive integer"
        )
    return value


def _model(entry: Mapping[str, Any]) -> str:
    model = entry.get("model")
    if not isinstance(model, str) or not model:
        raise AliasConfigError("an HTTP alias needs a provider model id")
    return model


def _openai(entry: Mapping[str, Any], env: Mapping[str, str]) -> Provider:
    return OpenAIChatProvider(
        _model(entry),
        base_url=str(entry.get("base_url", "https://api.openai.com/v1")),
        api_key=api_key(entry, env, "openai"),
        tool_choice="required" if entry.get("tool_choice") == "required" else "auto",
        model_output_limit=_output_limit(entry),
    )


def _anthropic(entry: Mapping[str, Any], env: Mapping[str, str]) -> Provider:
    return AnthropicProvider(
        _model(entry),
        base_url=str(entry.get("base_url", "https://api.anthropic.com")),
        api_key=api_key(entry, env, "anthropic"),
        version=str(entry.get("anthropic_version", "2023-06-01")),
        model_output_limit=_output_limit(entry),
    )


def _replay(entry: Mapping[str, Any], env: Mapping[str, str]) -> Provider:
    fixtures = entry.get("fixtures")
    if not isinstance(fixtures, str):
        raise AliasConfigError("a replay alias needs a fixtures path")
    return ReplayProvider(fixtures)


FACTORIES: Final[Mapping[str, Factory]] = {
    "openai": _openai,
    "anthropic": _anthropic,
    "replay": _replay,
}
