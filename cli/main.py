"""The ``leishen`` command line.  Every command has ``--json``; errors exit with code 2."""

from __future__ import annotations

import gc
import importlib
import os
import sys

import click

from leishen import __version__, settings
from leishen.errors import SettingError

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
    "moments": "leishen.cli.read_cmds:moments",
    "topics": "leishen.cli.read_cmds:topics",
    "view": "leishen.cli.view_cmd:view",
    "serve": "leishen.cli.serve_cmd:serve",
    "mcp": "leishen.cli.mcp_cmd:mcp",
    "export": "leishen.cli.export_cmd:export_cmd",
}


#: the key of the root context's meta that says the process runs its own command line (see import_for_good)
OWN_PROCESS = "leishen.own_process"


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use (fast start, optional extras)."""

    def list_commands(self, ctx):
        return sorted(COMMANDS)

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        imported = import_for_good(module) if ctx.meta.get(OWN_PROCESS) else importlib.import_module(module)
        return getattr(imported, attr)

    def make_context(self, info_name, args, parent=None, **extra):
        """The root context, which keeps *own_process* (given by :meth:`main`) in its meta for
        :meth:`get_command`."""
        own_process = extra.pop("own_process", False)
        ctx = super().make_context(info_name, args, parent, **extra)
        ctx.meta[OWN_PROCESS] = own_process
        return ctx

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Run the CLI; a usage error is one line on stderr and exit code 2 (click prints three or four)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            settings.check_all()
        except SettingError as exc:  # a bad LEISHEN_* value: one line naming it, before any command runs
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)
        try:  # args None: the process's own command line (the console script, python -m), not a caller's list
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, own_process=args is None, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            exc.show()  # a bare group prints its help, as click does
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            click.echo(one_line_usage_error(exc), err=True)
            sys.exit(2)
        except click.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def import_for_good(name: str):
    """Import a command's module with the cyclic garbage collector paused, then freeze what the process holds
    (``gc.freeze``, as :mod:`leishen.diskcache` does after a load): the modules, classes and tables imported live
    as long as the process, so neither the collections their making would trigger nor the full ones at exit need
    walk them again. Only for a process that runs the command line (:data:`OWN_PROCESS`): a caller's process
    (a test's CliRunner) keeps its collector as it was."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(name)
    finally:
        gc.freeze()
        if collecting:
            gc.enable()


def one_line_usage_error(exc: click.UsageError) -> str:
    """``error: <command>: <what was wrong> (see '<command> --help')`` on a single line."""
    command = exc.ctx.command_path if exc.ctx else "leishen"
    message = " ".join(exc.format_message().split())
    return f"error: {command}: {message} (see '{command} --help')"


def bypass_cache(ctx: click.Context) -> None:
    """Set ``LEISHEN_NO_CACHE=1`` for this command (and the processes it starts), as it was again after it."""
    before = os.environ.get("LEISHEN_NO_CACHE")
    os.environ["LEISHEN_NO_CACHE"] = "1"

    def restore():
        if before is None:
            os.environ.pop("LEISHEN_NO_CACHE", None)
        else:
            os.environ["LEISHEN_NO_CACHE"] = before
    ctx.call_on_close(restore)


@click.group(name="leishen", cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="leishen")
@click.option("--no-cache", is_flag=True,
              help="neither read nor write the compiled graph and reader kept in the cache folder "
                   "($LEISHEN_CACHE_DIR, else $XDG_CACHE_HOME/leishen or ~/.cache/leishen); also LEISHEN_NO_CACHE=1")
@click.pass_context
def main(ctx, no_cache):
    """leishen (類神): the cited correspondence graph of Da Liu Ren, Qimen Dunjia and the Nine Stars."""
    if no_cache:
        bypass_cache(ctx)


if __name__ == "__main__":
    main()
