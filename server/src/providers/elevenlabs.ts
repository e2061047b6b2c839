import type { Dispatcher } from 'undici';
import { writeFileAtomic } from '../lib/atomicWrite';
import { textPieces } from '../lib/text';
import { pcmToWav } from '../lib/wav';
import { providerErrorFromResponse, readResponseBytes, speechAnswerCap } from './httpBodies';
import { ProviderError } from './providerError';
import { proxyDispatcher } from './proxies';
import { DEFAULT_MEDIA_MAX_RETRIES, DEFAULT_MEDIA_TIMEOUT_MS, fetchWithRetry } from './retry';

/**
 * Narration from ElevenLabs: `POST /v1/text-to-speech/{voice_id}?output_format=pcm_22050`, which
 * answers raw 16-bit little-endian mono PCM; this wraps it in a WAV header. Same proxy, time-out,
 * retries and ProviderErrors as the other media clients; the key goes only in `xi-api-key` (a
 * redirect to another origin drops it: fetchWithRetry follows redirects by hand). An answer longer
 * than the text can take to say is refused unread (httpBodies' speechAnswerCap).
 */
export interface ElevenLabsClientOptions {
  apiKey: string;
  /** Default https://api.elevenlabs.io (no /v1). */
  baseUrl?: string;
  /** A proxy, http://, https:// or socks5://, credentials in the URL (see proxyDispatcher). */
  proxyUrl?: string;
  /** A dispatcher to use instead of one made for `proxyUrl` (shared; `close()` leaves it open). */
  dispatcher?: Dispatcher;
  /** Per attempt, reading the answer included; default 180 s. */
  timeoutMs?: number;
  /** Retries of connection failures, time-outs, 429 and 5xx; default 2. */
  maxRetries?: number;
  /** Default 'eleven_multilingual_v2'. */
  modelId?: string;
  /** Backoff base between retries; default 500 ms (tests make it small). */
  backoffBaseMs?: number;
}

export interface ElevenLabsSpeakInput {
  text: string;
  /** An ElevenLabs voice id, e.g. 21m00Tcm4TlvDq8ikWAM. */
  voiceId: string;
  /** The WAV file to write (its directory must exist). */
  outFile: string;
  signal?: AbortSignal;
}

export interface ElevenLabsClient {
  /** Speaks the text into a 22050 Hz mono WAV; texts over 5000 characters take several requests, joined. */
  speak(input: ElevenLabsSpeakInput): Promise<void>;
  /** Releases the connections of the proxy agent the client made (not of a given `dispatcher`). */
  close(): Promise<void>;
}

export const DEFAULT_ELEVENLABS_BASE_URL = 'https://api.elevenlabs.io';
export const DEFAULT_ELEVENLABS_MODEL = 'eleven_multilingual_v2';
/** Longest text per request (the models accept more, but shorter requests fail and retry cheaper). */
export const ELEVENLABS_MAX_CHARS = 5000;
export const ELEVENLABS_SAMPLE_RATE = 22_050;

export function createElevenLabsClient(options: ElevenLabsClientOptions): ElevenLabsClient {
  const { apiKey } = options;
  const baseUrl = (options.baseUrl ?? DEFAULT_ELEVENLABS_BASE_URL).replace(/\/+$/, '');
  const modelId = options.modelId ?? DEFAULT_ELEVENLABS_MODEL;
  const ownDispatcher = options.dispatcher ? undefined : proxyDispatcher(options.proxyUrl);
  const dispatcher: Dispatcher | undefined = options.dispatcher ?? ownDispatcher;

  async function speakPiece(text: string, voiceId: string, signal: AbortSignal | undefined): Promise<Buffer> {
    const url = `${baseUrl}/v1/text-to-speech/${encodeURIComponent(voiceId)}?output_format=pcm_${ELEVENLABS_SAMPLE_RATE}`;
    const response = await fetchWithRetry(
      url,
      {
        method: 'POST',
        headers: { 'xi-api-key': apiKey, 'content-type': 'application/json', accept: 'audio/pcm' },
        body: JSON.stringify({ text, model_id: modelId }),
        ...(dispatcher ? { dispatcher } : {}),
      },
      {
        timeoutMs: options.timeoutMs ?? DEFAULT_MEDIA_TIMEOUT_MS,
        maxRetries: options.maxRetries ?? DEFAULT_MEDIA_MAX_RETRIES,
        ...(options.backoffBaseMs === undefined ? {} : { backoffBaseMs: options.backoffBaseMs }),
        ...(signal ? { signal } : {}),
      },
    );
    if (!response.ok) throw await providerErrorFromResponse(response, apiKey);
    // Raw 16-bit mono PCM: the answer can be no longer than the text takes to say.
    const pcm = await readResponseBytes(response, speechAnswerCap(text.length, ELEVENLABS_SAMPLE_RATE * 2), signal);
    if (pcm.length < 2) throw new ProviderError('the speech API answered no audio', 'api_error');
    // 16-bit samples: an odd trailing byte is half a sample.
    return pcm.subarray(0, pcm.length - (pcm.length % 2));
  }

  async function speak(input: ElevenLabsSpeakInput): Promise<void> {
    if (!input.voiceId.trim()) throw new ProviderError('no ElevenLabs voice was given', 'invalid_input');
    const pieces = textPieces(input.text, { maxChars: ELEVENLABS_MAX_CHARS }).map((piece) => piece.text);
    if (pieces.length === 0) throw new ProviderError('there is no text to speak', 'invalid_input');
    const parts: Buffer[] = [];
    for (const piece of pieces) parts.push(await speakPiece(piece, input.voiceId.trim(), input.signal));
    await writeFileAtomic(input.outFile, pcmToWav(Buffer.concat(parts), { sampleRate: ELEVENLABS_SAMPLE_RATE }));
  }

  async function close(): Promise<void> {
    await ownDispatcher?.close();
  }

  return { speak, close };
}
