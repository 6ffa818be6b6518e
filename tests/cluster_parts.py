"""The real parts a cluster of zxcards servers is made of, started on loopback for a test: a
throwaway PostgreSQL cluster (Debian's `initdb` and `pg_ctl`, in a temporary folder, as the
`postgres` user when the tests run as root, which PostgreSQL refuses to run as) and HAProxy with
the repository's own `deploy/haproxy.cfg`. Each says why it can't be had (`missing`), so that a
test is skipped saying so."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent
HAPROXY_CONFIG = REPOSITORY / "deploy" / "haproxy.cfg"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, seconds: float = 20.0, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} ended ({process.returncode}) before it listened on {port}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listened on port {port} within {seconds} s")


def postgres_binaries() -> Path | None:
    """The newest PostgreSQL server installed the Debian way, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda path: int(path.split("/")[4]))
    return Path(found[-1]).parent if found else None


def postgres_missing() -> str | None:
    """Why a throwaway PostgreSQL can't be started here, or None when it can."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgresql]')"
    if postgres_binaries() is None:
        return "PostgreSQL is not installed (apt-get install postgresql: /usr/lib/postgresql/*/bin/initdb)"
    if os.getuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root with no postgres user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root without runuser to run PostgreSQL as the postgres user"
    return None


def haproxy_missing() -> str | None:
    return None if shutil.which("haproxy") else "HAProxy is not installed (apt-get install haproxy)"


class Postgres:
    """A PostgreSQL cluster of its own in a temporary folder, on a free loopback port, trusting
    local connections (nothing else can reach it); `url` connects to it; `stop()` ends it and
    removes the folder."""

    def __init__(self):
        binaries = postgres_binaries()
        self.folder = Path(tempfile.mkdtemp(prefix="zxcards-pg-"))
        self.port = free_port()
        self.as_user: list[str] = []
        if os.getuid() == 0:  # PostgreSQL will not run as root
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        data = self.folder / "data"
        self.pg_ctl = [*self.as_user, str(binaries / "pg_ctl"), "-D", str(data)]
        subprocess.run(
            [
                *self.as_user,
                str(binaries / "initdb"),
                "-D",
                str(data),
                "-A",
                "trust",
                "-U",
                "zxcards",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale",
                "C",
            ],
            check=True,
            capture_output=True,
        )
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off"
        subprocess.run(
            [*self.pg_ctl, "-o", options, "-l", str(self.folder / "log"), "-w", "-t", "60", "start"],
            check=True,
            capture_output=True,
        )
        self.url = f"postgresql://zxcards@127.0.0.1:{self.port}/postgres"

    def new_database(self, name: str) -> str:
        """A fresh database `name` in this cluster: its URL."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql://zxcards@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        subprocess.run([*self.pg_ctl, "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)


class Server:
    """`zxcards serve --port P` (with `--database URL` when given) as a process of its own."""

    def __init__(self, data_dir: Path, database: str | None, port: int | None = None):
        self.port = port or free_port()
        command = [sys.executable, "-m", "games", "serve", "--port", str(self.port), "--data-dir", str(data_dir)]
        if database:
            command += ["--database", database]
        environment = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        self.log = open(data_dir.parent / f"serve-{self.port}.log", "wb")
        self.process = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT, env=environment, cwd=REPOSITORY
        )
        wait_for_port(self.port, process=self.process)

    def kill(self) -> None:
        """SIGKILL: the server ends at once, as a machine that dies does."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Haproxy:
    """HAProxy with `deploy/haproxy.cfg`, listening on a free port, its servers the given ports
    (the configuration reads them from the environment, as the docs show)."""

    def __init__(self, folder: Path, ports: list[int]):
        self.port, self.stats_port = free_port(), free_port()
        environment = {
            **os.environ,
            "ZXCARDS_LISTEN": f"127.0.0.1:{self.port}",
            "ZXCARDS_SERVER_1": f"127.0.0.1:{ports[0]}",
            "ZXCARDS_SERVER_2": f"127.0.0.1:{ports[1]}",
            "ZXCARDS_STATS": f"127.0.0.1:{self.stats_port}",
        }
        self.log = open(folder / "haproxy.log", "wb")
        self.process = subprocess.Popen(
            ["haproxy", "-db", "-f", str(HAPROXY_CONFIG)], stdout=self.log, stderr=subprocess.STDOUT, env=environment
        )
        wait_for_port(self.port, process=self.process)

    def servers(self, backend: str) -> dict[str, dict[str, str]]:
        """HAProxy's own account of `backend`'s servers (its stats as CSV): by name, each server's
        `status` (UP, DOWN, ...), `scur` (connections now) and `stot` (connections so far)."""
        import csv
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{self.stats_port}/;csv", timeout=5) as answer:
            rows = list(csv.DictReader(answer.read().decode().lstrip("# ").splitlines()))
        return {
            row["svname"]: row
            for row in rows
            if row["pxname"] == backend and row["svname"] not in ("FRONTEND", "BACKEND")
        }

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.log.close()
