"""The page's applier without tweetie-serve: a stand-in server streams generated feed messages one
at a time, and after each one the test reads the page's DOM and compares it with the sections the
message leads to (computed by the generator, not by the page). Every change kind is covered: row
deletions, insertions, moves within and across sections, modifications, section deletions,
insertions and moves, the empty feed; with and without moves; ids beyond 2^53."""

import pytest

import browser
import feedspec
from fakefeed import FakeFeedServer
from tweetiecli import Served

FEED = "list icanzilb/RxSwift"


@pytest.fixture(scope="module")
def driver():
    chromium = browser.chromium()
    yield chromium
    chromium.quit()


@pytest.fixture
def server():
    fake = FakeFeedServer()
    yield fake
    fake.stop()


def open_page(driver, server, query="?verify=1"):
    # The page of an earlier test, whose server is gone, keeps reconnecting and logging until it is
    # left: leave it first, then forget what it logged.
    driver.get("about:blank")
    browser.console(driver)
    driver.get(server.url + query)
    browser.wait_for(lambda: server.requests, message="the page to open the feed")


def start(driver, server, sections, sequence=1, query="?verify=1"):
    """Opens the page and sends it the feed's first snapshot."""
    open_page(driver, server, query)
    server.send("snapshot", feedspec.snapshot(sections, FEED, sequence))
    browser.wait_for_sequence(driver, sequence)


def check_shown(driver, sections, context):
    dom = browser.shown(driver)
    assert browser.without_classes(dom) == browser.displayed(sections), f"{context}: the page shows\n{browser.dump(dom)}"
    return dom


def animated(dom, name):
    return {row["id"] for section in dom for row in section["rows"] if name in row["classes"].split()}


@pytest.mark.parametrize("moves", [True, False], ids=["moves", "no-moves"])
def test_every_change_kind_is_applied_as_the_spec_says(driver, server, moves):
    world = feedspec.World(seed=17 if moves else 18)
    sections = world.sections(3, 4)
    start(driver, server, sections)
    assert server.requests[0]["path"] == "/feeds/list"
    check_shown(driver, sections, "the snapshot")
    seen = set()
    sequence = 1
    for step in range(80):
        new = world.mutate(sections) if step != 40 else []  # one step empties the feed
        sequence += 1 + step % 3  # sequences may skip
        message = feedspec.changeset(sections, new, FEED, sequence, moves=moves)
        assert feedspec.apply(sections, message) == new
        server.send("change", message)
        browser.wait_for_sequence(driver, sequence)
        dom = check_shown(driver, new, f"step {step}: {browser.dump(message)}")
        # The animation marks: exactly the rows the change inserted, moved and modified.
        assert animated(dom, "inserted") == {i["row"]["id"] for i in message["rowInsertions"]}, f"step {step}"
        assert animated(dom, "moved") == {m["row"]["id"] for m in message["rowMoves"]}, f"step {step}"
        assert animated(dom, "modified") == {m["row"]["id"] for m in message["rowModifications"]}, f"step {step}"
        new_sections = {section["key"] for section in dom if "inserted" in section["classes"].split()}
        assert new_sections == {i["section"]["key"] for i in message["sectionInsertions"]}, f"step {step}"
        seen |= {kind for kind in ("sectionDeletions", "sectionInsertions", "sectionMoves", "rowDeletions",
                                   "rowInsertions", "rowModifications", "rowMoves") if message[kind]}
        sections = new
    expected = {"sectionDeletions", "sectionInsertions", "rowDeletions", "rowInsertions", "rowModifications"}
    assert seen >= (expected | {"sectionMoves", "rowMoves"} if moves else expected), seen
    # Deleted rows and sections fade out, then leave the DOM.
    browser.wait_for(lambda: driver.execute_script("return document.querySelectorAll('.leaving').length === 0"),
                     timeout=5, message="the fading rows to be removed")
    checked, mismatches, texts = browser.self_check(driver)
    assert (checked, mismatches) == (81, 0), texts
    assert browser.errors(browser.console(driver)) == []
    # Ids stay strings: neighbours beyond 2^53 are all distinct on the page.
    ids = [row["id"] for section in browser.shown(driver) for row in section["rows"]]
    assert len(set(ids)) == len(ids) and all(int(i) > 2**53 for i in ids)
    browser.screenshot(driver, f"apply-{'moves' if moves else 'no-moves'}.png")


def test_insertions_and_moves_land_in_ascending_new_path_order(driver, server):
    """Step 4 interleaves inserted and moved-in rows of one section: only ascending order is right."""
    world = feedspec.World(seed=2)
    a, b, c, d, e, x, y, z = (world.row() for _ in range(8))
    old = [{"key": "2018-12-08", "title": "Saturday, Dec 8", "rows": [a, b, c, d, e]}]
    new = [{"key": "2018-12-08", "title": "Saturday, Dec 8", "rows": [e, x, a, c, y, b, z]}]
    start(driver, server, old, 1)
    message = feedspec.changeset(old, new, FEED, 2)
    additions = [i["at"] for i in message["rowInsertions"]] + [m["to"] for m in message["rowMoves"]]
    assert additions != sorted(additions) and message["rowMoves"]
    server.send("change", message)
    browser.wait_for_sequence(driver, 2)
    check_shown(driver, new, "after the interleaved change")
    assert browser.self_check(driver)[:2] == [2, 0]


def record(database, actions):
    """The messages `tweetie-db feed list --follow` prints while `actions` run, one after another:
    after each, read until the applied messages equal what `feed --once` prints."""
    follower = database.follow("list")
    try:
        messages = [follower.next_message(timeout=60)]
        state = feedspec.apply([], messages[0])
        for action in actions:
            action()
            expected = database.feed("list")
            while state != expected:
                message = follower.next_message(timeout=60)
                assert message is not None, "feed --follow did not reach what feed --once prints"
                messages.append(message)
                state = feedspec.apply(state, message)
        return messages, state
    finally:
        follower.stop()


def test_recorded_messages_of_tweetie_db_feed_follow(driver, server):
    """Real messages: `tweetie-db feed list --follow` while the CLI syncs and deletes."""
    database = Served(needs=("tweetie-db",))
    try:
        database.sync(2)

        def delete(which):
            return lambda: database.delete(which(database.feed("list")))

        actions = [lambda ticks=ticks: database.sync(ticks) for ticks in range(3, 9)]
        actions += [delete(lambda sections: sections[0]["rows"][0]["id"]),
                    delete(lambda sections: sections[-1]["rows"][-1]["id"]),
                    delete(lambda sections: min(sections, key=lambda s: len(s["rows"]))["rows"][0]["id"])]
        messages, final = record(database, actions)
    finally:
        database.close()
    kinds = {kind for m in messages[1:] for kind in ("sectionDeletions", "sectionInsertions", "rowDeletions",
                                                     "rowInsertions", "rowModifications", "rowMoves") if m[kind]}
    assert {"sectionInsertions", "rowInsertions", "rowDeletions"} <= kinds, kinds
    start(driver, server, messages[0]["sections"], messages[0]["sequence"])
    state = messages[0]["sections"]
    for message in messages[1:]:
        state = feedspec.apply(state, message)
        server.send("change", message)
        browser.wait_for_sequence(driver, message["sequence"])
        check_shown(driver, state, f"after recorded change {message['sequence']}")
    check_shown(driver, final, "after the last recorded change (what feed --once prints)")
    assert browser.self_check(driver)[:2] == [len(messages), 0]
    assert browser.errors(browser.console(driver)) == []


def test_reset_replaces_everything(driver, server):
    world = feedspec.World(seed=3)
    first, second = world.sections(2, 3), world.sections(1, 2)
    start(driver, server, first, 5)
    server.send("reset", feedspec.snapshot(second, FEED, 9, reason="reset"))
    browser.wait_for_sequence(driver, 9)
    check_shown(driver, second, "after the reset")
    # A change after the reset applies to the reset's sections.
    new = world.mutate(second)
    server.send("change", feedspec.changeset(second, new, FEED, 10))
    browser.wait_for_sequence(driver, 10)
    check_shown(driver, new, "after the change that follows the reset")
    assert browser.self_check(driver)[:2] == [3, 0]
    assert browser.errors(browser.console(driver)) == []


def test_a_dropped_stream_resumes_with_last_event_id_then_after(driver, server):
    world = feedspec.World(seed=4)
    sections = world.sections(2, 2)
    start(driver, server, sections, 3)
    # The browser's own reconnection sends Last-Event-ID.
    server.drop()
    browser.wait_for(lambda: len(server.requests) == 2, message="the page to reconnect")
    assert server.requests[1]["lastEventID"] == feedspec.position(3) and "after" not in server.requests[1]["query"]
    new = world.mutate(sections)
    server.send("change", feedspec.changeset(sections, new, FEED, 4))
    browser.wait_for_sequence(driver, 4)
    check_shown(driver, new, "after the resumed change")
    # When reconnecting fails (503), the page retries itself, with ?after= its last position.
    server.refusals = 1
    server.drop()
    browser.wait_for(lambda: driver.execute_script("return document.getElementById('connection').dataset.state") == "offline",
                     message="the page to show it is offline")
    browser.wait_for(lambda: len(server.requests) == 4, timeout=10, message="the page to retry after its backoff")
    assert server.requests[3]["query"].get("after") == feedspec.position(4), server.requests
    browser.wait_for(lambda: driver.execute_script("return document.getElementById('connection').dataset.state") == "live",
                     message="the page to show it is live again")
    sections, new = new, world.mutate(new)
    server.send("change", feedspec.changeset(sections, new, FEED, 5))
    browser.wait_for_sequence(driver, 5)
    check_shown(driver, new, "after the change that follows the retry")
    assert browser.self_check(driver)[1] == 0
    # The refused request is the only console error (Chromium logs the failed load).
    assert all("503" in entry["message"] for entry in browser.errors(browser.console(driver)))


def test_a_change_it_cannot_apply_starts_over_from_a_snapshot(driver, server):
    world = feedspec.World(seed=5)
    sections = world.sections(1, 2)
    start(driver, server, sections, 1)
    bad = feedspec.changeset(sections, sections, FEED, 2)
    bad["rowDeletions"] = [[0, 7]]
    server.send("change", bad)
    browser.wait_for(lambda: len(server.requests) == 2, message="the page to start over")
    assert server.requests[1]["lastEventID"] is None and "after" not in server.requests[1]["query"]
    messages = [entry["message"] for entry in browser.errors(browser.console(driver))]
    assert any("row [0,7] does not exist" in message for message in messages), messages
    assert "could not be applied" in driver.find_element("id", "notice").text
    server.send("snapshot", feedspec.snapshot(sections, FEED, 2))
    browser.wait_for_sequence(driver, 2)
    check_shown(driver, sections, "after starting over")


@pytest.mark.parametrize("field,value", [("id", 1071325319259414529), ("version", 1), ("version", 3), ("window", None),
                                         ("window", {"limit": 0, "more": False})])
def test_numeric_ids_and_other_versions_are_refused(driver, server, field, value):
    sections = feedspec.World(seed=6).sections(1, 1)
    message = feedspec.snapshot(sections, FEED, 1)
    if field == "id":
        sections[0]["rows"][0]["id"] = value
    else:
        message[field] = value
    open_page(driver, server)
    server.send("snapshot", message)
    browser.wait_for(lambda: len(server.requests) == 2, message="the page to refuse the message and start over")
    assert browser.sequence(driver) is None and browser.shown(driver) == []
    assert browser.errors(browser.console(driver))


def test_the_page_asks_for_its_window_and_refuses_a_message_that_overfills_it(driver, server):
    world = feedspec.World(seed=9)
    sections = world.sections(2, 3)
    start(driver, server, sections, 1, query="?verify=1&limit=6")
    assert server.requests[0]["query"].get("limit") == "6", server.requests
    # A change that leaves seven rows in a window of six is refused: the page starts over.
    new = world.mutate(sections)
    while sum(len(s["rows"]) for s in new) <= 6:
        new = world.mutate(new)
    bad = feedspec.changeset(sections, new, FEED, 2)
    bad["window"] = {"limit": 6, "more": True}
    server.send("change", bad)
    browser.wait_for(lambda: len(server.requests) == 2, message="the page to refuse the change and start over")
    assert any("in a window of 6" in entry["message"] for entry in browser.errors(browser.console(driver)))
    assert server.requests[1]["query"].get("limit") == "6"


def test_reaching_the_end_of_the_window_loads_older_rows(driver, server):
    world = feedspec.World(seed=10)
    sections = world.sections(2, 3)
    open_page(driver, server, "?verify=1&limit=6")
    # Six rows and more to come: the end of the window is on the screen, so the page asks for a
    # window larger by its first one's size, from a fresh snapshot (no position to resume from).
    server.send("snapshot", feedspec.snapshot(sections, FEED, 1, limit=6, more=True))
    browser.wait_for(lambda: len(server.requests) == 2, message="the page to load older rows")
    assert server.requests[1]["query"].get("limit") == "12", server.requests
    assert server.requests[1]["lastEventID"] is None and "after" not in server.requests[1]["query"]
    # The rows shown stay (their elements are kept): the larger window only adds rows after them.
    driver.execute_script("document.querySelector('#feed .row').dataset.marker = 'kept'")
    older = sections + world.sections(2, 3)
    server.send("snapshot", feedspec.snapshot(older, FEED, 1, limit=12, more=True))
    browser.wait_for(lambda: len(server.requests) == 3, message="the page to load older rows again")
    assert server.requests[2]["query"].get("limit") == "18"
    oldest = older + world.sections(1, 2)
    server.send("snapshot", feedspec.snapshot(oldest, FEED, 1, limit=18, more=False))
    browser.wait_for(lambda: driver.execute_script("return document.getElementById('feed').dataset.more") == "false",
                     message="the page to hold the last window")
    check_shown(driver, oldest, "every row, after loading older ones twice")
    assert driver.execute_script("return document.querySelector('#feed .row').dataset.marker") == "kept"
    assert driver.find_element("id", "load-older").is_displayed() is False
    assert len(server.requests) == 3
    # Growing the window is no restart: nothing is announced, and the self-check holds.
    assert "started over" not in driver.find_element("id", "notice").text
    assert browser.self_check(driver)[1] == 0
    assert browser.errors(browser.console(driver)) == []


def test_views_people_and_person(driver, server):
    people = [{"key": "all", "title": "All", "rows": [
        {"id": "39968020", "name": "Marin Todorov", "handle": "@icanzilb", "about": "Author", "imageURL": "https://example.com/a.png"},
        {"id": "9007199254740993", "name": "Maya", "handle": "@mayalindqvist", "about": "", "imageURL": ""}]}]
    open_page(driver, server, "?verify=1&sections=day&moves=0#/people")
    assert server.requests[0]["path"] == "/feeds/people" and server.requests[0]["query"] == {"moves": "0", "limit": "100"}
    server.send("snapshot", feedspec.snapshot(people, "people icanzilb/RxSwift", 1))
    browser.wait_for_sequence(driver, 1)
    dom = browser.shown(driver)
    assert browser.without_classes(dom) == browser.displayed(people, browser.person_fields)
    assert [row["initials"] for row in dom[0]["rows"]] == ["MT", "M"]
    # A name links to the person's timeline.
    driver.find_element("css selector", "#feed .row .name").click()
    browser.wait_for(lambda: len(server.requests) == 2, message="the person view to open its feed")
    assert server.requests[1]["path"] == "/feeds/person/icanzilb"
    assert server.requests[1]["query"] == {"sections": "day", "moves": "0", "limit": "100"}
    assert driver.find_element("id", "view-person").text == "@icanzilb"
    assert browser.self_check(driver)[1] == 0
    assert browser.errors(browser.console(driver)) == []
