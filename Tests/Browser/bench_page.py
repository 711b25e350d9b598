"""The page's benchmark (not a test; `make bench-page`): for each size n, a store of n list tweets
(generated, one minute apart, imported with `tweetie-db import`), a release `tweetie-serve` on it,
and headless Chromium opening the page: the time to its first paint of the default window, then
ten "load older" steps (scroll to the end, until the page holds the next window and painted it, by
the page's clock). Prints one line per size. TWEETIE_BIN is the directory of release tweetie-db
and tweetie-serve."""

import datetime
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import browser

LIST = "icanzilb/RxSwift"


def write_export(path, count):
    """An export file of `count` tweets of the list, newest last in the file."""
    base = datetime.datetime(2018, 12, 8, 12, 0, 0)
    header = {"collections": [{"count": count, "name": "tweets", "schemaVersion": 1}, {"count": 0, "name": "users", "schemaVersion": 1}],
              "format": "tweetie-db-export", "version": 1}
    with open(path, "w", encoding="utf-8") as out:
        out.write(json.dumps(header, separators=(",", ":"), sort_keys=True) + "\n")
        for i in range(1, count + 1):
            created = (base - datetime.timedelta(minutes=count - i)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            tweet_id = 1069000000000000000 + i
            record = {"authorId": 245901337, "authorIdStr": "245901337", "created": created, "favoriteCount": i % 50,
                      "id": tweet_id, "idStr": str(tweet_id), "imageURL": "", "isRetweet": False, "lang": "en", "lists": [LIST],
                      "name": "Chloé Martin", "retweetCount": i % 7, "text": f"tweet {i}: RxSwift, Realm and LMDB on Linux",
                      "username": "chloe_swift"}
            out.write(json.dumps({"collection": "tweets", "record": record}, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n")


# One "load older" step, timed by the page's own clock (a WebDriver round trip is 5–20 ms here, and
# polling through it measured the driver as much as the page): from the scroll to the end until the
# page holds the grown window's rows and has painted them (the first frame after they are in the DOM).
STEP = """
const [limit, want] = arguments;
const feed = document.getElementById('feed');
window.benchStep = null;
const begin = performance.now();
const done = () => Number(feed.dataset.limit || 0) >= limit && feed.querySelectorAll('.row').length === want;
const observer = new MutationObserver(() => {
  if (!done()) return;
  observer.disconnect();
  requestAnimationFrame(() => setTimeout(() => { window.benchStep = performance.now() - begin; }, 0));
});
observer.observe(feed, {childList: true, subtree: true, attributes: true, attributeFilter: ['data-limit']});
window.scrollTo(0, document.body.scrollHeight);
"""


def rows(driver):
    return driver.execute_script("return document.querySelectorAll('#feed .row').length")


def measure(binaries, count, steps, directory):
    export, db = directory / f"tweets-{count}.ndjson", directory / f"db-{count}"
    write_export(export, count)
    subprocess.run([str(binaries / "tweetie-db"), "import", str(export), "--db", str(db)], check=True, stdout=subprocess.DEVNULL)
    export.unlink()
    server = subprocess.Popen([str(binaries / "tweetie-serve"), "--db", str(db), "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        assert "listening on http://" in line, line
        url = line.split("listening on ")[1].split()[0]
        driver = browser.chromium(width=900, height=1100)
        try:
            begin = time.monotonic()
            driver.get(url)
            browser.wait_for(lambda: rows(driver) == min(100, count), timeout=120, interval=0.005, message="the first window")
            first_paint = time.monotonic() - begin
            step_times = []
            for step in range(1, steps + 1):
                want = min(100 * (step + 1), count)
                driver.execute_script(STEP, 100 * (step + 1), want)
                browser.wait_for(lambda: driver.execute_script("return window.benchStep") is not None, timeout=120, interval=0.02,
                                 message=f"window {step + 1}")
                step_times.append(driver.execute_script("return window.benchStep") / 1000)
        finally:
            driver.quit()
    finally:
        server.terminate()
        server.wait()
    return first_paint, step_times


def main():
    binaries = pathlib.Path(os.environ["TWEETIE_BIN"])
    sizes = [int(size) for size in os.environ.get("BENCH_PAGE_SIZES", "10000 100000 1000000").split()]
    steps = int(os.environ.get("BENCH_PAGE_STEPS", "10"))
    with tempfile.TemporaryDirectory(prefix="tweetie-bench-page-") as directory:
        for count in sizes:
            first_paint, step_times = measure(binaries, count, steps, pathlib.Path(directory))
            print(f"n = {count:,}: first paint {first_paint * 1000:.0f} ms; {steps} load-older steps: "
                  f"p50 {statistics.median(step_times) * 1000:.0f} ms, max {max(step_times) * 1000:.0f} ms "
                  f"({', '.join(f'{t * 1000:.0f}' for t in step_times)} ms)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
