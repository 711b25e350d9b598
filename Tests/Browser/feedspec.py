"""The change feed's rules (feed format version 4, schemas/tweetie-feed.schema.json), in Python, for
the browser tests: a reference applier, and a generator of changesets between two arbitrary
section lists that covers every change kind the format has (row deletions, insertions, moves within
and across sections, modifications, section deletions, insertions and moves), with and without
moves."""

import copy
import random

# Tweet ids beyond 2**53: neighbours that a JavaScript number cannot tell apart.
BASE_ID = 1071325319259414528


def position(sequence):
    """A made-up history position for `sequence`: SEQUENCE.COMMITID (16 lowercase hex digits), or 0."""
    return "0" if sequence == 0 else f"{sequence}.{(sequence * 0x9E3779B97F4A7C15) % 2**64:016x}"


# The window the page asks for unless told otherwise (?limit=), as tweetie-serve's default.
PAGE_LIMIT = 100


def window(sections, limit=PAGE_LIMIT, more=False):
    """A message's window over `sections`: checked to hold them."""
    assert sum(len(s["rows"]) for s in sections) <= limit
    return {"limit": limit, "more": more}


def snapshot(sections, feed, sequence, reason="initial", limit=PAGE_LIMIT, more=False):
    return {"version": 4, "type": "snapshot", "feed": feed, "sequence": sequence, "position": position(sequence),
            "reason": reason, "sections": sections, "window": window(sections, limit, more)}


def apply(sections, message):
    """The sections after `message`, by the five steps of the README's "The change feed"."""
    if message["type"] == "snapshot":
        return copy.deepcopy(message["sections"])
    assert message["type"] == "change", message["type"]
    removed_rows = {tuple(p) for p in message.get("rowDeletions", [])}
    removed_rows |= {tuple(m["from"]) for m in message.get("rowMoves", [])}
    kept = [
        {"key": s["key"], "title": s["title"], "rows": [row for r, row in enumerate(s["rows"]) if (i, r) not in removed_rows]}
        for i, s in enumerate(sections)
    ]
    removed_sections = set(message.get("sectionDeletions", [])) | {m["from"] for m in message.get("sectionMoves", [])}
    inserted = {i["index"]: copy.deepcopy(i["section"]) for i in message.get("sectionInsertions", [])}
    moved = {m["to"]: kept[m["from"]] for m in message.get("sectionMoves", [])}
    remaining = [s for i, s in enumerate(kept) if i not in removed_sections]
    count = len(sections) - len(message.get("sectionDeletions", [])) + len(inserted)
    result = []
    for index in range(count):
        if index in inserted:
            result.append(inserted[index])
        elif index in moved:
            result.append(moved[index])
        else:
            result.append(remaining.pop(0))
    assert not remaining, "old sections left without a place"
    additions = [(tuple(i["at"]), i["row"]) for i in message.get("rowInsertions", [])]
    additions += [(tuple(m["to"]), m["row"]) for m in message.get("rowMoves", [])]
    for (s, r), row in sorted(additions, key=lambda a: a[0]):
        assert r <= len(result[s]["rows"])
        result[s]["rows"].insert(r, row)
    for m in message.get("rowModifications", []):
        s, r = m["new"]
        assert result[s]["rows"][r]["id"] == m["row"]["id"]
        result[s]["rows"][r] = m["row"]
    return result


def _longest_increasing(values):
    """Indices (into `values`) of one longest strictly increasing subsequence."""
    tails, links, best = [], [None] * len(values), []
    for i, value in enumerate(values):
        lo, hi = 0, len(tails)
        while lo < hi:
            mid = (lo + hi) // 2
            if values[tails[mid]] < value:
                lo = mid + 1
            else:
                hi = mid
        links[i] = tails[lo - 1] if lo > 0 else None
        if lo == len(tails):
            tails.append(i)
        else:
            tails[lo] = i
    i = tails[-1] if tails else None
    while i is not None:
        best.append(i)
        i = links[i]
    return set(best)


def changeset(old, new, feed, sequence, moves=True):
    """The change message that takes `old` to `new` (sections identified by key, rows by id)."""
    old_index = {s["key"]: i for i, s in enumerate(old)}
    new_index = {s["key"]: i for i, s in enumerate(new)}
    surviving = [s["key"] for s in old if s["key"] in new_index]
    in_order = _longest_increasing([new_index[k] for k in surviving])
    moved_keys = {k for n, k in enumerate(surviving) if n not in in_order}
    deleted = {old_index[s["key"]] for s in old if s["key"] not in new_index}
    inserted = {new_index[s["key"]] for s in new if s["key"] not in old_index}
    section_moves = []
    for key in sorted(moved_keys, key=lambda k: old_index[k]):
        if moves:
            section_moves.append({"from": old_index[key], "to": new_index[key]})
        else:
            deleted.add(old_index[key])
            inserted.add(new_index[key])
    old_of_new = {new_index[k]: old_index[k] for k in surviving if old_index[k] not in deleted}

    old_at = {row["id"]: (s, r) for s, section in enumerate(old) for r, row in enumerate(section["rows"])}
    new_at = {row["id"]: (s, r) for s, section in enumerate(new) for r, row in enumerate(section["rows"])}
    old_row = {row["id"]: row for section in old for row in section["rows"]}
    deletions, insertions, row_moves, modifications = [], [], [], []
    for row_id, (s, r) in old_at.items():
        if s not in deleted and (row_id not in new_at or new_at[row_id][0] in inserted):
            deletions.append([s, r])
    for row_id, (s, r) in new_at.items():
        if s not in inserted and (row_id not in old_at or old_at[row_id][0] in deleted):
            insertions.append({"at": [s, r], "row": new[s]["rows"][r]})
    for new_s, old_s in old_of_new.items():
        staying = [row["id"] for row in old[old_s]["rows"] if row["id"] in new_at and new_at[row["id"]][0] == new_s]
        in_place = _longest_increasing([new_at[i][1] for i in staying])
        for n, row_id in enumerate(staying):
            row = new[new_s]["rows"][new_at[row_id][1]]
            if n not in in_place:
                row_moves.append({"from": list(old_at[row_id]), "to": list(new_at[row_id]), "row": row})
            elif row != old_row[row_id]:
                modifications.append({"old": list(old_at[row_id]), "new": list(new_at[row_id]), "row": row})
    for row_id, (s, r) in new_at.items():
        if s in inserted or row_id not in old_at:
            continue
        old_s = old_at[row_id][0]
        if old_s not in deleted and old_of_new.get(s) != old_s:
            row_moves.append({"from": list(old_at[row_id]), "to": [s, r], "row": new[s]["rows"][r]})
    if not moves:
        deletions += [m["from"] for m in row_moves]
        insertions += [{"at": m["to"], "row": m["row"]} for m in row_moves]
        row_moves = []
    return {
        "version": 4, "type": "change", "feed": feed, "sequence": sequence, "position": position(sequence),
        "window": window(new),
        "sectionDeletions": sorted(deleted),
        "sectionInsertions": [{"index": i, "section": copy.deepcopy(new[i])} for i in sorted(inserted)],
        "sectionMoves": section_moves,
        "rowDeletions": sorted(deletions),
        "rowInsertions": sorted(insertions, key=lambda i: i["at"]),
        "rowModifications": sorted(modifications, key=lambda m: m["old"]),
        "rowMoves": sorted(row_moves, key=lambda m: m["from"]),
    }


class World:
    """Random timelines: sections keyed like days, rows like the list feed's tweet rows."""

    NAMES = [("Marin Todorov", "@icanzilb"), ("Maya Lindqvist", "@mayalindqvist"), ("Ana Souza", "@anasouza"),
             ("李 小龙", "@xiaolong"), ("Émile Zola", "@ezola"), ("_underscore", "@under_score"), ("", "@noname")]

    def __init__(self, seed):
        self.random = random.Random(seed)
        self.next_id = 0
        self.next_day = 0

    def row(self):
        self.next_id += 1
        name, handle = self.random.choice(self.NAMES)
        return {
            "id": str(BASE_ID + self.next_id),
            "author": name, "handle": handle,
            "text": self.text(),
            "relativeTime": f"{self.random.randint(1, 59)}m",
            "imageURL": f"https://pbs.twimg.com/profile_images/{self.next_id}/avatar.png",
            "created": "2018-12-08T10:00:00Z",
        }

    def text(self):
        words = ["RxSwift", "<b>not bold</b>", "&amp;", "  spaces  ", "emoji 🚀", "line\nbreak", "Realm", "TweetieDB"]
        return " ".join(self.random.choice(words) for _ in range(self.random.randint(1, 6)))

    def section(self, rows):
        self.next_day += 1
        return {"key": f"2018-12-{self.next_day:02d}", "title": f"Day {self.next_day}", "rows": rows}

    def sections(self, count, rows):
        return [self.section([self.row() for _ in range(rows)]) for _ in range(count)]

    def mutate(self, sections):
        """A random next version of `sections`: every kind of change, a few at a time."""
        rnd = self.random
        new = copy.deepcopy(sections)
        for _ in range(rnd.randint(1, 6)):
            kind = rnd.choice(["delete", "insert", "move", "modify", "modify", "section-delete", "section-insert",
                               "section-move", "row-to-new-section", "move"])
            rows = [(s, r) for s, section in enumerate(new) for r in range(len(section["rows"]))]
            if kind == "delete" and rows:
                s, r = rnd.choice(rows)
                del new[s]["rows"][r]
            elif kind == "insert" and new:
                section = rnd.choice(new)
                section["rows"].insert(rnd.randint(0, len(section["rows"])), self.row())
            elif kind == "move" and rows:
                s, r = rnd.choice(rows)
                row = new[s]["rows"].pop(r)
                if rnd.random() < 0.5:
                    row["text"] = self.text()
                target = rnd.choice(new)
                target["rows"].insert(rnd.randint(0, len(target["rows"])), row)
            elif kind == "modify" and rows:
                s, r = rnd.choice(rows)
                new[s]["rows"][r]["text"] = self.text()
                new[s]["rows"][r]["relativeTime"] = f"{rnd.randint(1, 23)}h"
            elif kind == "section-delete" and new:
                del new[rnd.randrange(len(new))]
            elif kind == "section-insert":
                new.insert(rnd.randint(0, len(new)), self.section([self.row() for _ in range(rnd.randint(1, 3))]))
            elif kind == "section-move" and len(new) > 1:
                section = new.pop(rnd.randrange(len(new)))
                new.insert(rnd.randint(0, len(new)), section)
            elif kind == "row-to-new-section" and rows:
                s, r = rnd.choice(rows)
                row = new[s]["rows"].pop(r)
                new.insert(rnd.randint(0, len(new)), self.section([row, self.row()]))
        return [section for section in new if section["rows"]]
