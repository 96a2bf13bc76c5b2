-- The pit archive, version 2 (docs/pit.md, "Gaps"): how far each table's seqs have been checked.
--
-- Every seq of the table up to archived_to is either in events or in a gaps row. A pit service
-- that restarts, or one of several sharing a site, checks a table's seqs only above it, so that
-- finding the holes never reads a table's whole history. The row is locked (SELECT ... FOR
-- UPDATE) while a service checks the table: two services never record one hole twice.
ALTER TABLE tables ADD COLUMN archived_to bigint NOT NULL DEFAULT 0 CHECK (archived_to >= 0);
