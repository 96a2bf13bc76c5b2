-- The pit archive, version 1 (issue 10; docs/pit.md, "The archive").
-- Applied once, in one transaction, by controller.pit.archive; its version is then recorded in
-- schema_version. A later change is a new numbered file: a file once released is never edited.

-- Every event of every table, exactly once: the table's own (table, seq) is the key, so a QoS 1
-- redelivery, a replay or a second pit service storing the same event changes nothing.
CREATE TABLE events (
    table_id    text        NOT NULL,
    seq         bigint      NOT NULL CHECK (seq >= 1),
    kind        text        NOT NULL,
    round       integer,                    -- null for events outside a round
    ts          timestamptz NOT NULL,       -- the table's clock (the envelope's ts)
    data        jsonb       NOT NULL,       -- the envelope's data, as published
    envelope    jsonb       NOT NULL,       -- the whole envelope as published (seq, ts, table, round, kind, data)
    received_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX events_kind_ts ON events (kind, ts);
CREATE INDEX events_table_ts ON events (table_id, ts);

-- A run of missing seqs of one table, from the first seen gap until it is filled or found
-- unfillable (the table's journal no longer holds it: pruned, or a damaged row). Never deleted:
-- surveillance sees what was missing, when, and why it stayed missing.
CREATE TABLE gaps (
    table_id    text        NOT NULL,
    first_seq   bigint      NOT NULL,
    last_seq    bigint      NOT NULL CHECK (last_seq >= first_seq),
    status      text        NOT NULL CHECK (status IN ('open', 'filled', 'unfillable')),
    reason      text,                       -- why unfillable (the table's refusal), or null
    opened_at   timestamptz NOT NULL DEFAULT now(),
    closed_at   timestamptz,
    asked       integer     NOT NULL DEFAULT 0,   -- cmd/replay requests sent for it
    PRIMARY KEY (table_id, first_seq)
);

-- What the service refused to store (not JSON, schema failure, unknown table, seq backwards),
-- counted and kept for whoever investigates. The payload is kept only up to 4 KiB.
CREATE TABLE rejects (
    id          bigserial   PRIMARY KEY,
    received_at timestamptz NOT NULL DEFAULT now(),
    topic       text        NOT NULL,
    table_id    text,
    reason      text        NOT NULL,
    payload     bytea
);

-- The last status each table published (birth/death), for the board and the reports.
CREATE TABLE tables (
    table_id    text        PRIMARY KEY,
    game        text,
    status      jsonb,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
