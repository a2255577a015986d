"""``leishen neo4j start|status|stop``: a local Neo4j Community server for development and CI.

The server is Neo4j 5.26 embedded with Bolt on 127.0.0.1 (see leishen.neo4jserver.server). Its jars are
fetched with Maven into ``~/.cache/leishen/neo4j`` (or ``$LEISHEN_NEO4J_HOME``) on the first start.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from leishen import settings
from leishen.cli.options import handle_errors


def _server():
    """The server module, imported when a command runs (keeps ``leishen --help`` fast)."""
    from leishen.neo4jserver import server

    return server


@click.group("neo4j")
def neo4j() -> None:
    """Run a local Neo4j Community 5.26 server (Bolt on 127.0.0.1) fetched from Maven Central."""


@neo4j.command("start")
@click.option("--port", type=int, default=0, show_default=True, help="Bolt port on 127.0.0.1 (0 = a free port).")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Database directory (default: <cache>/server/data).")
@click.option("--auth/--no-auth", default=False, show_default=True,
              help="Require user neo4j with the password of --password / NEO4J_PASSWORD.")
@click.option("--password", envvar="NEO4J_PASSWORD", default=None, help="Password for --auth (at least 8 characters).")
@click.option("--timeout", type=float, default=None, help="Seconds to wait for Bolt to answer (default 180).")
@click.option("--json", "as_json", is_flag=True, help="Print the server's status as JSON.")
@handle_errors
def start_cmd(port: int, data: Path | None, auth: bool, password: str | None, timeout: float | None, as_json: bool) -> None:
    """Start the server (fetching the jars on first use) and print its bolt:// URI once it answers."""
    server = _server()
    if not server.jars_present():
        click.echo(f"fetching Neo4j {server.neo4j_version()} jars with Maven into {server.lib_dir()} ...", err=True)
    state = server.start(port=port, data=data, auth=auth, password=password, timeout=timeout)
    if as_json:
        click.echo(json.dumps(state, ensure_ascii=False, indent=2))
    else:
        click.echo(state["uri"])
        seconds = state.get("start_seconds")
        click.echo(f"pid {state['pid']}, data {state['data']}, log {state['log']}"
                   + (f", started in {seconds:.1f} s" if seconds else ""), err=True)


@neo4j.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@handle_errors
def status_cmd(as_json: bool) -> None:
    """Say whether the server runs and answers (also a server whose start was killed half-way); exit 0 if it
    answers, 1 if not."""
    state = _server().status()
    if as_json:
        click.echo(json.dumps(state, ensure_ascii=False, indent=2))
    elif state.get("unrecorded"):
        where = f"answers on {state['uri']}" if state["answering"] else "does not answer yet"
        click.echo(f"running without a record: pid {state['pid']} (data {state['data']}) {where}; its start was "
                   f"stopped before it finished; `leishen neo4j stop` stops it, log {state['log']}")
    elif state["answering"]:
        click.echo(f"running: {state['uri']} (pid {state['pid']}, data {state['data']}, auth {'on' if state['auth'] else 'off'})")
    elif state["running"]:
        click.echo(f"starting or hung: pid {state['pid']} does not answer on {state['uri']}; log {state['log']}")
    else:
        click.echo("not running")
    sys.exit(0 if state["answering"] else 1)


@neo4j.command("stop")
@handle_errors
def stop_cmd() -> None:
    """Stop the server cleanly (SIGTERM, then SIGKILL after 60 s)."""
    click.echo("stopped" if _server().stop() else "not running")


@neo4j.command("fetch")
@handle_errors
def fetch_cmd() -> None:
    """Fetch the Neo4j jars with Maven (what start does on first use); print their directory."""
    click.echo(_server().fetch_jars(quiet=not settings.get("LEISHEN_VERBOSE")))


if __name__ == "__main__":  # python -m leishen.cli.neo4j_cmd
    neo4j()
