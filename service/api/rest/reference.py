"""The reference page of the REST API, ``/api/v1/docs`` (served by ``discovery``), and its
stylesheet, ``/api/v1/docs/reference.css``.

``reference`` renders an OpenAPI document (the one ``/api/v1/openapi.json`` serves) as plain
HTML: the operations by tag (their parameters, bodies with examples, responses and the data of
an event stream's events), then every schema, each type a link to its schema. No script,
nothing from another host, no inline style (``STYLESHEET`` is served by this server), so the
page satisfies the pages' Content-Security-Policy (``service.api.security_headers``).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

#: where the REST API is mounted (``service.asgi``); the links of the index are absolute
ROOT = "/api/v1"
#: the methods of an OpenAPI path item, in the order the page lists them
METHODS = ("get", "post", "put", "patch", "delete")


def text(value: Any) -> str:
    """Escaped text, its `code` spans as ``<code>``."""
    escaped = html.escape(str(value))
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)


def anchor(*parts: str) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9]+", "-", p).strip("-").lower() for p in parts)


def type_of(schema: dict[str, Any]) -> str:
    """A schema in a few words of HTML: a component's name as a link, ``list of``...,
    the branches of a union, an enum's values."""
    if "$ref" in schema:
        name = schema["$ref"].rpartition("/")[2]
        return f'<a href="#schema-{anchor(name)}">{html.escape(name)}</a>'
    for union in ("oneOf", "anyOf"):
        if union in schema:
            branches = [b for b in schema[union] if b.get("type") != "null"]
            nullable = len(branches) < len(schema[union])
            shown = " | ".join(
                html.escape(b["title"]) if "title" in b and "properties" in b else type_of(b)
                for b in branches
            )
            return shown + (" | null" if nullable else "")
    if "const" in schema:
        return f"<code>{html.escape(json.dumps(schema['const']))}</code>"
    if "enum" in schema:
        return " | ".join(f"<code>{html.escape(json.dumps(v))}</code>" for v in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        return "list of " + type_of(schema.get("items", {}))
    if kind == "object" and "additionalProperties" in schema:
        values = schema["additionalProperties"]
        if isinstance(values, dict) and values:
            return "map of " + type_of(values)
    if isinstance(kind, list):
        return " | ".join(html.escape(str(k)) for k in kind)
    shown = html.escape(str(kind or "any"))
    if schema.get("format"):
        shown += f" ({html.escape(schema['format'])})"
    return shown


def parameters(operation: dict[str, Any]) -> str:
    rows = "".join(
        f"<tr><td><code>{html.escape(p['name'])}</code></td><td>{html.escape(p['in'])}</td>"
        f"<td>{type_of(p.get('schema', {}))}</td><td>{'yes' if p.get('required') else ''}</td>"
        f"<td>{text(p.get('description', ''))}</td></tr>"
        for p in operation.get("parameters", ())
    )
    if not rows:
        return ""
    head = "<tr><th>Name</th><th>In</th><th>Type</th><th>Required</th><th>Meaning</th></tr>"
    return f"<h4>Parameters</h4><table>{head}{rows}</table>"


def body(operation: dict[str, Any]) -> str:
    request = operation.get("requestBody")
    if request is None:
        return ""
    parts = ["<h4>Body</h4>"]
    for media_type, media in request.get("content", {}).items():
        parts.append(
            f"<p><code>{html.escape(media_type)}</code>: {type_of(media.get('schema', {}))}</p>"
        )
        for example in media.get("examples", {}).values():
            shown = html.escape(json.dumps(example.get("value"), indent=2, ensure_ascii=False))
            parts.append(
                f"<details><summary>Example: {text(example.get('summary', ''))}</summary>"
                f"<pre>{shown}</pre></details>"
            )
    return "".join(parts)


def responses(operation: dict[str, Any]) -> str:
    rows = []
    for status, response in operation.get("responses", {}).items():
        content = response.get("content", {})
        shown = "; ".join(
            f"<code>{html.escape(media_type)}</code> {type_of(media.get('schema', {}))}"
            + "".join(
                f", <code>{html.escape(name)}</code> events: {type_of(data)}"
                for name, data in media.get("x-event-data", {}).items()
            )
            for media_type, media in content.items()
        )
        rows.append(
            f"<tr><td>{html.escape(status)}</td><td>{text(response.get('description', ''))}"
            f"</td><td>{shown}</td></tr>"
        )
    head = "<tr><th>Status</th><th>Meaning</th><th>Body</th></tr>"
    return f"<h4>Responses</h4><table>{head}{''.join(rows)}</table>"


def operation_section(path: str, method: str, operation: dict[str, Any]) -> str:
    ident = operation.get("operationId", anchor(method, path))
    description = operation.get("description")
    return (
        f'<section class="operation" id="op-{anchor(ident)}">'
        f'<h3><span class="method {method}">{method.upper()}</span> '
        f"<code>{html.escape(ROOT + path)}</code></h3>"
        f'<p class="summary">{text(operation.get("summary", ""))} '
        f'<span class="operation-id">({html.escape(ident)})</span></p>'
        + (f"<p>{text(description)}</p>" if description else "")
        + parameters(operation)
        + body(operation)
        + responses(operation)
        + "</section>"
    )


def schema_section(name: str, schema: dict[str, Any]) -> str:
    required = set(schema.get("required", ()))
    rows = "".join(
        f"<tr><td><code>{html.escape(member)}</code></td><td>{type_of(spec)}</td>"
        f"<td>{'yes' if member in required else ''}</td>"
        f"<td>{text(spec.get('description', ''))}</td></tr>"
        for member, spec in schema.get("properties", {}).items()
    )
    table = (
        "<table><tr><th>Member</th><th>Type</th><th>Required</th><th>Meaning</th></tr>"
        f"{rows}</table>"
        if rows
        else f"<p>{type_of(schema)}</p>"
    )
    description = schema.get("description")
    return (
        f'<section class="schema" id="schema-{anchor(name)}"><h3>{html.escape(name)}</h3>'
        + (f"<p>{text(description)}</p>" if description else "")
        + table
        + "</section>"
    )


def reference(doc: dict[str, Any]) -> str:
    """The reference page of an OpenAPI document: its operations by tag, then its schemas."""
    by_tag: dict[str, list[str]] = {tag["name"]: [] for tag in doc.get("tags", ())}
    tag_words = {tag["name"]: tag.get("description", "") for tag in doc.get("tags", ())}
    contents: dict[str, list[tuple[str, str]]] = {}
    for path, item in doc["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            tag = (operation.get("tags") or ["other"])[0]
            by_tag.setdefault(tag, []).append(operation_section(path, method, operation))
            ident = operation.get("operationId", anchor(method, path))
            contents.setdefault(tag, []).append(
                (f"#op-{anchor(ident)}", f"{method.upper()} {path}")
            )
    toc = "".join(
        f'<li><a href="#tag-{anchor(tag)}">{html.escape(tag)}</a><ul>'
        + "".join(f'<li><a href="{href}">{html.escape(label)}</a></li>' for href, label in links)
        + "</ul></li>"
        for tag, links in contents.items()
    )
    operations = "".join(
        f'<section class="tag" id="tag-{anchor(tag)}"><h2>{html.escape(tag)}</h2>'
        f"<p>{text(tag_words.get(tag, ''))}</p>{''.join(sections)}</section>"
        for tag, sections in by_tag.items()
        if sections
    )
    schemas = "".join(
        schema_section(name, schema)
        for name, schema in sorted(doc.get("components", {}).get("schemas", {}).items())
    )
    info = doc["info"]
    title = html.escape(f"{info['title']} {info.get('version', '')}".strip())
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{title}</title><link rel="icon" href="data:,">'
        f'<link rel="stylesheet" href="{ROOT}/docs/reference.css"></head><body>'
        f"<header><h1>{title}</h1><p>{text(info.get('description', ''))}</p>"
        f'<p>The machine-readable document: <a href="{ROOT}/openapi.json">{ROOT}/openapi.json'
        f"</a> (OpenAPI {html.escape(doc.get('openapi', ''))}). The index of links: "
        f'<a href="{ROOT}/">{ROOT}/</a>. GraphQL: <a href="/graphql">/graphql</a>.</p>'
        "</header>"
        f'<nav><h2>Operations</h2><ul>{toc}</ul><p><a href="#schemas">Schemas</a></p></nav>'
        f"<main>{operations}"
        f'<section id="schemas"><h2>Schemas</h2>{schemas}</section></main>'
        "</body></html>\n"
    )


#: the page's stylesheet (kept in the module: it ships wherever the code does)
STYLESHEET = """\
:root { color-scheme: light dark; --line: #8884; --muted: #888; }
body { font: 15px/1.5 system-ui, sans-serif; margin: 0; display: grid;
  grid-template-columns: minmax(14em, 20em) 1fr; }
header { grid-column: 1 / -1; padding: 1em 2em; border-bottom: 1px solid var(--line); }
nav { padding: 0 1em 2em 2em; border-right: 1px solid var(--line); font-size: 13px;
  position: sticky; top: 0; align-self: start; max-height: 100vh; overflow: auto; }
nav ul { padding-left: 1em; }
main { padding: 0 2em 4em; min-width: 0; }
h1 { margin: 0 0 .3em; }
section.operation, section.schema { border-top: 1px solid var(--line); padding: .5em 0; }
h3 code { font-size: 1em; }
.method { display: inline-block; min-width: 4.5em; padding: 0 .4em; border-radius: 4px;
  font: bold 12px/1.8 ui-monospace, monospace; text-align: center; color: #fff;
  background: #667; }
.method.get { background: #1b6ac9; }
.method.post { background: #16803c; }
.method.delete { background: #b42318; }
.summary { font-weight: 600; }
.operation-id { color: var(--muted); font-weight: normal; }
table { border-collapse: collapse; margin: .3em 0 1em; width: 100%; }
th, td { border: 1px solid var(--line); padding: .2em .5em; text-align: left;
  vertical-align: top; }
code, pre { font-family: ui-monospace, monospace; font-size: 13px; }
pre { background: #8881; padding: .5em; overflow: auto; }
@media (max-width: 800px) { body { display: block; } nav { position: static; } }
"""
