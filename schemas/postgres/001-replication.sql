-- TweetieDB replication through PostgreSQL: schema version 1.
--
-- Applied by `tweetie-replicate init` (and `Replication.installSchema`) in one transaction under an
-- advisory lock; every statement is idempotent, so applying it again changes nothing. The tables
-- live in the schema `tweetie`. The published description of every table and column is
-- docs/replication.md; the comments below say why things are the way they are.

CREATE SCHEMA IF NOT EXISTS tweetie;

-- Which versions of this file were applied. A device refuses a database whose highest version is
-- newer than the versions it knows.
CREATE TABLE IF NOT EXISTS tweetie.schema_migrations (
    version    integer     PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
);

-- Server order: every write to tweetie.records takes the next value, and that value is the
-- record's version. Versions only grow; a device compares the version it last saw with the
-- current one to tell a conflicting write.
CREATE SEQUENCE IF NOT EXISTS tweetie.versions AS bigint;

-- The replicated collections: the field of a record that holds its primary key (so that an SQL
-- client may insert a record without spelling its key), and the highest record schema version any
-- device has declared.
CREATE TABLE IF NOT EXISTS tweetie.collections (
    name           text        PRIMARY KEY,
    key_field      text        NOT NULL DEFAULT 'id',
    schema_version integer     NOT NULL DEFAULT 1 CHECK (schema_version >= 1),
    updated_at     timestamptz NOT NULL DEFAULT now()
);

-- The current state: one row per record. A device's delete leaves a tombstone (deleted, record
-- NULL); an SQL DELETE removes the row. Both reach every device as a delete.
CREATE TABLE IF NOT EXISTS tweetie.records (
    collection      text        NOT NULL REFERENCES tweetie.collections (name),
    key             text        NOT NULL,
    record          jsonb,
    deleted         boolean     NOT NULL DEFAULT false,
    schema_version  integer     CHECK (schema_version >= 1),
    version         bigint      NOT NULL DEFAULT 0,
    origin_device   uuid,
    origin_sequence bigint,
    updated_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (collection, key),
    CHECK (deleted = (record IS NULL))
);

-- The change table: append-only, one row per write to tweetie.records, in the writing transaction.
-- Readers page through it by (txid, id) and read only below the oldest transaction still running
-- (pg_snapshot_xmin): an id (a bigserial) is drawn when a row is inserted, not when its transaction
-- commits, so a transaction holding id 7 can commit after one holding id 8, and a reader that saw
-- 8 and moved past it would never see 7. Every transaction below xmin has ended, so nothing can
-- appear there later; the price is that one long transaction holds every reader back.
CREATE TABLE IF NOT EXISTS tweetie.changes (
    id            bigserial   PRIMARY KEY,
    txid          xid8        NOT NULL DEFAULT pg_current_xact_id(),
    collection    text        NOT NULL,
    key           text        NOT NULL,
    version       bigint      NOT NULL,
    deleted       boolean     NOT NULL,
    record        jsonb,
    origin_device uuid,
    changed_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS changes_by_txid ON tweetie.changes (txid, id);
CREATE INDEX IF NOT EXISTS changes_by_version ON tweetie.changes (collection, key, version);
-- A queue: rows come in at the end and pruning deletes them in bulk, so vacuum should reclaim
-- their space soon and at full speed, or the table's file grows with dead rows between prunings.
ALTER TABLE tweetie.changes SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_cost_delay = 0);

-- Where pruning of tweetie.changes has reached: every change at or below (txid, id) is gone. A
-- device whose pull cursor is below it reads a snapshot of tweetie.records instead.
CREATE TABLE IF NOT EXISTS tweetie.horizon (
    only_row  boolean     PRIMARY KEY DEFAULT true CHECK (only_row),
    txid      xid8        NOT NULL,
    id        bigint      NOT NULL,
    pruned_at timestamptz NOT NULL DEFAULT now()
);

-- The devices: what each has pushed and pulled, the record schema versions it declared, when it
-- was last seen.
CREATE TABLE IF NOT EXISTS tweetie.devices (
    device_id       uuid        PRIMARY KEY,
    name            text        NOT NULL DEFAULT '',
    pushed_sequence bigint      NOT NULL DEFAULT 0,
    pulled_txid     xid8,
    pulled_id       bigint,
    schema_versions jsonb       NOT NULL DEFAULT '{}',
    last_error      text,
    first_seen      timestamptz NOT NULL DEFAULT now(),
    last_seen       timestamptz NOT NULL DEFAULT now()
);

-- Every conflict a device resolved: the value that lost is kept here, beside the one that won.
CREATE TABLE IF NOT EXISTS tweetie.conflicts (
    id              bigserial   PRIMARY KEY,
    collection      text        NOT NULL,
    key             text        NOT NULL,
    resolution      text        NOT NULL,
    losing_record   jsonb,
    losing_deleted  boolean     NOT NULL,
    losing_origin   uuid,
    winning_record  jsonb,
    winning_deleted boolean     NOT NULL,
    winning_origin  uuid,
    resolved_by     uuid        NOT NULL,
    resolved_at     timestamptz NOT NULL DEFAULT now()
);

-- Before a row is written: give it its version, origin and time, keep all of them when the
-- record did not change, and, for a writer that is not a device (no tweetie.device set with
-- set_config('tweetie.device', …, true)), fill the key from the record when it was left out and
-- the schema version from the collection. A device's rows name their key and schema version, so
-- its writes skip the lookup: this trigger runs once per row, and a batch of a thousand rows is
-- the common case. The checks of key and record run once per statement (after_records_written).
CREATE OR REPLACE FUNCTION tweetie.before_record_write() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    field text;
    declared integer;
    device text;
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.record IS NOT DISTINCT FROM OLD.record AND NEW.collection = OLD.collection AND NEW.key = OLD.key THEN
        -- Nothing changed: keep the version, log no change.
        NEW.version := OLD.version;
        NEW.schema_version := COALESCE(NEW.schema_version, OLD.schema_version);
        NEW.origin_device := OLD.origin_device;
        NEW.origin_sequence := OLD.origin_sequence;
        NEW.updated_at := OLD.updated_at;
        RETURN NEW;
    END IF;
    device := NULLIF(current_setting('tweetie.device', true), '');
    IF device IS NULL OR NEW.key IS NULL OR NEW.schema_version IS NULL THEN
        SELECT c.key_field, c.schema_version INTO field, declared FROM tweetie.collections c WHERE c.name = NEW.collection;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'tweetie.records: the collection "%" is not replicated (no row in tweetie.collections)', NEW.collection
                USING ERRCODE = 'foreign_key_violation';
        END IF;
        IF NEW.record IS NOT NULL AND jsonb_typeof(NEW.record) <> 'object' THEN
            RAISE EXCEPTION 'tweetie.records: the record of %/% is a JSON %, not an object', NEW.collection, COALESCE(NEW.key, '?'), jsonb_typeof(NEW.record)
                USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.record IS NOT NULL AND NEW.key IS NULL THEN
            NEW.key := NEW.record ->> field;
            IF NEW.key IS NULL THEN
                RAISE EXCEPTION 'tweetie.records: a record of "%" has no key: the field "%" is missing and no key was given', NEW.collection, field
                    USING ERRCODE = 'not_null_violation';
            END IF;
        END IF;
        IF TG_OP = 'UPDATE' AND device IS NULL AND NEW.schema_version IS NOT DISTINCT FROM OLD.schema_version THEN
            NEW.schema_version := COALESCE(OLD.schema_version, declared);
        END IF;
        NEW.schema_version := COALESCE(NEW.schema_version, declared);
    END IF;
    NEW.deleted := NEW.record IS NULL;
    NEW.origin_device := device::uuid;
    NEW.origin_sequence := NULLIF(current_setting('tweetie.sequence', true), '')::bigint;
    NEW.version := nextval('tweetie.versions');
    NEW.updated_at := now();
    RETURN NEW;
END;
$$;

-- After a statement wrote or removed rows: check every written record against its key, log one
-- change per row whose version moved (a row whose key moved also logs a delete of its old key),
-- and wake the devices that listen, once. A statement-level trigger with transition tables does
-- this in a few set operations where a row-level one would run them per row.
CREATE OR REPLACE FUNCTION tweetie.after_records_written() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    bad record;
    logged bigint := 0;
    more bigint;
BEGIN
    IF TG_OP = 'DELETE' THEN
        -- Removing a tombstone (as tweetie.prune does) deletes nothing a device holds.
        INSERT INTO tweetie.changes (collection, key, version, deleted, record, origin_device)
        SELECT o.collection, o.key, nextval('tweetie.versions'), true, NULL, NULLIF(current_setting('tweetie.device', true), '')::uuid
        FROM old_rows o WHERE NOT o.deleted;
        GET DIAGNOSTICS logged = ROW_COUNT;
    ELSE
        SELECT n.collection, n.key, c.key_field, jsonb_typeof(n.record) AS kind, n.record -> c.key_field AS field_value INTO bad
        FROM new_rows n JOIN tweetie.collections c ON c.name = n.collection
        WHERE n.record IS NOT NULL AND (jsonb_typeof(n.record) <> 'object' OR (n.record ->> c.key_field) IS DISTINCT FROM n.key)
        LIMIT 1;
        IF FOUND THEN
            IF bad.kind <> 'object' THEN
                RAISE EXCEPTION 'tweetie.records: the record of %/% is a JSON %, not an object', bad.collection, bad.key, bad.kind
                    USING ERRCODE = 'check_violation';
            END IF;
            RAISE EXCEPTION 'tweetie.records: the key "%" of a "%" record differs from its field "%" (%)', bad.key, bad.collection, bad.key_field, bad.field_value
                USING ERRCODE = 'check_violation';
        END IF;
        IF TG_OP = 'UPDATE' THEN
            -- A key that moved: its old key is deleted.
            INSERT INTO tweetie.changes (collection, key, version, deleted, record, origin_device)
            SELECT o.collection, o.key, nextval('tweetie.versions'), true, NULL, NULLIF(current_setting('tweetie.device', true), '')::uuid
            FROM old_rows o WHERE NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.collection = o.collection AND n.key = o.key);
            GET DIAGNOSTICS logged = ROW_COUNT;
            INSERT INTO tweetie.changes (collection, key, version, deleted, record, origin_device)
            SELECT n.collection, n.key, n.version, n.deleted, n.record, n.origin_device
            FROM new_rows n
            WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.collection = n.collection AND o.key = n.key AND o.version = n.version);
            GET DIAGNOSTICS more = ROW_COUNT;
            logged := logged + more;
        ELSE
            INSERT INTO tweetie.changes (collection, key, version, deleted, record, origin_device)
            SELECT n.collection, n.key, n.version, n.deleted, n.record, n.origin_device FROM new_rows n;
            GET DIAGNOSTICS logged = ROW_COUNT;
        END IF;
    END IF;
    IF logged > 0 THEN
        PERFORM pg_notify('tweetie_changes', '');
    END IF;
    RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS records_before_write ON tweetie.records;
CREATE TRIGGER records_before_write BEFORE INSERT OR UPDATE ON tweetie.records
    FOR EACH ROW EXECUTE FUNCTION tweetie.before_record_write();
-- The row-level logging trigger of earlier builds of this file, replaced by the three below.
DROP TRIGGER IF EXISTS records_after_write ON tweetie.records;
DROP FUNCTION IF EXISTS tweetie.after_record_write();
DROP TRIGGER IF EXISTS records_after_insert ON tweetie.records;
CREATE TRIGGER records_after_insert AFTER INSERT ON tweetie.records REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tweetie.after_records_written();
DROP TRIGGER IF EXISTS records_after_update ON tweetie.records;
CREATE TRIGGER records_after_update AFTER UPDATE ON tweetie.records REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tweetie.after_records_written();
DROP TRIGGER IF EXISTS records_after_delete ON tweetie.records;
CREATE TRIGGER records_after_delete AFTER DELETE ON tweetie.records REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tweetie.after_records_written();

-- Pruning. Without it tweetie.changes grows by a row per write forever. A change can go once
-- every device that may still come back has read it: the devices seen within the retention (an
-- absent device older than that reads a snapshot when it returns, which loses nothing). A device
-- that is seen but never reads (stuck on an error) would hold the log forever, so a change older
-- than the retention goes too. "Older" is told by marks: each pruning notes where the readable
-- log ended, and the newest mark older than the retention is the age bound, found by its key
-- instead of by scanning changes for their time.
CREATE TABLE IF NOT EXISTS tweetie.prune_marks (
    marked_at timestamptz PRIMARY KEY,
    txid      xid8        NOT NULL,
    id        bigint      NOT NULL
);
-- The tombstones, for pruning: a tombstone whose delete is no longer in the log is removed.
CREATE INDEX IF NOT EXISTS records_tombstones ON tweetie.records (collection, key) WHERE deleted;

-- Prunes tweetie.changes up to the horizon described above, removes the tombstones whose delete
-- was pruned and the conflicts older than the retention, and returns what it did. Any SQL client
-- may call it (a cron job, pg_cron); `tweetie-replicate run` calls it every minute. Callers that
-- come within `min_interval` of the last pruning, or while another prunes, do nothing.
CREATE OR REPLACE FUNCTION tweetie.prune(retention interval DEFAULT interval '7 days', min_interval interval DEFAULT interval '1 minute',
    OUT pruned_changes bigint, OUT removed_tombstones bigint, OUT removed_conflicts bigint, OUT horizon_txid xid8, OUT horizon_id bigint)
LANGUAGE plpgsql AS $$
DECLARE
    readable xid8 := pg_snapshot_xmin(pg_current_snapshot());
    cutoff timestamptz := now() - retention;
    read_txid xid8;
    read_id bigint;
    aged_txid xid8;
    aged_id bigint;
    end_txid xid8;
    end_id bigint;
BEGIN
    pruned_changes := 0;
    removed_tombstones := 0;
    removed_conflicts := 0;
    SELECT h.txid, h.id INTO horizon_txid, horizon_id FROM tweetie.horizon h;
    IF retention IS NULL OR retention < interval '0' OR min_interval IS NULL OR min_interval < interval '0' THEN
        RAISE EXCEPTION 'tweetie.prune: the retention (%) and the minimum interval (%) must be zero or more', retention, min_interval
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF NOT pg_try_advisory_xact_lock(hashtextextended('tweetie.prune', 0)) THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM tweetie.prune_marks m WHERE m.marked_at > now() - min_interval) THEN
        RETURN;
    END IF;
    -- Where the readable log ends now, noted for a later pruning's age bound.
    SELECT c.txid, c.id INTO end_txid, end_id FROM tweetie.changes c WHERE c.txid < readable ORDER BY c.txid DESC, c.id DESC LIMIT 1;
    IF FOUND THEN
        INSERT INTO tweetie.prune_marks (marked_at, txid, id) VALUES (now(), end_txid, end_id) ON CONFLICT (marked_at) DO NOTHING;
    END IF;
    -- What every device seen within the retention has read (none seen: all of the readable log).
    SELECT d.pulled_txid, d.pulled_id INTO read_txid, read_id FROM tweetie.devices d
    WHERE d.last_seen >= cutoff AND d.pulled_txid IS NOT NULL ORDER BY d.pulled_txid, d.pulled_id LIMIT 1;
    IF NOT FOUND THEN
        read_txid := end_txid;
        read_id := end_id;
    END IF;
    -- The age bound, and the marks no later pruning needs.
    SELECT m.txid, m.id INTO aged_txid, aged_id FROM tweetie.prune_marks m WHERE m.marked_at < cutoff ORDER BY m.marked_at DESC LIMIT 1;
    IF FOUND THEN
        DELETE FROM tweetie.prune_marks m WHERE m.marked_at < cutoff AND (m.txid, m.id) <> (aged_txid, aged_id);
        IF read_txid IS NULL OR (aged_txid, aged_id) > (read_txid, read_id) THEN
            read_txid := aged_txid;
            read_id := aged_id;
        END IF;
    END IF;
    IF read_txid IS NULL OR read_txid >= readable
        OR (horizon_txid IS NOT NULL AND (read_txid, read_id) <= (horizon_txid, horizon_id)) THEN
        RETURN;
    END IF;
    INSERT INTO tweetie.horizon (txid, id) VALUES (read_txid, read_id)
        ON CONFLICT (only_row) DO UPDATE SET txid = EXCLUDED.txid, id = EXCLUDED.id, pruned_at = now();
    horizon_txid := read_txid;
    horizon_id := read_id;
    DELETE FROM tweetie.changes c WHERE (c.txid, c.id) <= (read_txid, read_id);
    GET DIAGNOSTICS pruned_changes = ROW_COUNT;
    DELETE FROM tweetie.records r WHERE r.deleted
        AND NOT EXISTS (SELECT 1 FROM tweetie.changes c WHERE c.collection = r.collection AND c.key = r.key AND c.version = r.version);
    GET DIAGNOSTICS removed_tombstones = ROW_COUNT;
    DELETE FROM tweetie.conflicts k WHERE k.resolved_at < cutoff;
    GET DIAGNOSTICS removed_conflicts = ROW_COUNT;
END;
$$;

INSERT INTO tweetie.schema_migrations (version) VALUES (1) ON CONFLICT (version) DO NOTHING;
