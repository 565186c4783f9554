"""Live messages packed into notifications (:func:`meneur.web.fanout.packed`)."""

from __future__ import annotations

import json

from meneur.web.fanout import PAYLOAD_LIMIT, packed


def message(number: int, size: int) -> tuple[str, int]:
    payload = json.dumps({"kind": "roll", "n": number, "pad": "x" * size})
    return payload, len(payload.encode())


def test_messages_waiting_together_travel_in_order_in_few_notifications() -> None:
    waiting = [message(number, 900) for number in range(20)]
    sent = packed(waiting)
    assert 1 < len(sent) < 20
    assert all(len(payload.encode()) <= PAYLOAD_LIMIT for payload in sent)
    found = []
    for payload in sent:
        data = json.loads(payload)
        found.extend(data if isinstance(data, list) else [data])
    assert [m["n"] for m in found] == list(range(20))


def test_a_message_alone_travels_as_itself() -> None:
    alone = message(7, 10)
    assert packed([alone]) == [alone[0]]
    big = message(8, PAYLOAD_LIMIT - 60)  # too big to share a notification
    assert packed([alone, big, alone]) == [alone[0], big[0], alone[0]]
