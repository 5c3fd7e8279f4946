"""Settings in one place: declared once, read once (option over variable over default), a bad
value is a usage error, ``--help`` lists them all, and nothing else reads the environment."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from service import cli
from service.readmodels import ReadModels
from service.settings import DEFAULTS, SPECS, Settings
from service.store.database import Database, StoreOptions, masked, open_store

ROOT = Path(__file__).resolve().parents[3]


def test_defaults_without_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPYRUS_PORT", "9999")
    monkeypatch.setenv("DATABASE_URL", "postgresql://elsewhere/db")
    settings = Settings()
    assert settings.port == 8000 and settings.database_url == "sqlite:///papyrus.sqlite"
    assert settings == Settings.from_environment({}, [])
    assert (
        Settings(database_url="sqlite:///x.sqlite", run_projections=False).run_projections is False
    )
    assert settings.store_options == StoreOptions()
    assert DEFAULTS["projection_batch"] == 200 and DEFAULTS["sqlite_lock_timeout"] == 30
    with pytest.raises(ValueError, match="port"):
        Settings(port=0)
    with pytest.raises(ValueError, match="database_url: unknown database URL scheme"):
        Settings(database_url="mysql://root:secret@db/papyrus")


def test_option_over_variable_over_default() -> None:
    environ = {
        "PAPYRUS_PORT": "9001",
        "PAPYRUS_HOST": "0.0.0.0",
        "PAPYRUS_WORKERS": "4",
        "PAPYRUS_ALLOWED_ORIGINS": "https://a.example, https://b.example,",
        "PAPYRUS_RUN_PROJECTIONS": "no",
        "PAPYRUS_POOL_SIZE": "",  # empty: as if unset
        "PAPYRUS_LOG_LEVEL": "WARNING",
        "PAPYRUS_PROJECTION_BATCH": "7",
    }
    settings = Settings.from_environment(environ, ["--port", "9002", "--projections"])
    assert settings.port == 9002  # the option wins
    assert settings.run_projections is True
    assert settings.host == "0.0.0.0" and settings.workers == 4  # the variables
    assert settings.allowed_origins == ("https://a.example", "https://b.example")
    assert settings.log_level == "warning" and settings.projection_batch == 7
    assert settings.pool_size == 10 and settings.connect_timeout == 2  # the defaults
    assert Settings.from_environment(environ, ["--no-projections"]).run_projections is False
    assert Settings.from_environment({}, ["--no-projections"]).run_projections is False
    assert Settings.from_environment({"PAPYRUS_RUN_PROJECTIONS": "0"}).run_projections is False
    assert Settings.from_environment({"PAPYRUS_RUN_PROJECTIONS": "1"}).run_projections is True


def test_projections_take_the_database_settings_only() -> None:
    environ = {"PAPYRUS_WORKERS": "not read here", "PAPYRUS_SQLITE_LOCK_TIMEOUT": "5"}
    settings = Settings.from_environment(
        environ, ["--database-url", "sqlite:///p.sqlite", "--projection-batch", "3"], "projections"
    )
    assert settings.database_url == "sqlite:///p.sqlite" and settings.projection_batch == 3
    assert settings.sqlite_lock_timeout == 5 and settings.workers == 16
    assert settings.database == Database("sqlite:///p.sqlite", StoreOptions(sqlite_lock_timeout=5))
    with pytest.raises(SystemExit):
        Settings.from_environment({}, ["--workers", "2"], "projections")


def test_the_values_reach_the_store_and_the_read_models(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'options.sqlite'}"
    options = StoreOptions(pool_size=3, connect_timeout=1, sqlite_lock_timeout=7)
    assert Database(url, options).env()["SQLITE_LOCK_TIMEOUT"] == "7"
    postgres = Database("postgresql://u:p@h:5433/d", options).env()
    assert postgres["POSTGRES_POOL_SIZE"] == "3" and postgres["POSTGRES_CONNECT_TIMEOUT"] == "1"
    assert postgres["POSTGRES_PORT"] == "5433" and postgres["POSTGRES_PASSWORD"] == "p"
    store = open_store(url, options)
    models = ReadModels(store, Database(url, options), batch=5)
    try:
        assert models.batch == 5
    finally:
        models.close()
        store.close()


def test_help_lists_every_setting_with_its_variable_and_default() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    for name, spec in SPECS.items():
        assert spec.env in flat, name
        assert spec.flag in flat, name
        shown = spec.shown if spec.shown is not None else str(DEFAULTS[name])
        assert f"default {shown}" in flat, name
    assert "--no-projections" in flat


def usage_error(
    capsys: pytest.CaptureFixture[str], argv: list[str], environ: dict[str, str] | None = None
) -> str:
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv, environ or {})
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_bad_values_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    err = usage_error(capsys, ["serve", "--log-level", "loud"])
    assert (
        "argument --log-level: must be one of critical, error, warning, info, debug, trace" in err
    )
    err = usage_error(capsys, ["serve"], {"PAPYRUS_LOG_LEVEL": "verbose"})
    assert "PAPYRUS_LOG_LEVEL" in err and "must be one of" in err
    err = usage_error(capsys, ["serve"], {"PAPYRUS_WORKERS": "many"})
    assert "usage: papyrus serve" in err
    assert "PAPYRUS_WORKERS: invalid integer value: 'many'" in err
    err = usage_error(capsys, ["serve", "--port", "eighty"])
    assert "argument --port: invalid integer value: 'eighty'" in err
    err = usage_error(capsys, ["serve"], {"PAPYRUS_PORT": "70000"})
    assert "PAPYRUS_PORT: must be between 1 and 65535, not 70000" in err
    err = usage_error(capsys, ["serve"], {"PAPYRUS_RUN_PROJECTIONS": "maybe"})
    assert "PAPYRUS_RUN_PROJECTIONS" in err
    err = usage_error(capsys, ["projections", "status"], {"PAPYRUS_PROJECTION_BATCH": "0"})
    assert "usage: papyrus projections" in err and "must be at least 1" in err


def test_a_bad_workers_variable_is_a_usage_error_in_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "serve"],
        cwd=ROOT,
        env={"PAPYRUS_WORKERS": "sixteen", "PATH": "", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "PAPYRUS_WORKERS: invalid integer value: 'sixteen'" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_database_scheme_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, environ in [
        (["serve", "--database-url", "mysql://root:hunter2@db/papyrus"], {}),
        (["serve"], {"DATABASE_URL": "mysql://root:hunter2@db/papyrus"}),
        (["projections", "status", "--database-url", "mysql://root:hunter2@db/papyrus"], {}),
    ]:
        err = usage_error(capsys, argv, environ)
        assert "unknown database URL scheme 'mysql'" in err
        assert "hunter2" not in err and "root:***@db" in err
    err = usage_error(capsys, ["serve", "--database-url", "papyrus.sqlite"])
    assert "not a database URL" in err
    with pytest.raises(ValueError, match="unknown database URL scheme"):
        Database("mysql://db/papyrus")
    with pytest.raises(ValueError, match="unknown database URL scheme"):
        open_store("sqlite3:///papyrus.sqlite")


def test_the_banner_masks_the_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    import service.asgi

    seen: dict[str, Any] = {}
    monkeypatch.setattr(service.asgi, "create_app", lambda settings: seen.setdefault("s", settings))
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: seen.update(kwargs))
    url = "postgresql://papyrus:s3cret%40pw@db.example:5432/papyrus"
    assert cli.main(["serve", "--port", "8123", "--log-level", "debug"], {"DATABASE_URL": url}) == 0
    out = capsys.readouterr().out
    assert "s3cret" not in out
    assert "postgresql://papyrus:***@db.example:5432/papyrus" in out
    assert "http://127.0.0.1:8123/graphql" in out
    assert seen["s"].database_url == url
    listen = {k: seen.get(k) for k in ("host", "port", "log_level")}
    assert listen == {"host": "127.0.0.1", "port": 8123, "log_level": "debug"}
    # the app reads X-Forwarded-For itself (service.api.forwarded), not uvicorn
    assert seen["proxy_headers"] is False and "forwarded_allow_ips" not in seen
    assert seen["s"].forwarded_allow_ips == ("127.0.0.1", "::1")


def test_masked() -> None:
    assert masked("postgresql://user:pw@host/db") == "postgresql://user:***@host/db"
    assert masked("postgres://user@host:5432/db") == "postgres://user@host:5432/db"
    assert masked("sqlite:///papyrus.sqlite") == "sqlite:///papyrus.sqlite"
    assert masked("postgresql://:pw@host/db") == "postgresql://:***@host/db"
    assert "pw" not in masked("postgresql://user:pw@host:notaport/db")


ENVIRONMENT = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def environment_reads(path: Path) -> list[str]:
    """Where a module reads the environment: ``os.environ``, ``os.getenv``, ``from os import
    environ``, whatever ``os`` is imported as."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    aliases = {"os"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name == "os"}
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            found += [f"{path}:{node.lineno}" for a in node.names if a.name in ENVIRONMENT]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in ENVIRONMENT
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
        ):
            found.append(f"{path}:{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_only_the_settings_read_the_environment() -> None:
    settings = ROOT / "service" / "settings" / "__init__.py"
    modules = [
        path
        for package in ("service", "domain", "projections")
        for path in sorted((ROOT / package).rglob("*.py"))
        if path != settings
    ]
    assert len(modules) > 20
    assert [read for path in modules for read in environment_reads(path)] == []
    assert environment_reads(settings)  # the scan does see them
