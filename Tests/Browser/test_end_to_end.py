"""The page on tweetie-serve, end to end: the server follows a temporary database while the CLI syncs
and deletes, and the page's rows (read from the DOM) must equal `tweetie-db feed … --once` with the
same --now, with no console error and no mismatch in the page's own self-check (?verify=1); also
after the server is stopped and restarted. Saves screenshots (TWEETIE_SCREENSHOT: also there).

The soak (make soak-browser, TWEETIE_SOAK_SECONDS) runs a sync every second for that long with the
self-check on."""

import os
import pathlib
import random
import shutil
import time

import pytest

import browser
from tweetiecli import Served

@pytest.fixture
def served():
    served = Served()
    served.sync(3)
    served.start()
    yield served
    served.close()


@pytest.fixture(scope="module")
def driver():
    chromium = browser.chromium(width=760, height=1100)
    yield chromium
    chromium.quit()


def wait_until_shown(driver, expected, fields=browser.timeline_fields, context="", timeout=30):
    """Waits until the page's DOM shows exactly `expected` (sections of the feed)."""
    want = browser.displayed(expected, fields)
    try:
        browser.wait_for(lambda: browser.without_classes(browser.shown(driver)) == want, timeout=timeout,
                         message=f"the page to show the feed {context}")
    except AssertionError:
        raise AssertionError(f"{context}: the page shows\n{browser.dump(browser.without_classes(browser.shown(driver)))}\n"
                             f"but feed --once prints\n{browser.dump(want)}") from None


def assert_clean(driver):
    checked, mismatches, texts = browser.self_check(driver)
    assert checked > 0 and mismatches == 0, texts
    entries = browser.console(driver)
    assert browser.errors(entries) == [], entries


def settle(driver):
    """Waits for fading rows to go and animations to end (for a screenshot)."""
    browser.wait_for(lambda: driver.execute_script("return document.querySelectorAll('.leaving').length === 0"), timeout=5)
    time.sleep(1.8)


def save_screenshot(driver, name):
    path = browser.screenshot(driver, name)
    target = os.environ.get("TWEETIE_SCREENSHOT")
    if target and name == "timeline.png":
        pathlib.Path(target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


def test_the_page_follows_syncs_and_deletes(driver, served):
    browser.console(driver)
    driver.get(served.url + "?verify=1")
    wait_until_shown(driver, served.feed("list"), context="at first")
    assert driver.execute_script("return document.getElementById('connection').dataset.state") == "live"
    for ticks in range(4, 9):
        served.sync(ticks)
        wait_until_shown(driver, served.feed("list"), context=f"after sync --ticks {ticks}")
    # Deletes: a section's last row (its section goes), the newest row, a row in the middle.
    sections = served.feed("list")
    lonely = [s["rows"][0]["id"] for s in sections if len(s["rows"]) == 1]
    rows = [row["id"] for s in sections for row in s["rows"]]
    for victim in (lonely[:1] or rows[-1:]) + [rows[0], rows[len(rows) // 2]]:
        if victim in [row["id"] for s in served.feed("list") for row in s["rows"]]:
            served.delete(victim)
            wait_until_shown(driver, served.feed("list"), context=f"after deleting {victim}")
    assert_clean(driver)
    served.sync(10)
    wait_until_shown(driver, served.feed("list"), context="after sync --ticks 10")
    settle(driver)
    save_screenshot(driver, "timeline.png")
    assert_clean(driver)

    # The people view, and a person's timeline (opened from a name), follow too.
    driver.get(served.url + "?verify=1#/people")
    people = served.feed("people")
    wait_until_shown(driver, people, browser.person_fields, context="in the people view")
    username = people[0]["rows"][0]["handle"].lstrip("@")
    driver.find_element("css selector", "#feed .row .name").click()
    wait_until_shown(driver, served.feed("person", username), context=f"in @{username}'s timeline")
    served.sync(12)
    wait_until_shown(driver, served.feed("person", username), context=f"in @{username}'s timeline after a sync")
    assert_clean(driver)


def test_the_page_holds_a_window_and_scrolling_loads_older_rows(driver, served):
    """With ?limit=10 the page holds windows of 10, 20, … rows: what `feed --once --limit` prints,
    the end of each one loading the next as it comes into view."""
    served.sync(20)
    browser.console(driver)
    driver.get(served.url + "?verify=1&limit=10")

    def held():
        return driver.execute_script("return Number(document.getElementById('feed').dataset.limit || 0)")

    def settled():
        """The window once the page stopped growing it (it grows while its end is on the screen)."""
        browser.wait_for(lambda: held() >= 10, message="the first window")
        last, since = held(), time.monotonic()
        while time.monotonic() - since < 1.5:
            time.sleep(0.1)
            if held() != last:
                last, since = held(), time.monotonic()
        return last

    first = settled()
    assert first % 10 == 0
    wait_until_shown(driver, served.feed("list", limit=first), context=f"in a window of {first}")
    more = driver.execute_script("return document.getElementById('feed').dataset.more") == "true"
    assert more, "the timeline has more than the first windows"
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    browser.wait_for(lambda: held() > first, message="scrolling to the end to load older rows")
    grown = settled()
    assert grown % 10 == 0
    wait_until_shown(driver, served.feed("list", limit=grown), context=f"in a window of {grown}")
    served.sync(22)
    wait_until_shown(driver, served.feed("list", limit=grown), context=f"in a window of {grown} after a sync")
    assert "started over" not in driver.find_element("id", "notice").text
    assert_clean(driver)


def test_the_page_resumes_after_the_server_restarts(driver, served):
    browser.console(driver)
    driver.get(served.url + "?verify=1")
    wait_until_shown(driver, served.feed("list"), context="at first")
    served.stop()
    browser.wait_for(lambda: driver.execute_script("return document.getElementById('connection').dataset.state") != "live",
                     message="the page to notice the server is gone")
    served.sync(6)  # while the server is down
    served.start()  # on the same port
    wait_until_shown(driver, served.feed("list"), context="after the server restarted", timeout=60)
    served.sync(8)
    wait_until_shown(driver, served.feed("list"), context="after a sync on the restarted server")
    checked, mismatches, texts = browser.self_check(driver)
    assert checked > 0 and mismatches == 0, texts
    # Connection refusals while the server was down are logged by Chromium; nothing else is.
    others = [e for e in browser.errors(browser.console(driver)) if "ERR_CONNECTION_REFUSED" not in e["message"]]
    assert others == []


@pytest.mark.skipif(not os.environ.get("TWEETIE_SOAK_SECONDS"), reason="the soak runs with make soak-browser (TWEETIE_SOAK_SECONDS)")
def test_soak_self_check_with_a_sync_every_second(driver, served):
    seconds = float(os.environ["TWEETIE_SOAK_SECONDS"])
    browser.console(driver)
    driver.get(served.url + "?verify=1")
    wait_until_shown(driver, served.feed("list"), context="at first")
    rng = random.Random(17)
    syncs = deletes = 0
    late = []
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        tick = time.monotonic()
        # Four simulated worlds in turn, each a little further on every round: tweets arrive, change
        # from one world's version to another's, go and return.
        served.sync((syncs // 4) % 24 + 2, seed=syncs % 4 + 1)
        syncs += 1
        if syncs % 10 == 0:
            rows = [row["id"] for s in served.feed("list") for row in s["rows"]]
            if rows:
                served.delete(rng.choice(rows))
                deletes += 1
        elapsed = time.monotonic() - tick
        if elapsed > 1:
            late.append(elapsed)
        else:
            time.sleep(1 - elapsed)
    wait_until_shown(driver, served.feed("list"), context="at the end of the soak")
    checked, mismatches, texts = browser.self_check(driver)
    report = (f"soak: {time.monotonic() - start:.0f} s, {syncs} syncs, {deletes} deletes, {checked} messages "
              f"self-checked, {mismatches} mismatches; {len(late)} syncs took over 1 s")
    print(report)
    browser.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (browser.ARTIFACTS / "soak.txt").write_text(report + "\n" + "\n".join(texts) + "\n")
    assert mismatches == 0, texts
    assert browser.errors(browser.console(driver)) == []
