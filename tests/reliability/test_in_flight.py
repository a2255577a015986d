"""#40 item 1: a bound on the computing requests in flight. 100 clients send readings of every topic and finds to
a live ``leishen serve`` for 6 s from a process of their own (each honouring Retry-After); the ones past
``LEISHEN_MAX_IN_FLIGHT`` are answered 429 at once naming the limit, and /health keeps answering quickly meanwhile
(before the bound it took 11.7 s; the admitted ones are computed in worker processes, tests/reliability/
test_compute_pool.py).

The /health times are measured from the test's own process. The bound asserted on them is generous (the suite
runs on loaded, shared cores); the figures measured (``python bench/bench_api.py --under-load``) are in the
README's serving section."""

from __future__ import annotations

from loadprobe import p95, serving, under_load

from leishen.api.deps import InFlightLimit

BOUND = 2


def test_readings_past_the_bound_are_429_and_health_answers():
    with serving(env={"LEISHEN_MAX_IN_FLIGHT": str(BOUND)}) as base:
        found = under_load(base)
    statuses, health = found["statuses"], found["health"]
    assert set(statuses) <= {200, 429}, statuses
    assert statuses.get(200, 0) >= BOUND and statuses.get(429, 0) >= 100 - BOUND, statuses
    headers, body = found["refused"][0]
    assert headers["retry-after"] == "1" and body["type"] == "Busy" and body["status"] == 429
    assert f"busy: {BOUND} computing requests" in body["error"] and "LEISHEN_MAX_IN_FLIGHT" in body["error"]
    assert p95(health) <= 1.0 and health[len(health) // 2] <= 0.3, [round(t, 3) for t in health]


def test_the_limit_counts_per_app_and_lets_health_through():
    """The middleware on its own: past the limit a computing path is refused, /health never; a slot is given
    back when its request ends."""
    import asyncio
    asyncio.run(_limit_checks())


async def _limit_checks():
    import asyncio
    release, calls = asyncio.Event(), []

    async def app(scope, receive, send):
        calls.append(scope["path"])
        if scope["path"] == "/readings":
            await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    limit = InFlightLimit(app, limit=1)
    first = asyncio.ensure_future(limit({"type": "http", "path": "/readings"}, None, send))
    await asyncio.sleep(0)
    await limit({"type": "http", "path": "/readings"}, None, send)
    assert sent[-2]["status"] == 429 and b"busy: 1 computing" in sent[-1]["body"]
    await limit({"type": "http", "path": "/health"}, None, send)
    assert sent[-2]["status"] == 200 and limit.running == 1
    release.set()
    await first
    assert limit.running == 0 and calls == ["/readings", "/health"]
