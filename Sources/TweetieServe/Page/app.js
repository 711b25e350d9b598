// The TweetieDB live page: follows one feed of tweetie-serve over Server-Sent Events and applies
// every message exactly as schemas/tweetie-feed.schema.json (feed format version 4) specifies,
// animated. Written by the project: no framework, no build step, nothing from another origin; it
// runs under `Content-Security-Policy: default-src 'self'` (no inline script, no inline style).
//
// Views (the URL's hash): #/list (the list timeline, the default), #/person/USERNAME, #/people.
// Query: ?sections=day|none and ?moves=1|0 are passed to the feed, ?limit=N is the first window
// (default 100, the server's); ?verify=1 compares the DOM with the applied state after every
// message and reports any mismatch on the page and in the console.
//
// The page holds the feed's window only: its first rows (the newest tweets). Scrolling to its
// end ("Load older") asks for a window larger by the first one's size, whose snapshot replaces it.
"use strict";

(() => {
  const FORMAT_VERSION = 4;
  const DEFAULT_LIMIT = 100;
  const MAX_LIMIT = 10000;
  // A message's position: SEQUENCE.COMMITID (16 lowercase hex digits), or a bare sequence.
  const POSITION = /^(0|[1-9][0-9]*(\.[0-9a-f]{16})?)$/;
  const MAX_RETRY_DELAY = 30000;

  /** A message the page cannot apply: wrong version or type, bad index paths, inconsistent lists. */
  class FeedError extends Error {}

  // ---------------------------------------------------------------------------------------------
  // Checking messages. Ids stay the decimal strings the feed sends (tweet ids exceed 2^53).

  function list(message, name) {
    const value = message[name];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) throw new FeedError(`${name} is not an array`);
    return value;
  }

  function index(value, name) {
    if (!Number.isInteger(value) || value < 0) throw new FeedError(`${name}: ${JSON.stringify(value)} is not an index`);
    return value;
  }

  function path(value, name) {
    if (!Array.isArray(value) || value.length !== 2) {
      throw new FeedError(`${name}: ${JSON.stringify(value)} is not an index path [section, row]`);
    }
    return [index(value[0], name), index(value[1], name)];
  }

  function checkRow(row, name) {
    if (row === null || typeof row !== "object") throw new FeedError(`${name}: the row is not an object`);
    if (typeof row.id !== "string" || !/^(0|-?[1-9][0-9]*)$/.test(row.id)) {
      throw new FeedError(`${name}: row id ${JSON.stringify(row.id)} is not a decimal string`);
    }
    return row;
  }

  function checkSection(section, name) {
    if (section === null || typeof section !== "object" || typeof section.key !== "string"
        || typeof section.title !== "string" || !Array.isArray(section.rows)) {
      throw new FeedError(`${name}: not a section {key, title, rows}`);
    }
    section.rows.forEach((row, i) => checkRow(row, `${name}.rows[${i}]`));
    return { key: section.key, title: section.title, rows: section.rows.slice() };
  }

  const comparePaths = (a, b) => a[0] - b[0] || a[1] - b[1];

  /** The message's window `{limit, more}`, checked; the page always asks for one. */
  function checkWindow(message) {
    const value = message.window;
    if (value === null || typeof value !== "object" || !Number.isSafeInteger(value.limit) || value.limit < 1
        || typeof value.more !== "boolean") {
      throw new FeedError(`window ${JSON.stringify(value)} is not {limit, more}`);
    }
    return { limit: value.limit, more: value.more };
  }

  /** Checks that the rows of `sections` fit the window `held`. */
  function checkFits(held, sections) {
    const rows = sections.reduce((sum, section) => sum + section.rows.length, 0);
    if (rows > held.limit) throw new FeedError(`the message leaves ${rows} rows in a window of ${held.limit}`);
  }

  /** Checks that the paths the message lists as `name` name rows of `sections`. */
  function checkPaths(message, name, sections) {
    list(message, name).forEach((value, i) => {
      const [s, r] = path(value, `${name}[${i}]`);
      if (s >= sections.length || r >= sections[s].rows.length) throw new FeedError(`${name}[${i}]: no row at [${s}, ${r}]`);
    });
  }

  /**
   * The change that turns `held` into `grown` when `grown` only adds rows after them (a larger
   * window's snapshot, with nothing before its end changed), as a change message; else `null`.
   * Applying it animates the older rows in and keeps every row on the screen, instead of
   * replacing them all.
   */
  function growth(held, grown) {
    if (held.length === 0 || grown.length < held.length) return null;
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const last = held.length - 1;
    for (let s = 0; s <= last; s += 1) {
      const rows = held[s].rows;
      if (grown[s].key !== held[s].key || grown[s].title !== held[s].title) return null;
      if (s < last ? grown[s].rows.length !== rows.length : grown[s].rows.length < rows.length) return null;
      if (!rows.every((row, r) => same(row, grown[s].rows[r]))) return null;
    }
    return {
      type: "change",
      sectionDeletions: [], sectionMoves: [], rowDeletions: [], rowModifications: [], rowMoves: [],
      rowInsertions: grown[last].rows.slice(held[last].rows.length).map((row, r) => ({ at: [last, held[last].rows.length + r], row })),
      sectionInsertions: grown.slice(held.length).map((section, i) => ({ index: held.length + i, section })),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // The plan of one change: the message checked against the current row counts and resolved into
  // the spec's five steps. The applied state and the DOM both execute the same plan.
  //
  //   rowRemovals    old paths of rowDeletions and rowMoves[].from (step 1), `move` set for moves
  //   deletedSections / layout   step 2 and 3: per new index, {inserted: section} or {from: old
  //                  index, moved: bool}
  //   additions      rowInsertions and rowMoves (`from` set) at new paths, ascending (step 4)
  //   modifications  {old, at, row} (step 5)

  function plan(rowCounts, message) {
    const oldCount = rowCounts.length;
    const deletedSections = list(message, "sectionDeletions").map((i, n) => index(i, `sectionDeletions[${n}]`));
    const sectionMoves = list(message, "sectionMoves").map((move, n) => ({
      from: index(move && move.from, `sectionMoves[${n}].from`),
      to: index(move && move.to, `sectionMoves[${n}].to`),
    }));
    const sectionInsertions = list(message, "sectionInsertions").map((insertion, n) => ({
      index: index(insertion && insertion.index, `sectionInsertions[${n}].index`),
      section: checkSection(insertion && insertion.section, `sectionInsertions[${n}].section`),
    }));

    // Steps 2 and 3: which old sections go, and the new section list.
    const removedSections = new Set();
    for (const i of deletedSections.concat(sectionMoves.map((move) => move.from))) {
      if (i >= oldCount) throw new FeedError(`section ${i} does not exist (there are ${oldCount})`);
      if (removedSections.has(i)) throw new FeedError(`section ${i} is deleted or moved twice`);
      removedSections.add(i);
    }
    const newCount = oldCount - deletedSections.length + sectionInsertions.length;
    const claimed = new Map();
    const claim = (i, entry) => {
      if (i >= newCount) throw new FeedError(`new section ${i} is out of bounds (there are ${newCount})`);
      if (claimed.has(i)) throw new FeedError(`new section ${i} is inserted or moved to twice`);
      claimed.set(i, entry);
    };
    for (const insertion of sectionInsertions) claim(insertion.index, { inserted: insertion.section });
    for (const move of sectionMoves) claim(move.to, { from: move.from, moved: true });
    const remaining = rowCounts.map((_, i) => i).filter((i) => !removedSections.has(i));
    let next = 0;
    const layout = [];
    for (let s = 0; s < newCount; s += 1) {
      if (claimed.has(s)) layout.push(claimed.get(s));
      else if (next < remaining.length) layout.push({ from: remaining[next++], moved: false });
      else throw new FeedError(`no old section is left for new section ${s}`);
    }
    if (next !== remaining.length) throw new FeedError(`${remaining.length - next} old sections have no place in the new sections`);

    // Step 1: rows that go (old paths), never out of a deleted section.
    const deleted = new Set(deletedSections);
    const removedIn = rowCounts.map(() => 0);
    const seen = new Set();
    const oldRow = (at, name) => {
      if (at[0] >= oldCount || at[1] >= rowCounts[at[0]]) throw new FeedError(`${name}: row [${at}] does not exist`);
    };
    const rowRemovals = [];
    list(message, "rowDeletions").forEach((value, n) => rowRemovals.push({ at: path(value, `rowDeletions[${n}]`), move: false }));
    const rowMoves = list(message, "rowMoves").map((move, n) => ({
      from: path(move && move.from, `rowMoves[${n}].from`),
      at: path(move && move.to, `rowMoves[${n}].to`),
      row: checkRow(move && move.row, `rowMoves[${n}].row`),
    }));
    rowMoves.forEach((move) => rowRemovals.push({ at: move.from, move: true }));
    for (const removal of rowRemovals) {
      oldRow(removal.at, removal.move ? "rowMoves.from" : "rowDeletions");
      if (deleted.has(removal.at[0])) throw new FeedError(`row [${removal.at}] is listed inside deleted section ${removal.at[0]}`);
      if (seen.has(String(removal.at))) throw new FeedError(`old row [${removal.at}] is removed twice`);
      seen.add(String(removal.at));
      removedIn[removal.at[0]] += 1;
    }
    rowRemovals.sort((a, b) => comparePaths(a.at, b.at));

    // Step 4: rows that come, in ascending new-path order, never into an inserted section.
    const counts = layout.map((entry) => (entry.inserted ? entry.inserted.rows.length : rowCounts[entry.from] - removedIn[entry.from]));
    const additions = list(message, "rowInsertions").map((insertion, n) => ({
      at: path(insertion && insertion.at, `rowInsertions[${n}].at`),
      row: checkRow(insertion && insertion.row, `rowInsertions[${n}].row`),
    })).concat(rowMoves);
    additions.sort((a, b) => comparePaths(a.at, b.at));
    additions.forEach((addition, n) => {
      const [s, r] = addition.at;
      if (s >= newCount) throw new FeedError(`new row [${addition.at}] lies beyond the ${newCount} sections`);
      if (layout[s].inserted) throw new FeedError(`new row [${addition.at}] is listed inside inserted section ${s}`);
      if (n > 0 && comparePaths(additions[n - 1].at, addition.at) === 0) throw new FeedError(`new row [${addition.at}] is added twice`);
      if (r > counts[s]) throw new FeedError(`new row [${addition.at}] is out of bounds (section ${s} has ${counts[s]} rows then)`);
      counts[s] += 1;
    });

    // Step 5: rows replaced in place.
    const modifications = list(message, "rowModifications").map((modification, n) => {
      const old = path(modification && modification.old, `rowModifications[${n}].old`);
      const at = path(modification && modification.new, `rowModifications[${n}].new`);
      oldRow(old, "rowModifications.old");
      if (at[0] >= newCount || at[1] >= counts[at[0]]) throw new FeedError(`rowModifications[${n}].new: row [${at}] does not exist`);
      return { old, at, row: checkRow(modification.row, `rowModifications[${n}].row`) };
    });
    return { rowRemovals, deletedSections, layout, additions, modifications };
  }

  /** The sections after `change` (a plan): a new array; `sections` is left as it was. */
  function applyPlan(sections, change) {
    const removed = new Set(change.rowRemovals.map((removal) => String(removal.at)));
    const kept = sections.map((section, s) => ({
      key: section.key, title: section.title, rows: section.rows.filter((_, r) => !removed.has(`${s},${r}`)),
    }));
    const result = change.layout.map((entry) => (entry.inserted ? { ...entry.inserted, rows: entry.inserted.rows.slice() } : kept[entry.from]));
    for (const addition of change.additions) result[addition.at[0]].rows.splice(addition.at[1], 0, addition.row);
    for (const modification of change.modifications) result[modification.at[0]].rows[modification.at[1]] = modification.row;
    return result;
  }

  // ---------------------------------------------------------------------------------------------
  // Rows: what a cell shows. The same fields are written into the DOM and read back by the
  // self-check.

  /** The displayed fields of a row: a tweet (list, person) or a person (people). */
  function rowFields(kind, row) {
    if (kind === "people") {
      return { id: row.id, name: String(row.name), handle: String(row.handle), time: "", text: String(row.about) };
    }
    return { id: row.id, name: String(row.author), handle: String(row.handle), time: String(row.relativeTime), text: String(row.text) };
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function initials(name, handle) {
    const words = String(name).trim().split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word));
    const letters = words.slice(0, 2).map((word) => Array.from(word.replace(/^[^\p{L}\p{N}]+/u, ""))[0] || "");
    const text = letters.join("").toUpperCase();
    return text || Array.from(String(handle).replace(/^@/, ""))[0]?.toUpperCase() || "?";
  }

  function hue(text) {
    let hash = 0;
    for (const character of String(text)) hash = (hash * 31 + character.codePointAt(0)) >>> 0;
    return hash % 8;
  }

  /** An image URL the page's Content-Security-Policy (default-src 'self') lets it load. */
  function loadable(url) {
    try {
      return typeof url === "string" && url !== "" && new URL(url, location.href).origin === location.origin;
    } catch {
      return false;
    }
  }

  /**
   * The avatar: the author's initials, covered by the image once it loads. An image from another
   * origin is never requested: the page's policy would refuse it (and log an error), and the
   * machine may be offline anyway.
   */
  function avatar(fields, imageURL) {
    const box = element("span", `avatar hue-${hue(fields.handle)}`);
    box.setAttribute("aria-hidden", "true");
    box.append(element("span", "initials", initials(fields.name, fields.handle)));
    if (loadable(imageURL)) {
      const image = new Image();
      image.alt = "";
      image.addEventListener("load", () => box.classList.add("loaded"));
      image.addEventListener("error", () => image.remove());
      image.src = imageURL;
      box.append(image);
    }
    return box;
  }

  function personLink(handle) {
    return `#/person/${encodeURIComponent(String(handle).replace(/^@/, ""))}`;
  }

  /** Writes `row` into the row element `node` (built on first use). */
  function fillRow(node, kind, row) {
    const fields = rowFields(kind, row);
    node.dataset.id = fields.id;
    if (!node.firstChild) {
      const body = element("div", "body");
      const meta = element("div", "meta");
      const name = element("a", "name");
      meta.append(name, " ", element("span", "handle"));
      if (kind !== "people") meta.append(element("span", "dot", " · "), element("time", "time"));
      body.append(meta, element("p", "text"));
      node.append(element("span", "avatar"), body);
    }
    if (node.dataset.image !== String(row.imageURL) || node.dataset.avatarName !== fields.name) {
      node.dataset.image = String(row.imageURL);
      node.dataset.avatarName = fields.name;
      node.firstChild.replaceWith(avatar(fields, row.imageURL));
    }
    const name = node.querySelector(".name");
    name.textContent = fields.name;
    name.href = personLink(fields.handle);
    node.querySelector(".handle").textContent = fields.handle;
    node.querySelector(".text").textContent = fields.text;
    const time = node.querySelector(".time");
    if (time) {
      time.textContent = fields.time;
      if (typeof row.created === "string") time.dateTime = row.created;
      else time.removeAttribute("datetime");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The view: the DOM of the sections. Elements on their way out carry the class `leaving` and
  // no longer count: every index below is an index among the live elements.

  const ANIMATION_CLASSES = ["inserted", "modified", "moved"];
  const LEAVE_MS = 350; // app.css: --duration (fade, then collapse)

  class FeedView {
    constructor(container, kind) {
      this.container = container;
      this.kind = kind;
    }

    sections() {
      return Array.from(this.container.children).filter((node) => node.classList.contains("section") && !node.classList.contains("leaving"));
    }

    rows(section) {
      return Array.from(section.querySelector(".rows").children).filter((node) => !node.classList.contains("leaving"));
    }

    rowElement(row) {
      const node = element("li", "row");
      fillRow(node, this.kind, row);
      return node;
    }

    sectionElement(section) {
      const node = element("section", "section");
      node.dataset.key = section.key;
      const title = element("h2", "section-title", section.title);
      const rows = element("ol", "rows");
      for (const row of section.rows) rows.append(this.rowElement(row));
      node.append(title, rows);
      return node;
    }

    /** Replaces everything with `sections` (a snapshot). */
    reset(sections) {
      this.container.replaceChildren(...sections.map((section) => this.sectionElement(section)));
    }

    /**
     * Executes a change's plan on the DOM, animated unless `animated` is false: the older rows a
     * grown window reveals are not changes, and a hundred rows sliding in and fading their tint
     * below the screen kept the page busy for over a second.
     */
    apply(change, { animated = true } = {}) {
      for (const name of ANIMATION_CLASSES) {
        for (const node of this.container.querySelectorAll(`.${name}`)) node.classList.remove(name);
      }
      const before = animated ? this.positions() : null;
      const sections = this.sections();
      const rows = sections.map((section) => this.rows(section));

      // Step 1: deleted rows fade out, moved rows are taken out to be put back at their target.
      const taken = new Map();
      for (const removal of change.rowRemovals) {
        const node = rows[removal.at[0]][removal.at[1]];
        if (removal.move) {
          node.remove();
          taken.set(String(removal.at), node);
        } else {
          this.leave(node);
        }
      }
      // Steps 2 and 3: deleted sections fade out; the new section list is laid out in order.
      for (const s of change.deletedSections) this.leave(sections[s]);
      const ordered = change.layout.map((entry) => {
        if (entry.inserted) {
          const node = this.sectionElement(entry.inserted);
          if (animated) node.classList.add("inserted");
          return node;
        }
        if (entry.moved) sections[entry.from].classList.add("moved");
        return sections[entry.from];
      });
      let previous = null;
      for (const node of ordered) {
        const live = previous ? this.nextLive(previous) : this.nextLive(null);
        if (live !== node) this.container.insertBefore(node, previous ? previous.nextSibling : this.container.firstChild);
        previous = node;
      }
      // Step 4: inserted rows slide in, moved rows come back at their new place. Each section's
      // live rows are listed once and kept in step with the insertions, so that k additions to a
      // window of n rows cost O(k + n), not O(k × n).
      const live = new Map();
      const liveRows = (section) => {
        if (!live.has(section)) live.set(section, this.rows(section));
        return live.get(section);
      };
      for (const addition of change.additions) {
        const section = ordered[addition.at[0]];
        const list = liveRows(section);
        const reference = list[addition.at[1]] || null;
        let node;
        if (addition.from) {
          node = taken.get(String(addition.from));
          fillRow(node, this.kind, addition.row);
          node.classList.add("moved");
        } else {
          node = this.rowElement(addition.row);
          if (animated) node.classList.add("inserted");
        }
        section.querySelector(".rows").insertBefore(node, reference);
        list.splice(addition.at[1], 0, node);
      }
      // Step 5: modified rows flash.
      for (const modification of change.modifications) {
        const node = liveRows(ordered[modification.at[0]])[modification.at[1]];
        fillRow(node, this.kind, modification.row);
        void node.offsetWidth; // restarts the flash when the same row changes again
        node.classList.add("modified");
      }
      if (animated) this.slide(before);
    }

    nextLive(node) {
      let next = node ? node.nextElementSibling : this.container.firstElementChild;
      while (next && next.classList.contains("leaving")) next = next.nextElementSibling;
      return next;
    }

    /** Fades `node` out, collapses it, then removes it. */
    leave(node) {
      node.style.height = `${node.offsetHeight}px`;
      void node.offsetHeight;
      node.classList.add("leaving");
      node.style.height = "0px";
      const remove = () => node.remove();
      node.addEventListener("transitionend", (event) => { if (event.target === node && event.propertyName === "height") remove(); });
      setTimeout(remove, 2 * LEAVE_MS + 150);
    }

    positions() {
      const positions = new Map();
      for (const node of this.container.querySelectorAll(".section, .row")) {
        if (!node.classList.contains("leaving")) positions.set(node, node.getBoundingClientRect().top);
      }
      return positions;
    }

    /**
     * Rows and sections that changed place glide from where they were (FLIP), those on the screen
     * or near it only. Every place is read before any is written: a read after a write lays the
     * page out again, and a window of n rows would be laid out n times.
     */
    slide(before) {
      if (matchMedia("(prefers-reduced-motion: reduce)").matches) return;
      const height = window.innerHeight;
      const near = (top) => top > -height && top < 2 * height;
      const moving = [];
      for (const [node, top] of before) {
        if (!node.isConnected || node.classList.contains("leaving")) continue;
        const now = node.getBoundingClientRect().top;
        if (Math.abs(top - now) >= 1 && (near(top) || near(now))) moving.push({ node, delta: top - now });
      }
      for (const { node, delta } of moving) {
        node.style.transition = "none";
        node.style.transform = `translateY(${delta}px)`;
      }
      if (moving.length === 0) return;
      void this.container.offsetHeight;
      requestAnimationFrame(() => {
        for (const { node } of moving) {
          node.style.transition = "";
          node.style.transform = "";
        }
      });
    }

    /** What the DOM shows: live sections with their live rows' displayed fields. */
    read() {
      return this.sections().map((section) => ({
        key: section.dataset.key,
        title: section.querySelector(".section-title").textContent,
        rows: this.rows(section).map((row) => ({
          id: row.dataset.id,
          name: row.querySelector(".name").textContent,
          handle: row.querySelector(".handle").textContent,
          time: row.querySelector(".time") ? row.querySelector(".time").textContent : "",
          text: row.querySelector(".text").textContent,
        })),
      }));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The self-check (?verify=1): the DOM against the applied state, after every message.

  function mismatches(kind, sections, shown) {
    const problems = [];
    if (shown.length !== sections.length) problems.push(`${shown.length} sections shown, ${sections.length} applied`);
    sections.forEach((section, s) => {
      const dom = shown[s];
      if (!dom) return;
      if (dom.key !== section.key || dom.title !== section.title) {
        problems.push(`section ${s}: shown ${JSON.stringify([dom.key, dom.title])}, applied ${JSON.stringify([section.key, section.title])}`);
      }
      if (dom.rows.length !== section.rows.length) problems.push(`section ${s}: ${dom.rows.length} rows shown, ${section.rows.length} applied`);
      section.rows.forEach((row, r) => {
        const expected = rowFields(kind, row);
        const actual = dom.rows[r];
        if (!actual) return;
        for (const field of Object.keys(expected)) {
          if (actual[field] !== expected[field]) {
            problems.push(`row [${s},${r}] ${field}: shown ${JSON.stringify(actual[field])}, applied ${JSON.stringify(expected[field])}`);
          }
        }
      });
    });
    return problems;
  }

  // ---------------------------------------------------------------------------------------------
  // The page.

  const parameters = new URLSearchParams(location.search);
  const verifying = parameters.get("verify") === "1";
  const dom = {
    feed: document.getElementById("feed"),
    empty: document.getElementById("empty"),
    connection: document.getElementById("connection"),
    notice: document.getElementById("notice"),
    feedName: document.getElementById("feed-name"),
    sequence: document.getElementById("sequence"),
    verify: document.getElementById("verify"),
    verifySummary: document.getElementById("verify-summary"),
    verifyList: document.getElementById("verify-mismatches"),
    personTab: document.getElementById("view-person"),
    loadOlder: document.getElementById("load-older"),
  };

  let route = null;
  let view = null;
  let state = null; // {sections, sequence} once a snapshot arrived
  let source = null;
  let retryTimer = null;
  let failures = 0;
  let checked = 0;
  let mismatchCount = 0;
  let noticeTimer = null;
  const requested = Number(parameters.get("limit"));
  const firstLimit = Number.isSafeInteger(requested) && requested >= 1 ? Math.min(requested, MAX_LIMIT) : DEFAULT_LIMIT;
  let limit = firstLimit;
  // Set while a larger window is asked for: its snapshot is the answer, not a restart to announce.
  let growing = false;

  function currentRoute() {
    const parts = location.hash.replace(/^#\/?/, "").split("/");
    if (parts[0] === "people") return { name: "people", kind: "people", path: "/feeds/people" };
    if (parts[0] === "person" && parts[1]) {
      const username = decodeURIComponent(parts[1]);
      return { name: "person", kind: "timeline", path: `/feeds/person/${encodeURIComponent(username)}`, username };
    }
    return { name: "list", kind: "timeline", path: "/feeds/list" };
  }

  function feedURL(after) {
    const url = new URL(route.path, location.href);
    // The people feed has one section whatever the page's ?sections= says.
    for (const name of route.name === "people" ? ["moves"] : ["sections", "moves"]) {
      if (parameters.has(name)) url.searchParams.set(name, parameters.get(name));
    }
    url.searchParams.set("limit", String(limit));
    if (after !== null) url.searchParams.set("after", String(after));
    return url.href;
  }

  function showConnection(name, text) {
    dom.connection.dataset.state = name;
    dom.connection.textContent = text;
  }

  function notify(text, kind) {
    dom.notice.textContent = text;
    dom.notice.dataset.kind = kind;
    dom.notice.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { dom.notice.hidden = true; }, kind === "error" ? 10000 : 4000);
  }

  function close() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (source) source.close();
    source = null;
  }

  /**
   * Opens the feed: from its snapshot (`after` null), or resuming after a position (the
   * `position` of the last applied message, never the bare sequence: after a restore the same
   * sequence is another history). The first reconnection after a drop is the browser's own, which
   * sends `Last-Event-ID` (the event's id, that position); when that fails too, the page reconnects
   * itself with growing delays and `?after=` the last applied position.
   */
  function follow(after) {
    close();
    const opened = new EventSource(feedURL(after));
    source = opened;
    showConnection("connecting", after === null ? "connecting…" : `resuming after ${after}…`);
    opened.addEventListener("open", () => {
      if (source !== opened) return;
      failures = 0;
      showConnection("live", "live");
    });
    for (const type of ["snapshot", "reset", "change"]) {
      opened.addEventListener(type, (event) => { if (source === opened) receive(type, event.data); });
    }
    opened.addEventListener("error", () => {
      if (source !== opened) return;
      if (opened.readyState === EventSource.CONNECTING && failures === 0 && after === null) {
        failures = 1;
        showConnection("reconnecting", "reconnecting…");
        return;
      }
      retry();
    });
  }

  function retry() {
    close();
    failures += 1;
    const base = Math.min(MAX_RETRY_DELAY, 1000 * 2 ** Math.min(failures - 1, 5));
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    showConnection("offline", `offline — retrying in ${Math.ceil(delay / 1000)} s`);
    // A window being grown has no position to resume from: the rows held are the smaller one's.
    retryTimer = setTimeout(() => follow(state && !growing ? state.position : null), delay);
  }

  /** Applies one SSE message; a message it cannot apply starts over from a fresh snapshot. */
  function receive(event, data) {
    try {
      let message;
      try {
        message = JSON.parse(data);
      } catch (error) {
        throw new FeedError(`the ${event} message is not JSON: ${error.message}`);
      }
      if (message === null || typeof message !== "object") throw new FeedError(`the ${event} message is not an object`);
      if (message.version !== FORMAT_VERSION) {
        throw new FeedError(`feed format version ${JSON.stringify(message.version)}; this page reads version ${FORMAT_VERSION}`);
      }
      if (!Number.isSafeInteger(message.sequence) || message.sequence < 0) throw new FeedError(`sequence ${JSON.stringify(message.sequence)} is not a sequence number`);
      if (typeof message.position !== "string" || !POSITION.test(message.position) || message.position.split(".")[0] !== String(message.sequence)) {
        throw new FeedError(`position ${JSON.stringify(message.position)} is not the position of sequence ${message.sequence}`);
      }
      // A snapshot replaces everything (a resumed stream may start with one at the same sequence);
      // a change must come after what the page holds.
      if (event === "change" && state && message.sequence <= state.sequence) {
        throw new FeedError(`change ${message.sequence} does not follow ${state.sequence}`);
      }
      const expected = event === "change" ? "change" : "snapshot";
      if (message.type !== expected) throw new FeedError(`a "${event}" event carries a message of type ${JSON.stringify(message.type)}`);
      if (message.type === "snapshot") {
        if (!Array.isArray(message.sections)) throw new FeedError("the snapshot has no sections");
        const sections = message.sections.map((section, s) => checkSection(section, `sections[${s}]`));
        const held = checkWindow(message);
        checkFits(held, sections);
        const reset = (state !== null || message.reason === "reset") && !growing;
        // A larger window that only adds rows after the ones shown is applied as their insertion.
        const grown = growing && state ? growth(state.sections, sections) : null;
        growing = false;
        if (grown) {
          const change = plan(state.sections.map((section) => section.rows.length), grown);
          // The state is the snapshot itself, so that the self-check compares the DOM with it.
          state = { sections, sequence: message.sequence, position: message.position, window: held };
          view.apply(change, { animated: false });
        } else {
          state = { sections, sequence: message.sequence, position: message.position, window: held };
          view.reset(sections);
        }
        if (reset) notify(`The feed started over from a fresh snapshot at ${message.sequence} (${message.reason || event}).`, "info");
      } else {
        if (!state) throw new FeedError("a change arrived before any snapshot");
        const held = checkWindow(message);
        checkPaths(message, "windowLeft", state.sections);
        const change = plan(state.sections.map((section) => section.rows.length), message);
        const sections = applyPlan(state.sections, change);
        checkFits(held, sections);
        checkPaths(message, "windowEntered", sections);
        state = { sections, sequence: message.sequence, position: message.position, window: held };
        view.apply(change);
      }
      dom.feed.dataset.sequence = String(state.sequence);
      dom.feedName.textContent = message.feed ? String(message.feed) : "";
      dom.sequence.textContent = `sequence ${state.sequence}`;
      dom.empty.hidden = state.sections.length !== 0;
      dom.feed.dataset.limit = String(state.window.limit);
      dom.feed.dataset.more = String(state.window.more);
      dom.loadOlder.hidden = !state.window.more || limit >= MAX_LIMIT;
      dom.loadOlder.disabled = false;
      // The observer below reports the end coming into view; an end that stayed in view while a
      // window grew (a window shorter than the screen) is checked here.
      setTimeout(() => { if (endInView()) loadOlder(); }, 0);
      if (verifying) check(event, message.sequence);
    } catch (error) {
      if (!(error instanceof FeedError)) throw error;
      console.error(`tweetie: cannot apply the ${event} message: ${error.message}; starting over from a snapshot`);
      notify(`A ${event} message could not be applied (${error.message}); starting over from a fresh snapshot.`, "error");
      state = null;
      growing = false;
      follow(null);
    }
  }

  /** Whether the end of the window (the "Load older" button) is on the screen or nearly. */
  function endInView() {
    return !dom.loadOlder.hidden && dom.loadOlder.getBoundingClientRect().top < window.innerHeight + 200;
  }

  /**
   * Shows older rows: asks for a window larger by the first one's size. Its snapshot replaces
   * the rows held (the rows shown keep their places, so the scroll position stays).
   */
  function loadOlder() {
    if (growing || !state || !state.window.more || limit >= MAX_LIMIT) return;
    growing = true;
    dom.loadOlder.disabled = true;
    limit = Math.min(MAX_LIMIT, limit + firstLimit);
    follow(null);
  }

  function check(event, sequence) {
    checked += 1;
    const problems = mismatches(route.kind, state.sections, view.read());
    for (const problem of problems) {
      mismatchCount += 1;
      console.error(`tweetie verify: after ${event} ${sequence}: ${problem}`);
      if (dom.verifyList.children.length < 50) dom.verifyList.append(element("li", "", `after ${event} ${sequence}: ${problem}`));
    }
    dom.verify.dataset.checked = String(checked);
    dom.verify.dataset.mismatches = String(mismatchCount);
    dom.verify.classList.toggle("failed", mismatchCount > 0);
    dom.verifySummary.textContent = mismatchCount === 0
      ? `Self-check: ${checked} messages applied, the page matches every one.`
      : `Self-check: ${mismatchCount} mismatches in ${checked} messages.`;
  }

  function open() {
    close();
    route = currentRoute();
    state = null;
    failures = 0;
    limit = firstLimit;
    growing = false;
    dom.loadOlder.hidden = true;
    view = new FeedView(dom.feed, route.kind);
    dom.feed.replaceChildren();
    dom.feed.dataset.view = route.name;
    delete dom.feed.dataset.sequence;
    dom.empty.hidden = true;
    for (const name of ["list", "people"]) {
      document.getElementById(`view-${name}`).classList.toggle("current", route.name === name);
    }
    dom.personTab.hidden = route.name !== "person";
    dom.personTab.textContent = route.username ? `@${route.username}` : "";
    dom.personTab.classList.toggle("current", route.name === "person");
    document.title = route.username ? `@${route.username} — TweetieDB` : route.name === "people" ? "People — TweetieDB" : "TweetieDB — live timeline";
    follow(null);
  }

  if (verifying) {
    dom.verify.hidden = false;
    dom.verify.dataset.checked = "0";
    dom.verify.dataset.mismatches = "0";
    dom.verifySummary.textContent = "Self-check: waiting for the first message.";
  }
  dom.loadOlder.addEventListener("click", loadOlder);
  // Reaching the end of the window loads older rows, as a timeline's scrolling does.
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadOlder();
    }, { rootMargin: "200px" }).observe(dom.loadOlder);
  }
  window.addEventListener("hashchange", open);
  window.addEventListener("pagehide", close);
  open();
})();
