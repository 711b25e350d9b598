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

-- Before a row is written: fill the key from the record when an SQL client left it out, check
-- that key and record agree, normalise the tombstone, and give the row its version. A device
-- names itself for the transaction with set_config('tweetie.device', …, true); any other writer's
-- rows have no origin device.
CREATE OR REPLACE FUNCTION tweetie.before_record_write() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    field text;
    declared integer;
    device text;
    sequence text;
BEGIN
    SELECT c.key_field, c.schema_version INTO field, declared FROM tweetie.collections c WHERE c.name = NEW.collection;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'tweetie.records: the collection "%" is not replicated (no row in tweetie.collections)', NEW.collection
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    NEW.deleted := NEW.record IS NULL;
    IF NEW.record IS NOT NULL THEN
        IF jsonb_typeof(NEW.record) <> 'object' THEN
            RAISE EXCEPTION 'tweetie.records: the record of %/% is a JSON %, not an object', NEW.collection, NEW.key, jsonb_typeof(NEW.record)
                USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.key IS NULL THEN
            NEW.key := NEW.record ->> field;
        END IF;
        IF NEW.key IS NULL THEN
            RAISE EXCEPTION 'tweetie.records: a record of "%" has no key: the field "%" is missing and no key was given', NEW.collection, field
                USING ERRCODE = 'not_null_violation';
        END IF;
        IF (NEW.record ->> field) IS DISTINCT FROM NEW.key THEN
            RAISE EXCEPTION 'tweetie.records: the key "%" of a "%" record differs from its field "%" (%)', NEW.key, NEW.collection, field, NEW.record -> field
                USING ERRCODE = 'check_violation';
        END IF;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.record IS NOT DISTINCT FROM OLD.record AND NEW.collection = OLD.collection AND NEW.key = OLD.key THEN
        -- Nothing changed: keep the version, log no change.
        NEW.version := OLD.version;
        NEW.schema_version := COALESCE(NEW.schema_version, OLD.schema_version);
        NEW.origin_device := OLD.origin_device;
        NEW.origin_sequence := OLD.origin_sequence;
        NEW.updated_at := OLD.updated_at;
        RETURN NEW;
    END IF;
    device := current_setting('tweetie.device', true);
    sequence := current_setting('tweetie.sequence', true);
    IF TG_OP = 'UPDATE' AND NEW.schema_version IS NOT DISTINCT FROM OLD.schema_version AND (device IS NULL OR device = '') THEN
        NEW.schema_version := COALESCE(OLD.schema_version, declared);
    END IF;
    NEW.schema_version := COALESCE(NEW.schema_version, declared);
    NEW.origin_device := NULLIF(device, '')::uuid;
    NEW.origin_sequence := NULLIF(sequence, '')::bigint;
    NEW.version := nextval('tweetie.versions');
    NEW.updated_at := now();
    RETURN NEW;
END;
$$;

-- After a row is written or removed: log the change, and wake the devices that listen.
CREATE OR REPLACE FUNCTION tweetie.after_record_write() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO tweetie.changes (collection, key, version, deleted, record, origin_device)
        VALUES (OLD.collection, OLD.key, nextval('tweetie.versions'), true, NULL,
                NULLIF(current_setting('tweetie.device', true), '')::uuid);
    ELSE
        IF TG_OP = 'UPDATE' AND NEW.version = OLD.version THEN
            RETURN NULL;
        END IF;
        IF TG_OP = 'UPDATE' AND (NEW.collection <> OLD.collection OR NEW.key <> OLD.key) THEN
            INSERT INTO tweetie.changes (collection, key, version, deleted, record, origin_device)
            VALUES (OLD.collection, OLD.key, NEW.version, true, NULL, NEW.origin_device);
        END IF;
        INSERT INTO tweetie.changes (collection, key, version, deleted, record, origin_device)
        VALUES (NEW.collection, NEW.key, NEW.version, NEW.deleted, NEW.record, NEW.origin_device);
    END IF;
    PERFORM pg_notify('tweetie_changes', '');
    RETURN NULL;
END;
$$;

DROP TRIGGER IF EXISTS records_before_write ON tweetie.records;
CREATE TRIGGER records_before_write BEFORE INSERT OR UPDATE ON tweetie.records
    FOR EACH ROW EXECUTE FUNCTION tweetie.before_record_write();
DROP TRIGGER IF EXISTS records_after_write ON tweetie.records;
CREATE TRIGGER records_after_write AFTER INSERT OR UPDATE OR DELETE ON tweetie.records
    FOR EACH ROW EXECUTE FUNCTION tweetie.after_record_write();

INSERT INTO tweetie.schema_migrations (version) VALUES (1) ON CONFLICT (version) DO NOTHING;
