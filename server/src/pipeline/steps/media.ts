import fs from 'node:fs/promises';
import path from 'node:path';
import type { MessageKey, MessageParams } from '../../messages';
import { createElevenLabsClient } from '../../providers/elevenlabs';
import { assertPublicUrl, isBlockedAddressError, userDispatcher } from '../../lib/egress';
import { OPENAI_SPEECH_MAX_CHARS, createOpenAIMediaClient } from '../../providers/openaiMedia';
import { writeFileAtomic } from '../../lib/atomicWrite';
import { textPieces, type TextSpan } from '../../lib/text';
import { concatWav, parseWav } from '../../lib/wav';
import { ProviderError } from '../../providers/providerError';
import { failureReason } from '../../providers/reasons';
import { espeakSpeak, espeakVoiceFor } from '../../providers/speech';
import { StepFailure, warn, type StepContext } from '../context';
import { mediaToolsEnv, resolveMediaTools } from '../../media/ffmpeg';
import { makeSceneCard } from '../../media/sceneCards';
import { renderSettingsFor } from '../../media/render';
import { splitScenes } from '../story';
import { runFormat } from '../format';

/** The file beside a narration that holds its words' start times (local voice only). */
export const wordsFile = (audioFile: string): string => audioFile.replace(/\.wav$/, '.words.json');

/**
 * An image model's portrait size, for a Short (landscape is the client's default): what each of
 * OpenAI's models accepts, and gpt-image-1's for any other (a local server's) model.
 */
export function portraitImageSize(model: string): string {
  if (model.startsWith('dall-e-2')) return '1024x1024';
  if (model.startsWith('dall-e')) return '1024x1792';
  return '1024x1536';
}
/** OpenAI's voice when a voice of provider openai names none. */
const DEFAULT_OPENAI_VOICE = 'alloy';

async function exists(file: string): Promise<boolean> {
  return (await fs.stat(file).catch(() => undefined))?.isFile() ?? false;
}

/**
 * A provider's failure as the run's error: a refused key and an empty quota say what to do; any
 * other failure names its kind (and HTTP status) in the product's words. What the provider
 * answered stays in the error's text, for the server log only.
 */
function providerFailure(error: unknown, service: string, key: MessageKey, params: MessageParams): StepFailure {
  if (error instanceof StepFailure) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ProviderError) {
    if (error.kind === 'blocked') return new StepFailure('pipeline.addressNotAllowed', {}, message);
    if (error.kind === 'invalid_key') return new StepFailure('pipeline.keyRefused', { service }, message);
    if (error.kind === 'quota') return new StepFailure('pipeline.quota', { service }, message);
  }
  return new StepFailure(key, { ...params, ...failureReason(error) }, message);
}

/**
 * The OpenAI-compatible client for speech or for images: the user's own server for that kind when
 * set (Settings, chat model), else the chat API's root; the user's key only where the chat API
 * lives. A user's root reaches public addresses only (unless ALLOW_PRIVATE_URLS); the operator's
 * default is trusted.
 */
async function openaiClient(ctx: StepContext, kind: 'speech' | 'image') {
  const endpoints = await ctx.services.chatModel.mediaEndpointsFor(ctx.userId);
  if (!endpoints) throw new StepFailure('pipeline.chatModelMissing', {}, 'no chat-model key');
  const endpoint = endpoints[kind];
  let dispatcher = ctx.dispatcher;
  const allowPrivate = ctx.config.allowPrivateUrls;
  if (endpoint.userRoot) {
    if (ctx.dispatcher && !allowPrivate) {
      await assertPublicUrl(endpoint.baseUrl).catch((error: unknown) => {
        if (isBlockedAddressError(error)) throw new StepFailure('pipeline.addressNotAllowed', {}, String(error));
      });
    }
    dispatcher = userDispatcher({ allowPrivate, proxy: ctx.dispatcher });
  }
  // An image answered as a URL is the answer's address, whoever answered: checked like a user's.
  const downloadDispatcher = userDispatcher({ allowPrivate, proxy: ctx.dispatcher });
  return createOpenAIMediaClient({
    ...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
    baseUrl: endpoint.baseUrl,
    ...(dispatcher ? { dispatcher } : {}),
    ...(downloadDispatcher ? { downloadDispatcher } : {}),
    timeoutMs: ctx.config.outboundTimeoutMs,
    maxRetries: 4,
    speechModel: (kind === 'speech' && endpoint.model) || ctx.config.openaiSpeechModel,
    imageModel: (kind === 'image' && endpoint.model) || ctx.config.openaiImageModel,
  });
}

/** What chapter `index` narrates: the first one opens with the title. */
export function narrationText(ctx: StepContext, index: number): string {
  const chapter = ctx.checkpoint.story!.chapters[index]!;
  return index === 0 ? `${ctx.checkpoint.texts!.title}.\n\n${chapter}` : chapter;
}

/** A cloud voice narrates a chapter in pieces of whole sentences of about this many characters. */
export const NARRATION_PIECE_CHARS = 240;
/** Pieces of a chapter sent to the voice's provider at once. */
export const NARRATION_CONCURRENCY = 3;

/**
 * The chapter's text in pieces of whole sentences (lib/text's sentence ends), each at least
 * NARRATION_PIECE_CHARS long unless it is the last; `offset` is where each starts in `text`. Every
 * character of `text` but the white space between pieces is in exactly one piece, so nothing more
 * is billed than the chapter itself. No piece is longer than `maxChars` (UTF-16 units; default the
 * speech API's limit): a longer one (a sentence that never ends) is cut at its last white space
 * that fits, or where none does, at `maxChars`, never inside a surrogate pair.
 */
export function narrationPieces(text: string, maxChars = OPENAI_SPEECH_MAX_CHARS): TextSpan[] {
  return textPieces(text, { minChars: NARRATION_PIECE_CHARS, maxChars });
}

const pieceFile = (chapterFile: string, index: number) => chapterFile.replace(/\.wav$/, `.piece-${index + 1}.wav`);

/**
 * Narrates `text` into `chapterFile` piece by piece (narrationPieces), NARRATION_CONCURRENCY at a
 * time, then joins the pieces as spoken (each keeps the pauses the voice put around it) and writes
 * where each piece starts beside it (wordsFile): the subtitles start on those, and share a piece's
 * time by characters inside it. A piece already on disk (a retry after a failed piece) is kept, so
 * a retry resumes at the piece that failed and pays for nothing twice.
 */
async function narrateInPieces(
  ctx: StepContext,
  text: string,
  chapterFile: string,
  speakPiece: (text: string, outFile: string) => Promise<void>,
): Promise<void> {
  const pieces = narrationPieces(text);
  if (pieces.length === 0) throw new ProviderError('there is no text to speak', 'invalid_input');
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < pieces.length) {
      const index = next;
      next += 1;
      const file = pieceFile(chapterFile, index);
      if (await exists(file)) continue;
      try {
        await speakPiece(pieces[index]!.text, file);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: Math.min(NARRATION_CONCURRENCY, pieces.length) }, worker));
  const rejected = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (rejected) throw rejected.reason;

  const buffers = await Promise.all(pieces.map((_, index) => fs.readFile(pieceFile(chapterFile, index))));
  const starts: number[] = [];
  let seconds = 0;
  for (const buffer of buffers) {
    starts.push(seconds);
    const { format, data } = parseWav(buffer);
    seconds += data.length / (format.blockAlign * format.sampleRate);
  }
  await writeFileAtomic(chapterFile, concatWav(buffers));
  const words = pieces.map((piece, index) => ({ offset: piece.offset, start: starts[index]! }));
  await fs.writeFile(wordsFile(chapterFile), JSON.stringify(words), 'utf8');
  await Promise.all(pieces.map((_, index) => fs.rm(pieceFile(chapterFile, index), { force: true })));
}

/**
 * Step 4: one narration file per chapter with the voice's provider — espeak-ng on this server,
 * OpenAI speech (the user's key) or ElevenLabs (the operator's key). Files already made are kept.
 */
export async function generatingAudios(ctx: StepContext): Promise<void> {
  const chapters = ctx.checkpoint.story!.chapters;
  const voice = ctx.process.voiceId ? await ctx.services.runs.voice(ctx.process.voiceId) : undefined;
  if (!voice) throw new StepFailure('pipeline.needs', { needs: 'voice', language: ctx.language }, 'the voice is gone');
  const files = ctx.checkpoint.audios?.files ?? [];
  const openai = voice.provider === 'openai' ? await openaiClient(ctx, 'speech') : undefined;
  const elevenlabs =
    voice.provider === 'elevenlabs'
      ? ctx.config.elevenlabsApiKey
        ? createElevenLabsClient({
            apiKey: ctx.config.elevenlabsApiKey,
            baseUrl: ctx.config.elevenlabsBaseUrl,
            ...(ctx.dispatcher ? { dispatcher: ctx.dispatcher } : {}),
            timeoutMs: ctx.config.outboundTimeoutMs,
            maxRetries: 4,
          })
        : undefined
      : undefined;
  if (voice.provider === 'elevenlabs' && !elevenlabs) {
    throw new StepFailure('pipeline.elevenlabsMissing', {}, 'ELEVENLABS_API_KEY is not set');
  }

  for (let index = 0; index < chapters.length; index += 1) {
    const name = `chapter-${index + 1}.wav`;
    if (files[index] === name && (await exists(path.join(ctx.workDir, name)))) continue;
    await ctx.progress(index, chapters.length, 'chapters');
    const outFile = path.join(ctx.workDir, name);
    const text = narrationText(ctx, index);
    try {
      if (openai) {
        const openaiVoice = voice.providerVoiceId.trim() || DEFAULT_OPENAI_VOICE;
        await narrateInPieces(ctx, text, outFile, async (piece, file) => {
          await openai.speak({ text: piece, voice: openaiVoice, outFile: file, signal: ctx.signal });
          await ctx.recordCall('openai', 'audio.speech');
        });
      } else if (elevenlabs) {
        const voiceId = voice.providerVoiceId.trim();
        await narrateInPieces(ctx, text, outFile, async (piece, file) => {
          await elevenlabs.speak({ text: piece, voiceId, outFile: file, signal: ctx.signal });
          await ctx.recordCall('elevenlabs', 'text-to-speech');
        });
      } else {
        const spoken = await espeakSpeak({ text, voice: espeakVoiceFor(voice), outFile, signal: ctx.signal });
        // Where every word starts, exactly: what the subtitles are timed from for this voice.
        await fs.writeFile(path.join(ctx.workDir, wordsFile(name)), JSON.stringify(spoken.words), 'utf8');
      }
    } catch (error) {
      const service = openai ? 'OpenAI' : elevenlabs ? 'ElevenLabs' : 'espeak-ng';
      throw providerFailure(error, service, 'pipeline.audioFailed', { chapter: index + 1 });
    }
    files[index] = name;
    ctx.checkpoint.audios = { files };
    await ctx.save();
    await ctx.progress(index + 1, chapters.length, 'chapters');
  }
  ctx.checkpoint.audios = { files };
}

/**
 * Step 5: one image per scene (the format's scenes per chapter: two for a video, four in a
 * Short's one chapter), landscape for a video and portrait for a Short: OpenAI images with the
 * user's key (IMAGE_PROVIDER=openai), or scene cards drawn on this server (IMAGE_PROVIDER=local).
 */
export async function generatingImages(ctx: StepContext): Promise<void> {
  const chapters = ctx.checkpoint.story!.chapters;
  const title = ctx.checkpoint.texts!.title;
  const plan = runFormat(ctx);
  const scenes: Array<{ chapter: number; text: string }> = [];
  chapters.forEach((chapter, index) => {
    const text = index === 0 ? narrationText(ctx, 0) : chapter;
    for (const scene of splitScenes(text, plan.scenesPerChapter)) scenes.push({ chapter: index, text: scene });
  });
  const done = ctx.checkpoint.images?.files ?? [];
  const files: string[] = [];
  const openai = ctx.config.imageProvider === 'openai' ? await openaiClient(ctx, 'image') : undefined;
  let size: string | undefined;
  if (openai && plan.height > plan.width) {
    const endpoints = await ctx.services.chatModel.mediaEndpointsFor(ctx.userId);
    size = portraitImageSize(endpoints?.image.model || ctx.config.openaiImageModel);
  }

  for (let index = 0; index < scenes.length; index += 1) {
    const scene = scenes[index]!;
    const name = `scene-${index + 1}.png`;
    const outFile = path.join(ctx.workDir, name);
    if (done[index] === name && (await exists(outFile))) {
      files.push(name);
      continue;
    }
    await ctx.progress(index, scenes.length, 'images');
    try {
      if (openai) {
        const prompt = `A cinematic, painterly illustration for a narrated story titled "${title}". No text, letters or captions in the image. Scene: ${scene.text.slice(0, 900)}`;
        await openai.image({ prompt, outFile, signal: ctx.signal, ...(size ? { size } : {}) });
        await ctx.recordCall('openai', 'images.generate');
      } else {
        // The size of the frame the render makes (RENDER_SCALE shrinks both alike).
        const frame = renderSettingsFor(plan.format, ctx.config.renderScale);
        const card = await makeSceneCard({
          output: outFile,
          title,
          text: scene.text,
          index: index + 1,
          total: scenes.length,
          width: frame.width,
          height: frame.height,
          signal: ctx.signal,
          tools: await resolveMediaTools(mediaToolsEnv(ctx.config)),
        });
        if (card.missingGlyphs.length > 0) warn(ctx, 'pipeline.fontsMissing', { characters: card.missingGlyphs.join(' ') });
      }
    } catch (error) {
      throw providerFailure(error, 'OpenAI', 'pipeline.imageFailed', { scene: index + 1 });
    }
    files.push(name);
    ctx.checkpoint.images = { files, chapterOf: scenes.map((s) => s.chapter), texts: scenes.map((s) => s.text) };
    await ctx.save();
    await ctx.progress(index + 1, scenes.length, 'images');
  }
  ctx.checkpoint.images = { files, chapterOf: scenes.map((s) => s.chapter), texts: scenes.map((s) => s.text) };
}
