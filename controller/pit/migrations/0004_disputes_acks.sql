-- The pit archive, version 4 (issue 22): disputes and acknowledgements. Released as 0003, before
-- the replay claim of issue 19.2 (0003_replay_claim.sql) took 3 when the two lines were merged: an
-- archive that has this file as 3 is renumbered and given the claim (controller.pit.archive).

-- A table's rounds are found by number (controller.pit.rounds) without reading its history.
CREATE INDEX events_table_round ON events (table_id, round) WHERE round IS NOT NULL;

-- A supervisor's acknowledgement of an alarm, from the board: who, when, with what note and to
-- whom it is assigned. Its own id is the key: a QoS 1 redelivery, or several pit services of a
-- group, store it once. An acknowledgement never closes an alarm: the table's going on does.
CREATE TABLE acknowledgements (
    id          text        PRIMARY KEY,
    table_id    text        NOT NULL,
    alarm_seq   bigint      NOT NULL CHECK (alarm_seq >= 1),   -- the acknowledged alarm's event
    code        text        NOT NULL,
    by_user     text        NOT NULL,
    note        text,
    assignee    text,
    ts          timestamptz NOT NULL,                           -- the board's clock when it was made
    received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX acknowledgements_alarm ON acknowledgements (table_id, alarm_seq);
