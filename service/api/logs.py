"""The log lines' formats: JSON (one object a line) or plain text, with secrets masked.

What each request's line holds is decided in ``service.api.observability``.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

#: what must never reach a log line, whoever logs it: bearer tokens and passwords in URLs
SECRETS = (
    (re.compile(r"(?i)(bearer\s+)[^\s\"',;]+"), r"\1***"),
    (re.compile(r"(://[^/\s:@]*:)[^@/\s]+@"), r"\1***@"),
)
LOG_FORMATS = ("text", "json")


def redact(text: str) -> str:
    for pattern, replacement in SECRETS:
        text = pattern.sub(replacement, text)
    return text


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields = getattr(record, "fields", None)
    return fields if isinstance(fields, dict) else {}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the request's fields, and the
    traceback of an exception."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(_fields(record))
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return redact(json.dumps(line, default=str, ensure_ascii=False))


class TextFormatter(logging.Formatter):
    """For a person at a terminal: ``12:00:01 INFO  papyrus.request POST /graphql 200 act
    request_id=... duration_ms=3.1 ...`` (the fields that have a value)."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-5s %(name)s %(message)s", "%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        shown = " ".join(
            f"{key}={value}"
            for key, value in _fields(record).items()
            if value is not None and key not in ("method", "path", "status", "operation")
        )
        return redact(f"{text} {shown}" if shown else text)


def formatter(log_format: str) -> logging.Formatter:
    return JsonFormatter() if log_format == "json" else TextFormatter()


#: uvicorn's log level names
LEVELS = {"critical": 50, "error": 40, "warning": 30, "info": 20, "debug": 10, "trace": 5}


def logging_config(log_format: str, log_level: str) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of a server process (uvicorn applies it): every
    logger, uvicorn's and the libraries' included, writes ``log_format`` lines to stderr.
    uvicorn's access log is off: ``papyrus.request`` logs each request instead."""
    level = LEVELS[log_level]
    chosen = {"()": f"{__name__}.{'JsonFormatter' if log_format == 'json' else 'TextFormatter'}"}
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "default",
        "stream": "ext://sys.stderr",
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": chosen, "access": chosen},
        "handlers": {"default": handler},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": [], "level": level, "propagate": False},
            "papyrus": {"handlers": ["default"], "level": level, "propagate": False},
        },
        "root": {"handlers": ["default"], "level": max(level, logging.WARNING)},
    }
