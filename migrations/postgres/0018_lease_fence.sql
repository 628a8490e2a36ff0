-- Fencing tokens on leases (issue 60): `fence` goes up every time a lease passes to another
-- holder, is claimed again after it lapsed or was given up, or is taken back by a restarted
-- process of the same role; a holder renewing it keeps it. Every write made under a lease (a
-- timer's or a bot's event, an outbox lane's marks) checks in its own transaction that the lease
-- is still held with the token it was claimed with, so a process that was paused past its lease
-- and wakes after another took over writes nothing. A lease given up keeps its row (owner '',
-- until_ms 0) so its token is never handed out twice.
ALTER TABLE leases ADD COLUMN fence BIGINT NOT NULL DEFAULT 0;
