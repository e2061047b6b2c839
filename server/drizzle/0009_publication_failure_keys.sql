ALTER TABLE "publications" ADD COLUMN "failure_key" text;--> statement-breakpoint
ALTER TABLE "publications" ADD COLUMN "failure_params" jsonb;--> statement-breakpoint
-- Failures stored as upstream text become keys of the message catalogue: the ones recognised
-- (quota, authorization, upload limit, forbidden, YouTube's processing and rejection reasons) to
-- theirs, any other to a generic "the upload failed; see the server log". The text itself goes.
UPDATE "publications" SET "failure_key" = CASE
  WHEN "failure_reason" ~* 'quota' THEN 'pipeline.youtubeQuota'
  WHEN "failure_reason" ~* 'invalid_grant|revoked|unauthori[sz]ed|expired' THEN 'pipeline.youtubeRevoked'
  WHEN "failure_reason" ~* 'upload ?limit|uploadLimitExceeded' THEN 'pipeline.uploadLimit'
  WHEN "failure_reason" ~* 'forbidden' THEN 'publications.failure.forbidden'
  WHEN "failure_reason" ~* '^(codec|conversion|emptyFile|invalidFile|tooSmall|uploadAborted)$' THEN 'publications.failure.processing'
  WHEN "failure_reason" ~* '^(claim|copyright|duplicate|inappropriate|legal|length|termsOfUse|trademark|uploaderAccountClosed|uploaderAccountSuspended)$' THEN 'publications.failure.rejected'
  ELSE 'publications.failure.generic'
END, "failure_params" = '{}'::jsonb
WHERE "failure_reason" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "publications" DROP COLUMN "failure_reason";
