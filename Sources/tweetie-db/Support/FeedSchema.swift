/// The JSON Schema of the feed's lines, as `tweetie-db feed --schema` prints it.
///
/// Rules: this is `schemas/tweetie-feed.schema.json` byte for byte (FeedSchemaCLITests compares
/// them): edit the file, then paste it here.
enum FeedSchema {
    static let text = #"""
{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://tweetiedb.example/schemas/tweetie-feed.schema.json",
  "title": "tweetie-db change feed message",
  "description": "One line of `tweetie-db feed` output (NDJSON), feed format version 2. The first line is a snapshot; every later line is a change to apply to the sections the renderer holds, or a new snapshot (reason `reset`) that replaces them. Index paths are [section, row], zero-based. Old paths refer to the sections before the message, new paths to the sections after it. To apply a change: (1) remove the rows at rowDeletions and at rowMoves[].from (old paths); (2) remove the sections at sectionDeletions and sectionMoves[].from (old indices) with their remaining rows; (3) lay out the new section list: new index s is the section of the sectionInsertions element whose index is s if there is one, else the section moved to s, else the next remaining old section in old order; (4) insert rowInsertions[].row at .at and rowMoves[].row at .to, in ascending new-path order; (5) replace the row at rowModifications[].new by .row. The result equals the sections a fresh `tweetie-db feed --once` prints at the same sequence with the same --now. Rows of an inserted section come only inside sectionInsertions[].section.rows and rows of a deleted section go with it: no rowInsertions[].at or rowMoves[].to points into an inserted section, and no rowDeletions[] or rowMoves[].from points into a deleted one (a row that changes section into a new section, or out of a deleted one, is listed as an insertion or deletion in the surviving section only). Section order: the `list` and `person` feeds with --sections day have one section per UTC day, keyed `yyyy-MM-dd`, newest day first, rows newest first (by creation time); with --sections none (the default of `person`) one section keyed `all`. The `people` feed has one section keyed `all`, rows by username (case-insensitive, ascending). A section exists only while it has rows: an empty feed is the snapshot `sections: []`, and the first row to arrive comes as a sectionInsertions element (index 0, the section with its rows), as does a new day; a section whose last row goes is a sectionDeletions entry. Row ids are unique within a feed at any sequence. Relative times (`relativeTime`) are computed against the feed's reference time, --now (default: when the feed started), fixed for the feed's lifetime: two runs print the same rows only with the same --now, and time passing alone never produces a change. Messages coalesce: one change may carry the effect of several commits, so sequence numbers may skip; within one stream they strictly increase (a reset snapshot included). A commit that leaves the feed unchanged may bring no message. Changes from version 1: every message carries `\"version\": 2`, and row ids (`rows[].id`, `row.id`) are decimal strings instead of JSON numbers, because tweet ids exceed 2^53 and JavaScript's JSON.parse rounds such numbers (Twitter added `id_str` for the same reason). Nothing else changed.",
  "type": "object",
  "required": [
    "version",
    "type",
    "feed",
    "sequence"
  ],
  "properties": {
    "version": {
      "const": 2,
      "description": "The feed format version: 2. Version 1 had no `version` field and numeric row ids."
    },
    "type": {
      "enum": [
        "snapshot",
        "change"
      ]
    },
    "feed": {
      "type": "string",
      "description": "Which feed: `list OWNER/SLUG`, `person USERNAME` or `people OWNER/SLUG`."
    },
    "sequence": {
      "type": "integer",
      "minimum": 0,
      "description": "The database change-log sequence this message brings the renderer to. Strictly increasing within one stream; it may skip, since one change may carry several commits."
    },
    "reason": {
      "enum": [
        "initial",
        "reset"
      ],
      "description": "Snapshots only: `initial` for the first, `reset` when the feed fell behind the change log's retention bound and starts over."
    },
    "sections": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/section"
      },
      "description": "Snapshots only: every section, complete."
    },
    "sectionDeletions": {
      "type": "array",
      "items": {
        "type": "integer",
        "minimum": 0
      },
      "description": "Old indices of deleted sections, ascending; their rows go with them and are not listed in rowDeletions or rowMoves[].from."
    },
    "sectionInsertions": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "index",
          "section"
        ],
        "properties": {
          "index": {
            "type": "integer",
            "minimum": 0
          },
          "section": {
            "$ref": "#/$defs/section"
          }
        },
        "additionalProperties": false
      },
      "description": "New sections: `index` is the section's index in the new section list (after this change), `section` is that section, complete with all its rows; those rows are not listed in rowInsertions, and no rowInsertions[].at or rowMoves[].to points into it."
    },
    "sectionMoves": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/move"
      },
      "description": "Sections that moved, old index to new index. Empty for the built-in feeds, whose sections are ordered by their key."
    },
    "rowDeletions": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/path"
      },
      "description": "Old paths of deleted rows, ascending."
    },
    "rowInsertions": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "at",
          "row"
        ],
        "properties": {
          "at": {
            "$ref": "#/$defs/path"
          },
          "row": {
            "$ref": "#/$defs/row"
          }
        },
        "additionalProperties": false
      },
      "description": "Inserted rows at new paths, ascending."
    },
    "rowModifications": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "old",
          "new",
          "row"
        ],
        "properties": {
          "old": {
            "$ref": "#/$defs/path"
          },
          "new": {
            "$ref": "#/$defs/path"
          },
          "row": {
            "$ref": "#/$defs/row"
          }
        },
        "additionalProperties": false
      },
      "description": "Rows whose contents changed in place (not moved): where they were, where they are after the other changes, and their new contents."
    },
    "rowMoves": {
      "type": "array",
      "items": {
        "type": "object",
        "required": [
          "from",
          "to",
          "row"
        ],
        "properties": {
          "from": {
            "$ref": "#/$defs/path"
          },
          "to": {
            "$ref": "#/$defs/path"
          },
          "row": {
            "$ref": "#/$defs/row"
          }
        },
        "additionalProperties": false
      },
      "description": "Rows that moved (their sort position or section changed), with their contents at the new place; `from` is never in a deleted section and `to` never in an inserted one. Empty with --no-moves, which lists them as a deletion plus an insertion instead."
    }
  },
  "additionalProperties": false,
  "allOf": [
    {
      "if": {
        "properties": {
          "type": {
            "const": "snapshot"
          }
        }
      },
      "then": {
        "required": [
          "sections",
          "reason"
        ]
      }
    },
    {
      "if": {
        "properties": {
          "type": {
            "const": "change"
          }
        }
      },
      "then": {
        "required": [
          "sectionDeletions",
          "sectionInsertions",
          "sectionMoves",
          "rowDeletions",
          "rowInsertions",
          "rowModifications",
          "rowMoves"
        ]
      }
    }
  ],
  "$defs": {
    "path": {
      "type": "array",
      "items": {
        "type": "integer",
        "minimum": 0
      },
      "minItems": 2,
      "maxItems": 2
    },
    "move": {
      "type": "object",
      "required": [
        "from",
        "to"
      ],
      "properties": {
        "from": {
          "type": "integer",
          "minimum": 0
        },
        "to": {
          "type": "integer",
          "minimum": 0
        }
      },
      "additionalProperties": false
    },
    "section": {
      "type": "object",
      "required": [
        "key",
        "title",
        "rows"
      ],
      "properties": {
        "key": {
          "type": "string",
          "description": "The section's identity: a UTC day `yyyy-MM-dd` with --sections day, `all` with --sections none and in the `people` feed.",
          "pattern": "^([0-9]{4}-[0-9]{2}-[0-9]{2}|all)$"
        },
        "title": {
          "type": "string",
          "description": "The display title: `All` for the section `all`, else the UTC day like `Saturday, Dec 8`, with the year (`Friday, Dec 8, 2017`) when it is not the year of --now."
        },
        "rows": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/row"
          }
        }
      },
      "additionalProperties": false
    },
    "row": {
      "description": "A display-ready row: a tweet row for the `list` and `person` feeds, a person row for the `people` feed.",
      "oneOf": [
        {
          "title": "tweet row",
          "type": "object",
          "required": [
            "id",
            "author",
            "handle",
            "text",
            "relativeTime",
            "imageURL",
            "created"
          ],
          "properties": {
            "id": {
              "$ref": "#/$defs/rowId"
            },
            "author": {
              "type": "string",
              "description": "The author's display name."
            },
            "handle": {
              "type": "string",
              "description": "`@username`."
            },
            "text": {
              "type": "string"
            },
            "relativeTime": {
              "type": "string",
              "description": "Age relative to the feed's reference time (--now): `5m`, `3h`, `2d` or `Dec 8`."
            },
            "imageURL": {
              "type": "string"
            },
            "created": {
              "type": "string",
              "format": "date-time"
            }
          },
          "additionalProperties": false
        },
        {
          "title": "person row",
          "type": "object",
          "required": [
            "id",
            "name",
            "handle",
            "about",
            "imageURL"
          ],
          "properties": {
            "id": {
              "$ref": "#/$defs/rowId"
            },
            "name": {
              "type": "string"
            },
            "handle": {
              "type": "string"
            },
            "about": {
              "type": "string"
            },
            "imageURL": {
              "type": "string"
            }
          },
          "additionalProperties": false
        }
      ]
    },
    "rowId": {
      "type": "string",
      "pattern": "^(0|-?[1-9][0-9]*)$",
      "description": "The tweet's or user's id as a decimal string (exact above 2^53); unique within the feed. Version 1 wrote a JSON number."
    }
  }
}
"""#
}
