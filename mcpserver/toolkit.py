"""How the MCP server makes its tools: a typed signature from a model or a registry entry, a bad argument as one
line naming it (:class:`LeishenServer`, :func:`tool_errors`), an unknown argument refused
(:func:`forbid_unknown_arguments`)."""

from __future__ import annotations

import functools
import inspect
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError

from leishen.errors import LeishenError
from leishen.service.compact import compact_text
from leishen.service.requests import validation_message

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


class LeishenServer(MCPServer):
    """The SDK's server, whose argument-validation errors are one line naming the argument
    (``Error executing tool read: limit: Input should be greater than or equal to 1``) instead of pydantic's
    multi-line text, as the HTTP API answers a bad parameter."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if type(exc) is ToolError and isinstance(cause, ValidationError):
                raise ToolError(f"Error executing tool {name}: {validation_message(cause)}") from cause
            raise


def one_line(exc: Exception) -> str:
    """The first line of an error's text."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def compact_result(result):
    """A tool's dict answer as the SDK's result: the same data as structured content, and as text content the
    one-line JSON an assistant reads (:func:`leishen.service.compact.compact_text`: no indentation); anything
    else as it is."""
    if not isinstance(result, dict):
        return result
    return CallToolResult(content=[TextContent(type="text", text=compact_text(result))], structured_content=result)


def tool_errors(fn):
    """Turn a LeishenError (bad input) or a ValidationError into a ToolError, whose one-line message the client
    sees; anything else stays a crash, logged by the server. A dict answer's text content is compact JSON."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return compact_result(fn(*args, **kwargs))
        except LeishenError as exc:
            raise ToolError(one_line(exc)) from exc
        except ValidationError as exc:
            raise ToolError(validation_message(exc)) from exc
    return wrapper


def add(server: MCPServer, fn, name: str, description: str) -> None:
    """Register *fn* as the read-only tool *name* (its errors as one line)."""
    fn.__name__ = name
    server.add_tool(tool_errors(fn), name=name, description=description, annotations=READ_ONLY)


def signature(params, returns=dict[str, Any]) -> inspect.Signature:
    """A keyword-only signature the SDK turns into the tool's input schema; *params* are
    (name, annotation, default, description) tuples (default ``inspect.Parameter.empty``: required)."""
    return inspect.Signature([inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                                annotation=Annotated[kind, Field(description=description)])
                              for name, kind, default, description in params], return_annotation=returns)


def model_params(model: type[BaseModel]) -> list[tuple]:
    """One (name, annotation with its bounds, default, description) per field of *model*."""
    out = []
    for name, info in model.model_fields.items():
        default = inspect.Parameter.empty if info.is_required() else info.default
        if info.default_factory is not None:
            default = info.default_factory()
        kind = Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation
        out.append((name, kind, default, info.description))
    return out


def model_tool(server: MCPServer, name: str, model: type[BaseModel], run, description: str) -> None:
    """A tool whose arguments are the fields of *model*; *run* gets the validated model."""
    def tool(**values):
        return run(model(**values))

    tool.__signature__ = signature(model_params(model), inspect.signature(run, eval_str=True).return_annotation)
    add(server, tool, name, description)


def forbid_unknown_arguments(server: MCPServer) -> None:
    """Make every tool refuse an argument it does not take (a tool error naming it), as the HTTP API refuses
    an unknown parameter: the SDK's argument models ignore extra keys, so each is replaced by a subclass that
    forbids them, and the input schema says so (``additionalProperties: false``). This reaches the pinned
    SDK's tool registry (``_tool_manager``); tests/mcp prove it still does."""
    for tool in server._tool_manager.list_tools():
        loose = tool.fn_metadata.arg_model
        strict = type(f"Strict{loose.__name__}", (loose,), {"model_config": {**loose.model_config, "extra": "forbid"}})
        tool.fn_metadata.arg_model = strict
        tool.parameters["additionalProperties"] = False
