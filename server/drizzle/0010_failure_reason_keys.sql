-- A run's error kept a provider's own text (or ffmpeg's) as its {reason}: from now on a reason is a
-- catalogue key (reason_key) that the reader's language fills in. Stored texts go; their place is
-- taken by the generic "see the server log" reason, so no upstream sentence stays on screen.
UPDATE "executions"
SET "error_params" = ("error_params" - 'reason') || '{"reason_key": "reason.unexpected"}'::jsonb
WHERE "error_params" ? 'reason';--> statement-breakpoint
UPDATE "processes"
SET "last_error_params" = ("last_error_params" - 'reason') || '{"reason_key": "reason.unexpected"}'::jsonb
WHERE "last_error_params" ? 'reason';
