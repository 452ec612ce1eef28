"""Example host tools for the agent example (trusted Python, loaded by `ptc agent run`)."""

from __future__ import annotations

from ptc_compiler.tools import Tool

ORDERS = [
    {"id": 1, "customer": "Ada", "amount": 120.0, "status": "paid"},
    {"id": 2, "customer": "Grace", "amount": 75.5, "status": "pending"},
    {"id": 3, "customer": "Alan", "amount": 42.25, "status": "paid"},
    {"id": 4, "customer": "Ada", "amount": 310.0, "status": "refunded"},
    {"id": 5, "customer": "Edsger", "amount": 18.75, "status": "paid"},
]


def list_orders(status: str | None = None) -> list[dict[str, object]]:
    """All orders, optionally only those with the given status."""
    return [o for o in ORDERS if status is None or o["status"] == status]


def order_statuses() -> list[str]:
    """The distinct order statuses."""
    return sorted({str(o["status"]) for o in ORDERS})


TOOLS = {
    # Signatures are derived from the type hints; both tools only read.
    "list-orders": Tool(list_orders, effect="read"),
    "order-statuses": Tool(order_statuses, effect="read"),
}
