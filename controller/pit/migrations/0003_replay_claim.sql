-- The pit archive, version 3 (docs/pit.md, "Gaps"): which service asks a table for its gaps.
--
-- Every service of a group sees every gap (they are the archive's); one of them asks the table, so
-- that a gap is replayed once and not once per service (each of which gets only its share of any
-- replay anyway). The service asking holds the claim until replay_until and renews it while the
-- table's gaps are open; it gives it back once they are filled, and another service takes it over
-- once it lapses (the one asking was killed).
ALTER TABLE tables ADD COLUMN replay_by text;
ALTER TABLE tables ADD COLUMN replay_until timestamptz;
