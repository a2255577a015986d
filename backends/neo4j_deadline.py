"""A user's Cypher query on Neo4j answered by its deadline, even when the server cannot stop it in time.

Neo4j stops a transaction at its timeout only between the steps of its plan: one expression that runs long (a
``reduce`` over a long list: 400,000 string concatenations under a 2 s timeout answered after 45 s, 2,000,000
gave no answer in 120 s) runs to its end first, and neither terminating the transaction nor killing its
connection ends it sooner (measured on 5.26). So :func:`read_by_deadline` runs the query in a thread of its own,
on a session of its own, and waits for it until its timeout and :data:`GRACE` seconds. Past that it raises
:class:`~leishen.errors.CypherTimeout` carrying the query's Future (``still_running``): the caller answers at
once, and :class:`leishen.service.cypher.CypherSlots` keeps the query's slot until the server has answered, so
what the server still runs stays bounded by ``LEISHEN_CYPHER_MAX_IN_FLIGHT``.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout

from leishen.errors import CypherTimeout

#: seconds a query may run past its timeout before leishen stops waiting (Neo4j's own stop comes first)
GRACE = 2.0


def read_by_deadline(driver, database: str, query, params: dict, limit: int | None):
    """``(records, keys, summary)`` of the read ``query`` (a ``neo4j.Query`` with its timeout) by its deadline;
    driver errors as the driver raised them; CypherTimeout (with ``still_running``) past timeout + GRACE."""
    answer: Future = Future()
    answer.set_running_or_notify_cancel()
    thread = threading.Thread(target=_answer, args=(answer, driver, database, query, params, limit),
                              name="leishen-cypher", daemon=True)
    thread.start()
    try:
        return answer.result(timeout=query.timeout + GRACE)
    except FutureTimeout:
        raise CypherTimeout(f"the query ran longer than its timeout ({query.timeout:g} s) and Neo4j had not "
                            f"stopped it {GRACE:g} s later (it stops a query between the steps of its plan, and one "
                            "long expression runs to its end first): no answer is waited for; the server is "
                            "still finishing it", still_running=answer) from None


def _answer(answer: Future, driver, database: str, query, params: dict, limit: int | None) -> None:
    """Run ``query`` on a READ session of its own and settle ``answer`` with its records or its error."""
    import neo4j

    try:
        with driver.session(database=database, default_access_mode=neo4j.READ_ACCESS,
                            bookmark_manager=driver.execute_query_bookmark_manager) as session:
            result = session.run(query, params)
            records = result.fetch(limit) if limit is not None else list(result)
            answer.set_result((records, result.keys(), result.consume()))
    except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller, who translates it
        answer.set_exception(exc)
