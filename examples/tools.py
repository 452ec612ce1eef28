"""Example host tools for `examples/orders.clj` (trusted Python, loaded by `ptc run --tools`)."""

from __future__ import annotations

from typing import Any

CUSTOMERS = {
    1: {"id": 1, "name": "Ada Lovelace", "tier": "gold"},
    2: {"id": 2, "name": "Grace Hopper", "tier": "silver"},
    3: {"id": 3, "name": "Alan Turing", "tier": "gold"},
    4: {"id": 4, "name": "Edsger Dijkstra", "tier": "bronze"},
}


def get_customer(args: dict[str, Any]) -> dict[str, Any] | None:
    """Look a customer up by id: {"id": int} -> customer map or nil."""
    return CUSTOMERS.get(args["id"])


TOOLS = {"get-customer": get_customer}
