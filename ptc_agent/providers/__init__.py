"""Model providers for the agent loop: neutral request -> provider -> response or failure.

`ModelRouter` (aliases, `max_calls`, host-owned parameters) fronts any `Provider`:
`OpenAIChatProvider` and `AnthropicProvider` speak HTTP with the standard library;
`ScriptedProvider` and `ReplayProvider` answer without a live model. Expected failures are
`ProviderError`s carrying a `ProviderFailure` from the closed vocabulary in `failure`.
"""

from ptc_agent.providers.aliases import (
    Alias,
    AliasConfigError,
    AliasUsage,
    ModelRouter,
    router_from_config,
)
from ptc_agent.providers.anthropic import AnthropicProvider
from ptc_agent.providers.base import Provider
from ptc_agent.providers.failure import (
    Kind,
    ProviderError,
    ProviderFailure,
    Reason,
    reason_for_status,
)
from ptc_agent.providers.openai import OpenAIChatProvider
from ptc_agent.providers.replay import FixtureError, ReplayProvider, load_fixtures
from ptc_agent.providers.request import (
    RUN_PTC_LISP_TOOL,
    Message,
    Request,
    RequestShapeError,
    Response,
    ToolCall,
    ToolSpec,
    Usage,
    canonical_json,
    request_from_json,
    request_hash,
    response_from_json,
)
from ptc_agent.providers.scripted import ScriptedProvider, ScriptExhausted

__all__ = [
    "RUN_PTC_LISP_TOOL",
    "Alias",
    "AliasConfigError",
    "AliasUsage",
    "AnthropicProvider",
    "FixtureError",
    "Kind",
    "Message",
    "ModelRouter",
    "OpenAIChatProvider",
    "Provider",
    "ProviderError",
    "ProviderFailure",
    "Reason",
    "ReplayProvider",
    "Request",
    "RequestShapeError",
    "Response",
    "ScriptExhausted",
    "ScriptedProvider",
    "ToolCall",
    "ToolSpec",
    "Usage",
    "canonical_json",
    "load_fixtures",
    "reason_for_status",
    "request_from_json",
    "request_hash",
    "response_from_json",
    "router_from_config",
]
