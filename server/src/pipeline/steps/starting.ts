import { localVoiceAvailable } from '../../providers/localVoice';
import { mediaToolsEnv, resolveMediaTools } from '../../media/ffmpeg';
import { StepFailure, type StepContext } from '../context';
import { formatPlan } from '../format';

/**
 * Step 1: everything the run needs is there — the process's channel, enabled API configuration
 * authorized on YouTube, active prompt with texts in its language and active voice; the user's
 * chat-model key; the voice's speech engine; ffmpeg and ffprobe. A missing one ends the run with what to fix,
 * before any paid call is made.
 */
export async function starting(ctx: StepContext): Promise<void> {
  const { needs, language } = await ctx.services.processes.needs(ctx.userId, ctx.process.id);
  if (needs.length > 0) {
    throw new StepFailure('pipeline.needs', { needs: needs.join(','), language }, `the process needs: ${needs.join(', ')}`);
  }
  // The user's chat-model key: the run's client, built here once and kept for the story's calls
  // (ctx.chat() fails with pipeline.chatModelMissing without a key).
  await ctx.chat();
  // Publishing needs the configuration's authorization: without it the story would be paid for and never uploaded.
  if (!(await ctx.services.youtubeApis.credentialsFor(ctx.userId, { youtubeApiId: ctx.process.youtubeApiId, exact: true }))) {
    throw new StepFailure('pipeline.youtubeNotAuthorized', {}, 'the YouTube API configuration is not authorized');
  }
  const voice = ctx.process.voiceId ? await ctx.services.runs.voice(ctx.process.voiceId) : undefined;
  if (voice?.provider === 'elevenlabs' && !ctx.config.elevenlabsApiKey) {
    throw new StepFailure('pipeline.elevenlabsMissing', {}, 'ELEVENLABS_API_KEY is not set');
  }
  if (voice?.provider === 'espeak' && !(await localVoiceAvailable())) {
    throw new StepFailure('pipeline.espeakMissing', {}, 'the local voice (espeak-ng) does not load');
  }
  try {
    await resolveMediaTools(mediaToolsEnv(ctx.config));
  } catch (error) {
    throw new StepFailure('pipeline.ffmpegMissing', {}, error instanceof Error ? error.message : 'ffmpeg is missing');
  }
  // The run makes what the process asked for when it started, whatever changes meanwhile.
  ctx.checkpoint.format ??= formatPlan(ctx.process.format).format;
}
