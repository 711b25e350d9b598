"""The project's binaries on a temporary database, for the browser tests: tweetie-db (sync, delete,
feed) and tweetie-serve. make test-browser builds them and sets TWEETIE_BIN to their directory."""

import json
import os
import pathlib
import queue
import shutil
import signal
import subprocess
import tempfile
import threading

import pytest

import browser

NOW = "2018-12-14T12:00:00Z"
SEED = "7"


def binaries(names=("tweetie-db", "tweetie-serve")):
    configured = os.environ.get("TWEETIE_BIN")
    directory = pathlib.Path(configured) if configured else browser.REPOSITORY / ".build" / "debug"
    paths = {name: directory / name for name in names}
    missing = [str(path) for path in paths.values() if not path.is_file()]
    if missing and not configured:
        pytest.skip(f"end-to-end tests need {', '.join(missing)}: run make test-browser (it builds them)")
    assert not missing, f"TWEETIE_BIN={configured} lacks {', '.join(missing)}"
    return paths


class Follower:
    """A `feed … --follow` process whose lines are read by a thread."""

    def __init__(self, arguments, log):
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=log, text=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)

    def next_message(self, timeout):
        """The next message, or None when none comes within `timeout` seconds."""
        try:
            return json.loads(self.lines.get(timeout=timeout))
        except queue.Empty:
            return None

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


class Served:
    """A temporary database, the CLI on it, and tweetie-serve following it."""

    def __init__(self, needs=("tweetie-db", "tweetie-serve")):
        self.bin = binaries(needs)
        self.directory = pathlib.Path(tempfile.mkdtemp(prefix="tweetie-browser-"))
        self.db = str(self.directory / "db")
        self.port = 0
        self.server = None
        self.log = open(self.directory / "serve.log", "w")

    def cli(self, *arguments):
        result = subprocess.run([str(self.bin["tweetie-db"]), *arguments, "--db", self.db],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"tweetie-db {' '.join(arguments)}: {result.stderr}"
        return result.stdout

    def sync(self, ticks, seed=SEED):
        return self.cli("sync", "--simulated", "--seed", str(seed), "--ticks", str(ticks))

    def delete(self, tweet_id):
        return self.cli("tweets", "delete", "--force", tweet_id)

    def feed(self, *feed, limit=100):
        """The sections `feed … --once` prints at the page's reference time, in the window the page
        asks for first (tweetie-serve's default) unless `limit` says otherwise."""
        return json.loads(self.cli("feed", *feed, "--once", "--limit", str(limit), "--now", NOW))["sections"]

    def follow(self, *feed, limit=100):
        """`feed … --follow` at the page's reference time, in the page's first window."""
        return Follower([str(self.bin["tweetie-db"]), "feed", *feed, "--follow", "--limit", str(limit), "--now", NOW, "--db", self.db],
                        self.log)

    def start(self):
        self.server = subprocess.Popen(
            [str(self.bin["tweetie-serve"]), "--db", self.db, "--port", str(self.port), "--now", NOW],
            stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.server.stdout.readline()
        assert "listening on http://" in line, f"tweetie-serve did not start: {line!r}; see {self.log.name}"
        self.url = line.split("listening on ")[1].split()[0]
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])

    def stop(self):
        self.server.send_signal(signal.SIGTERM)
        assert self.server.wait(timeout=20) == 0, "tweetie-serve did not exit 0 on SIGTERM"
        self.server.stdout.close()

    def close(self):
        if self.server and self.server.poll() is None:
            self.server.kill()
            self.server.wait()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)
