"""Each chart option declared once (issue #37 item 5): engine/options.csv drives the CLI help, /openapi.json, the MCP
tool schema and the web page's option panel. Nothing is listed here by hand: every row of the table is looked for
at each door, with its type (choices or bounds) and default, and each door lists no school option the table does
not have. A bad value is refused at each door naming the option and its choices."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest
from click.testing import CliRunner
from mcp import Client
from mcp.client.stdio import StdioServerParameters

import click

from leishen.cli.main import main as cli
from leishen.engine.options import options

TABLE = options()
NAMES = {spec.name for spec in TABLE}
MCP = StdioServerParameters(command=sys.executable, args=["-m", "leishen.mcpserver"],
                            env={k: v for k, v in os.environ.items() if k.startswith("LEISHEN_")})


def expected(spec) -> dict:
    """What every door should say of one option: its type, its choices or bounds, its default."""
    if spec.kind == "choice":
        return {"type": "string", "enum": list(spec.values), "default": spec.default}
    return {"type": "integer", "minimum": spec.low, "maximum": spec.high, "default": spec.default}


def from_schema(schema: dict) -> dict:
    """The type, choices or bounds and default of a JSON schema property (OpenAPI's or MCP's)."""
    out = {"type": schema.get("type"), "default": schema.get("default")}
    if "enum" in schema:
        out["enum"] = schema["enum"]
    elif "const" in schema:  # a one-choice Literal
        out["enum"] = [schema["const"]]
    for key in ("minimum", "maximum"):
        if key in schema:
            out[key] = schema[key]
    return out


def command(name: str) -> click.Command:
    """The CLI's subcommand *name* (the group loads each on first use)."""
    return cli.get_command(click.Context(cli), name)


def from_click(param) -> dict:
    """The same, read from a click option."""
    if isinstance(param.type, click.Choice):
        return {"type": "string", "enum": list(param.type.choices), "default": param.default}
    assert isinstance(param.type, click.IntRange), param.name
    return {"type": "integer", "minimum": param.type.min, "maximum": param.type.max, "default": param.default}


@pytest.mark.parametrize("name", ["chart", "read"])
def test_cli_flags_and_help(name):
    params = {p.name: p for p in command(name).params}
    for spec in TABLE:
        assert from_click(params[spec.name]) == expected(spec), spec.name
        assert params[spec.name].opts == [spec.flag]
    shown = CliRunner().invoke(cli, [name, "--help"], terminal_width=200).output
    blocks = ("\n" + shown).split("\n  -")  # one block per option of the help, its text on one or more lines
    for spec in TABLE:
        block = " ".join(next(b for b in blocks if b.startswith(spec.flag[1:] + " ")).split())
        assert f"[default: {spec.default}" in block and " ".join(spec.doc.split()[:3]) in block, block
        if spec.kind == "choice":
            assert "[" + "|".join(spec.values) + "]" in block


@pytest.mark.parametrize("path", ["/charts", "/readings", "/views/reading"])
def test_openapi_parameters(client, path):
    spec_json = client.get("/openapi.json").json()
    params = {p["name"]: p for p in spec_json["paths"][path]["get"]["parameters"]}
    for spec in TABLE:
        assert from_schema(params[spec.name]["schema"]) == expected(spec), (path, spec.name)
        assert spec.doc in params[spec.name]["schema"].get("description", params[spec.name].get("description", ""))


def test_mcp_tool_schemas():
    async def listed():
        async with Client(MCP, read_timeout_seconds=120) as client:
            return await client.list_tools()

    tools = {t.name: t for t in asyncio.run(listed()).tools}
    for name in ("chart", "read"):
        properties = tools[name].input_schema["properties"]
        for spec in TABLE:
            assert from_schema(properties[spec.name]) == expected(spec), (name, spec.name)


def test_web_panel_data(client):
    """The rows the web page builds its panel from (web/options.js reads /views/options and nothing else)."""
    panel = {row["name"]: row for row in client.get("/views/options").json()}
    for spec in TABLE:
        row = panel[spec.name]
        got = {"type": {"choice": "string", "int": "integer"}[row["kind"]], "default": row["default"]}
        if row["kind"] == "choice":
            got["enum"] = [c["value"] for c in row["choices"]]
        else:
            got.update(minimum=row["min"], maximum=row["max"])
        assert got == expected(spec), spec.name
        assert row["system"] == spec.system and row["src"] == spec.src
        assert all(c["school"] and c["src"] for c in row["choices"])
    systems = {row.get("system") for row in panel.values()} - {None}
    assert {name for name, row in panel.items() if row.get("system")} == NAMES and systems == {"liuren", "qimen",
                                                                                             "ninestar"}


def test_web_page_builds_the_panel_from_that_data():
    from importlib.resources import files
    script = files("leishen.web").joinpath("options.js").read_text(encoding="utf-8")
    assert 'getJSON("/views/options")' in script
    assert not any(spec.name in script for spec in TABLE)  # no option named by hand in the page


def test_the_same_options_at_every_door(client):
    """No door offers a Qimen or Nine Star option the table lacks (``--qimen-opt KEY=VALUE`` takes the table's
    keys, checked by it)."""
    openapi = {p["name"] for p in client.get("/openapi.json").json()["paths"]["/charts"]["get"]["parameters"]}
    cli_names = {p.name for p in command("chart").params}
    assert NAMES <= openapi and NAMES <= cli_names
    assert not {n for n in openapi | cli_names if n.startswith(("qimen_", "ninestar_"))} - NAMES - {"qimen_opt", "ninestar_opt"}


@pytest.mark.parametrize("spec", [s for s in TABLE if s.kind == "choice"][::5], ids=lambda s: s.name)
def test_a_bad_value_is_refused_naming_the_option_and_its_choices(client, spec):
    result = CliRunner().invoke(cli, ["chart", "2026-12-01T10:00+09:00", spec.flag, "bogus"])
    assert result.exit_code == 2 and spec.flag in result.output and spec.values[0] in result.output
    answer = client.get("/charts", params={"moment": "2026-12-01T10:00+09:00", spec.name: "bogus"})
    assert answer.status_code == 422 and spec.name in answer.text and spec.values[-1] in answer.text

    async def called():
        async with Client(MCP, read_timeout_seconds=120) as mcp_client:
            return await mcp_client.call_tool("chart", {"moment": "2026-12-01T10:00+09:00", spec.name: "bogus"})

    result = asyncio.run(called())
    text = result.content[0].text
    assert result.is_error and spec.name in text and spec.values[-1] in text, text


def test_key_value_options_are_checked_by_the_table():
    result = CliRunner().invoke(cli, ["chart", "2026-12-01T10:00+09:00", "--qimen-opt", "method=bogus"])
    assert result.exit_code == 2 and "qimen.options.method: 'bogus' is not one of chai_bu, zhi_run" in result.output
    result = CliRunner().invoke(cli, ["chart", "2026-12-01T10:00+09:00", "--ninestar-opt", "day_flight=forward",
                                      "--qimen-leap-threshold", "10", "--qimen-method", "zhi_run", "--json"])
    assert result.exit_code == 0, result.output
    import json
    chart = json.loads(result.output)
    assert chart["ninestar"]["options"]["day_flight"] == "forward"
