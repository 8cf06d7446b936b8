"""CORS stays closed unless origins are configured, and tokens and tickets are compared
in constant time (``hmac.compare_digest``, every stored digest each time)."""

from __future__ import annotations

import hmac
from pathlib import Path
from uuid import uuid4

import pytest
from cascadia.server import tokens as token_module
from cascadia.server.app import ServerConfig, create_app
from cascadia.server.tokens import new_ticket, new_token, seat_of_ticket, seat_of_token, token_digest
from fastapi.testclient import TestClient

ALLOWED, OTHER = "https://play.example", "https://evil.example"


@pytest.mark.parametrize("origins", [[], [ALLOWED]])
def test_cors_is_closed_unless_configured(tmp_path: Path, origins: list[str]) -> None:
    with TestClient(create_app(ServerConfig(home=str(tmp_path / "home"), cors_origins=origins))) as client:
        for origin in (ALLOWED, OTHER):
            expected = origin if origin in origins else None
            simple = client.get("/api/health", headers={"Origin": origin})
            preflight = client.options(
                "/api/games", headers={"Origin": origin, "Access-Control-Request-Method": "POST"}
            )
            assert simple.headers.get("access-control-allow-origin") == expected
            assert preflight.headers.get("access-control-allow-origin") == expected
            assert "access-control-allow-credentials" not in simple.headers


def test_tokens_and_tickets_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    compare = hmac.compare_digest

    def counting(a: str, b: str) -> bool:
        calls.append((a, b))
        return compare(a, b)

    monkeypatch.setattr(token_module.hmac, "compare_digest", counting)
    seat_tokens = [new_token() for _ in range(4)]
    digests: list[str | None] = [token_digest(t) for t in seat_tokens]
    for token, seat in ((seat_tokens[0], 0), (seat_tokens[3], 3), ("forged", None)):
        calls.clear()
        assert seat_of_token(token, digests) == seat
        assert len(calls) == len(digests)  # every digest, wherever the match is
    game_id = uuid4()
    ticket = new_ticket(game_id, 2, digests[2])  # type: ignore[arg-type]
    calls.clear()
    assert seat_of_ticket(ticket, game_id, digests) == 2 and len(calls) == 1
