-- When an outbox entry was first tried (issue 48): a thread's creation carries no nonce, so an
-- entry tried before (by a process that may have died before hearing Discord's answer) looks
-- for the thread it may have made; a fresh one asks Discord for nothing more than the thread.
ALTER TABLE outbox ADD COLUMN tried_at BIGINT;
