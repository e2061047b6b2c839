import path from 'node:path';
import { PublishError } from '../../providers/youtubeUpload';
import { RUN_FILES } from '../../runLayout';
import type { ProcessNeed } from '../../contracts/processes';
import { publishAtOf } from '../../services/publishTime';
import { LeaseLost } from '../../services/executionRuns';
import { StepFailure, warn, type StepContext } from '../context';
import { runFormat } from '../format';
import { languageName } from '../story';

/** What a process may lack that stops an upload (the story, voice and images are made by then). */
const UPLOAD_NEEDS: ReadonlySet<ProcessNeed> = new Set([
  'channel',
  'channel_disabled',
  'youtube_api',
  'youtube_api_disabled',
  'channel_mismatch',
]);

export { publishAtOf };

/** YouTube's description limit (bytes; characters are a safe bound here). */
const DESCRIPTION_MAX = 4900;

/**
 * The video's tags, from the story: its title, the prompt's name, the language, then the title's
 * words of four letters or more (YouTube keeps what fits in 500 characters).
 */
export function storyTags(title: string, promptName: string | undefined, language: string): string[] {
  const words = title
    .toLocaleLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => [...word].length >= 4);
  const tags = [title, promptName, languageName(language), ...words].filter((tag): tag is string => Boolean(tag?.trim()));
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = tag.toLocaleLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function failureOf(error: unknown): StepFailure {
  if (error instanceof StepFailure) return error;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  if (error instanceof PublishError) {
    if (error.kind === 'quota') return new StepFailure('pipeline.youtubeQuota', {}, message);
    if (error.kind === 'upload_limit') return new StepFailure('pipeline.uploadLimit', {}, message);
    if (error.kind === 'invalid_grant' || error.kind === 'unauthorized')
      return new StepFailure('pipeline.youtubeRevoked', {}, message);
  }
  if (error instanceof PublishError && error.status)
    return new StepFailure('pipeline.uploadFailedStatus', { status: error.status }, message);
  return new StepFailure('pipeline.uploadFailed', {}, message);
}

/**
 * Step 7: the resumable upload to YouTube — private, with publishAt the day after the execution
 * at the chosen time in the user's time zone, the story's title, premise and language, declared
 * as synthetic media and not made for kids — then the thumbnail. The upload session is stored on
 * the publication, so a server killed mid-upload resumes it instead of uploading a second video.
 */
export async function publishingVideo(ctx: StepContext): Promise<void> {
  const { services, process, execution } = ctx;
  // Where the video goes is checked again just before it goes: a configuration switched off or
  // deleted, a channel disabled, or a configuration now pointing at another YouTube channel during
  // the run ends it saying so; another configuration is never used in its place.
  const { needs, language } = await services.processes.needs(ctx.userId, process.id);
  const missing = needs.filter((need) => UPLOAD_NEEDS.has(need));
  if (missing.length > 0) {
    throw new StepFailure('pipeline.needs', { needs: missing.join(','), language }, `the process needs: ${missing.join(', ')}`);
  }
  const credentials = await services.youtubeApis.credentialsFor(ctx.userId, { youtubeApiId: process.youtubeApiId, exact: true });
  if (!credentials) {
    throw new StepFailure('pipeline.youtubeNotAuthorized', {}, 'the YouTube API configuration is not authorized');
  }
  const timeZone = await services.runs.timeZoneOf(ctx.userId);
  const title = ctx.checkpoint.texts!.title;
  // "review first": uploaded private with no publication time; the owner approves or rejects it.
  const review = process.publishMode === 'review';
  const publishAt = publishAtOf(execution.startedAt ?? ctx.now(), process.publicationTime, timeZone, ctx.now());

  const publication = await services.publications.forExecution({
    userId: ctx.userId,
    executionId: execution.id,
    processId: process.id,
    channelId: process.channelId,
    videoTitle: title,
    publishAt,
  });
  let videoId = publication.videoId;
  try {
    if (!videoId) {
      // Only the run's holder starts (or resumes) the upload: one execution, one video.
      await ctx.assertHeld();
      const texts = process.promptId ? await services.runs.promptTexts(process.promptId, ctx.language) : undefined;
      // A vertical video of three minutes or less is a Short to YouTube; #Shorts says it out loud.
      const hashtag = runFormat(ctx).format === 'short' ? '\n\n#Shorts' : '';
      const description = `${`${ctx.checkpoint.texts!.premise}\n\n${title}`.slice(0, DESCRIPTION_MAX - hashtag.length)}${hashtag}`;
      const session = publication.uploadSession as { uri: string; total: number } | null;
      ({ videoId } = await services.publisher.uploadVideo({
        credentials,
        file: path.join(ctx.workDir, RUN_FILES.video),
        metadata: {
          title,
          description,
          tags: storyTags(title, texts?.promptName, ctx.language),
          language: ctx.language,
          publishAt: review ? null : (publication.publishedAt ?? publishAt),
          madeForKids: false,
          syntheticMedia: true,
        },
        session: session?.uri ? session : null,
        onSession: async (next) => {
          if (!(await services.publications.saveUploadSession(publication.id, { ...next }, ctx.lease))) {
            throw new LeaseLost(execution.id);
          }
        },
        signal: ctx.signal,
        ...(ctx.proxyUrl ? { proxyUrl: ctx.proxyUrl } : {}),
        onProgress: (received, total) => void ctx.progress(Math.floor((received / total) * 100), 100, 'percent'),
      }));
      await services.publications.recordYoutubeCall(ctx.userId, 'videos.insert', {
        youtubeApiId: credentials.youtubeApiId,
        executionId: execution.id,
      });
      if (!(await services.publications.uploaded(publication.id, videoId, ctx.lease))) {
        // Uploaded, but the run is no longer ours. Cancelled: the video must not stay on YouTube.
        // Taken by another worker: it resumes the same upload session and records this same video.
        const now = await services.runs.load(execution.id);
        if (now?.status === 'cancelled') {
          await services.publisher
            .deleteVideo({ credentials, videoId })
            .catch((error: unknown) =>
              ctx.log.warn({ err: error, executionId: execution.id, videoId }, 'video of a cancelled run not deleted'),
            );
        }
        throw new LeaseLost(execution.id);
      }
    }
    if (review) await services.publications.awaitingReview(publication.id);
    ctx.checkpoint.publication = { id: publication.id, videoId, review };
    await ctx.save();
  } catch (error) {
    if (ctx.signal.aborted || error instanceof LeaseLost) throw error;
    const failure = failureOf(error);
    // YouTube's own words go to the log, with the publication; the row and the run keep our key.
    ctx.log.warn({ publicationId: publication.id, executionId: execution.id, reason: failure.message }, 'upload failed');
    await services.publications.uploadFailed(publication.id, failure.key, failure.params);
    throw failure;
  }

  // A thumbnail YouTube refuses (an unverified channel cannot set one) does not undo the upload.
  try {
    await services.publisher.setThumbnail({
      credentials,
      videoId,
      file: path.join(ctx.workDir, RUN_FILES.thumbnail),
      ...(ctx.proxyUrl ? { proxyUrl: ctx.proxyUrl } : {}),
    });
    await services.publications.recordYoutubeCall(ctx.userId, 'thumbnails.set', {
      youtubeApiId: credentials.youtubeApiId,
      executionId: execution.id,
    });
  } catch (error) {
    ctx.log.warn({ executionId: execution.id, err: error }, 'thumbnail not set');
  }

  // The subtitles as a caption track in the story's language, once (a resumed step skips it). A
  // refusal does not undo the upload either: the run says so (the video has them burnt in anyway).
  const captions = ctx.checkpoint.video?.captions;
  if (captions && !ctx.checkpoint.captions) {
    try {
      await services.publisher.insertCaptions({
        credentials,
        videoId,
        language: ctx.language,
        file: path.join(ctx.workDir, captions),
        ...(ctx.proxyUrl ? { proxyUrl: ctx.proxyUrl } : {}),
      });
      await services.publications.recordYoutubeCall(ctx.userId, 'captions.insert', {
        youtubeApiId: credentials.youtubeApiId,
        executionId: execution.id,
      });
      ctx.checkpoint.captions = { language: ctx.language };
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      ctx.log.warn({ executionId: execution.id, videoId, err: error }, 'captions not added');
      warn(ctx, 'pipeline.captionsFailed');
    }
    await ctx.save();
  }
}
