import fs from 'node:fs/promises';
import path from 'node:path';
import { createElevenLabsClient } from '../../providers/elevenlabs';
import { OPENAI_SPEECH_MAX_CHARS } from '../../providers/openaiMedia';
import { writeFileAtomic } from '../../lib/atomicWrite';
import { textPieces, type TextSpan } from '../../lib/text';
import { concatWav, parseWav } from '../../lib/wav';
import { ProviderError } from '../../providers/providerError';
import { espeakSpeak, espeakVoiceFor } from '../../providers/speech';
import { RUN_FILES } from '../../runLayout';
import { StepFailure, type StepContext } from '../context';
import { openaiClient, providerFailure } from './mediaClients';
import { exists } from './outputs';

/** OpenAI's voice when a voice of provider openai names none. */
const DEFAULT_OPENAI_VOICE = 'alloy';

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

const pieceFile = (chapterFile: string, index: number) => RUN_FILES.audioPiece(chapterFile, index + 1);

/**
 * Narrates `text` into `chapterFile` piece by piece (narrationPieces), NARRATION_CONCURRENCY at a
 * time, then joins the pieces as spoken (each keeps the pauses the voice put around it) and writes
 * where each piece starts beside it (RUN_FILES.words): the subtitles start on those, and share a piece's
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
  await fs.writeFile(RUN_FILES.words(chapterFile), JSON.stringify(words), 'utf8');
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
    const name = RUN_FILES.chapterAudio(index + 1);
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
        await fs.writeFile(path.join(ctx.workDir, RUN_FILES.words(name)), JSON.stringify(spoken.words), 'utf8');
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
