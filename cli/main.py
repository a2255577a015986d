"""The ``leishen`` command line.  Every command has ``--json``; errors exit with code 2."""

from __future__ import annotations

import importlib

import click

from leishen import __version__

# command name -> "module:attribute"; imported only when the command is used
COMMANDS = {
    "build": "leishen.cli.graph_cmds:build",
    "stats": "leishen.cli.graph_cmds:stats",
    "symbol": "leishen.cli.graph_cmds:symbol",
    "facts": "leishen.cli.graph_cmds:facts",
    "path": "leishen.cli.graph_cmds:path",
    "check": "leishen.cli.corpus_cmds:check",
    "coverage": "leishen.cli.corpus_cmds:coverage",
    "passage": "leishen.cli.corpus_cmds:passage",
    "chart": "leishen.cli.chart:chart",
    "neo4j": "leishen.cli.neo4j_cmd:neo4j",
    "cypher": "leishen.cli.cypher_cmd:cypher",
    "read": "leishen.cli.read_cmds:read",
    "find": "leishen.cli.read_cmds:find",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use (fast start, optional extras)."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="leishen")
def main():
    """leishen (類神): the cited correspondence graph of Da Liu Ren, Qimen Dunjia and the Nine Stars."""


if __name__ == "__main__":
    main()
