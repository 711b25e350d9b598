"""Shared pieces of the browser tests: headless Chromium through Selenium (Debian's chromium and
chromium-driver), reading the page's rows from the DOM, and its console."""

import json
import os
import pathlib
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

REPOSITORY = pathlib.Path(__file__).resolve().parents[2]
PAGE = REPOSITORY / "Sources" / "TweetieServe" / "Page"
ARTIFACTS = pathlib.Path(os.environ.get("TWEETIE_BROWSER_ARTIFACTS", REPOSITORY / ".build" / "browser-tests"))

# What the page shows, read from the DOM only: live sections (not fading out) and their live rows.
READ_DOM = """
const text = (node, selector) => { const found = node.querySelector(selector); return found ? found.textContent : ""; };
return Array.from(document.querySelectorAll("#feed > .section:not(.leaving)")).map((section) => ({
  key: section.dataset.key,
  title: text(section, ".section-title"),
  classes: section.className,
  rows: Array.from(section.querySelectorAll(".rows > .row:not(.leaving)")).map((row) => ({
    id: row.dataset.id, name: text(row, ".name"), handle: text(row, ".handle"), time: text(row, ".time"),
    text: text(row, ".text"), initials: text(row, ".initials"), classes: row.className,
  })),
}));
"""


def chromium(width=900, height=1400):
    """A headless Chromium that keeps the page's console (every level)."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(options=options, service=service)


def shown(driver):
    return driver.execute_script(READ_DOM)


def timeline_fields(row):
    """A tweet row of the feed as the page displays it."""
    return {"id": row["id"], "name": row["author"], "handle": row["handle"], "time": row["relativeTime"], "text": row["text"]}


def person_fields(row):
    """A person row of the feed as the page displays it."""
    return {"id": row["id"], "name": row["name"], "handle": row["handle"], "time": "", "text": row["about"]}


def displayed(sections, fields=timeline_fields):
    """The feed's sections reduced to what the DOM reading returns (without classes)."""
    return [{"key": s["key"], "title": s["title"], "rows": [fields(row) for row in s["rows"]]} for s in sections]


def without_classes(dom):
    return [{"key": s["key"], "title": s["title"],
             "rows": [{k: v for k, v in row.items() if k not in ("classes", "initials")} for row in s["rows"]]}
            for s in dom]


def wait_for(condition, timeout=15.0, interval=0.05, message="condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {message}")
        time.sleep(interval)


def sequence(driver):
    return driver.execute_script("return document.getElementById('feed').dataset.sequence || null;")


def wait_for_sequence(driver, value, timeout=15.0):
    wait_for(lambda: sequence(driver) == str(value), timeout, message=f"the page to reach sequence {value} (it shows {sequence(driver)})")


def self_check(driver):
    """(messages checked, mismatches, mismatch texts) of the page's ?verify=1 self-check."""
    return driver.execute_script("""
const verify = document.getElementById("verify");
return [Number(verify.dataset.checked || 0), Number(verify.dataset.mismatches || 0),
        Array.from(document.querySelectorAll("#verify-mismatches li")).map((li) => li.textContent)];
""")


def console(driver):
    """The console entries logged since the last call."""
    return driver.get_log("browser")


def errors(entries):
    return [entry for entry in entries if entry.get("level") == "SEVERE"]


def screenshot(driver, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    driver.save_screenshot(str(path))
    return path


def dump(value):
    return json.dumps(value, ensure_ascii=False, indent=1)[:4000]
