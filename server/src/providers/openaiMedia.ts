import type { Dispatcher } from 'undici';
import {
  DEFAULT_MEDIA_MAX_RETRIES,
  DEFAULT_MEDIA_TIMEOUT_MS,
  ProviderError,
  concatWav,
  fetchWithRetry,
  parseWav,
  providerErrorFromResponse,
  proxyDispatcher,
  readResponseBytes,
  splitText,
  writeFileAtomic,
  type OutboundInit,
} from './outbound';
import { MediaInputError, inspectAudio, inspectImage } from '../lib/mediaInput';

/**
 * Narration and images from the OpenAI API (or a server that speaks its protocol):
 * `POST /audio/speech` and `POST /images/generations`, through `fetchWithRetry` so the proxy,
 * the time-out and the retries behave the same as in every other media client. Errors are
 * ProviderErrors and never carry the API key.
 */
export interface OpenAIMediaClientOptions {
  /** Sent as a bearer token; none for a server that needs no key (a local speech server). */
  apiKey?: string;
  /** The API root, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  /** A proxy, http://, https:// or socks5://, credentials in the URL (see proxyDispatcher). */
  proxyUrl?: string;
  /** A dispatcher to use instead of one made for `proxyUrl` (shared; `close()` leaves it open). */
  dispatcher?: Dispatcher;
  /** Per attempt, reading the answer included; default 180 s. */
  timeoutMs?: number;
  /** Retries of connection failures, time-outs, 429 and 5xx; default 2. */
  maxRetries?: number;
  /** Default 'gpt-4o-mini-tts'. */
  speechModel?: string;
  /** Default 'gpt-image-1'. */
  imageModel?: string;
  /** Backoff base between retries; default 500 ms (tests make it small). */
  backoffBaseMs?: number;
}

export interface SpeakInput {
  text: string;
  /** An OpenAI voice: alloy, ash, ballad, coral, echo, fable, nova, onyx, sage, shimmer, verse, ... */
  voice: string;
  /** How to speak (tone, pace); only gpt-4o-mini-tts honours it. */
  instructions?: string;
  /** The WAV file to write (its directory must exist). */
  outFile: string;
  signal?: AbortSignal;
}

export interface ImageInput {
  prompt: string;
  /** The PNG file to write (its directory must exist). */
  outFile: string;
  /** Default: landscape, '1536x1024' (gpt-image-1) or '1792x1024' (dall-e-3). */
  size?: string;
  signal?: AbortSignal;
}

export interface OpenAIMediaClient {
  /** Speaks the text into a WAV file; texts over 4096 characters take several requests, joined. */
  speak(input: SpeakInput): Promise<void>;
  /** Draws the prompt into an image file (PNG for gpt-image-1 and DALL·E). */
  image(input: ImageInput): Promise<void>;
  /** Releases the connections of the proxy agent the client made (not of a given `dispatcher`). */
  close(): Promise<void>;
}

export const DEFAULT_SPEECH_MODEL = 'gpt-4o-mini-tts';
export const DEFAULT_IMAGE_MODEL = 'gpt-image-1';
/** The API refuses a longer `input`. */
export const OPENAI_SPEECH_MAX_CHARS = 4096;

/** The landscape size the video engine wants, as the model spells it. */
export function defaultImageSize(model: string): string {
  if (model.startsWith('dall-e-2')) return '1024x1024';
  if (model.startsWith('dall-e')) return '1792x1024';
  return '1536x1024';
}

/** The answer checked as the media it claims to be (lib/mediaInput); a refusal is the API's error. */
function checked<T>(what: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof MediaInputError) throw new ProviderError(`the ${what} API answered ${error.message}`, 'api_error');
    throw error;
  }
}

export function createOpenAIMediaClient(options: OpenAIMediaClientOptions): OpenAIMediaClient {
  const { apiKey } = options;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const speechModel = options.speechModel ?? DEFAULT_SPEECH_MODEL;
  const imageModel = options.imageModel ?? DEFAULT_IMAGE_MODEL;
  const ownDispatcher = options.dispatcher ? undefined : proxyDispatcher(options.proxyUrl);
  const dispatcher: Dispatcher | undefined = options.dispatcher ?? ownDispatcher;
  const retry = (signal: AbortSignal | undefined) => ({
    timeoutMs: options.timeoutMs ?? DEFAULT_MEDIA_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MEDIA_MAX_RETRIES,
    ...(options.backoffBaseMs === undefined ? {} : { backoffBaseMs: options.backoffBaseMs }),
    ...(signal ? { signal } : {}),
  });

  /** POSTs JSON to the API; answers the body of a 2xx answer, throws a ProviderError otherwise. */
  async function post(route: string, body: unknown, signal: AbortSignal | undefined): Promise<Buffer> {
    const init: OutboundInit = {
      method: 'POST',
      headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(dispatcher ? { dispatcher } : {}),
    };
    const response = await fetchWithRetry(`${baseUrl}${route}`, init, retry(signal));
    if (!response.ok) throw await providerErrorFromResponse(response, apiKey ?? '');
    return readResponseBytes(response, signal);
  }

  async function speak(input: SpeakInput): Promise<void> {
    const pieces = splitText(input.text, OPENAI_SPEECH_MAX_CHARS);
    if (pieces.length === 0) throw new ProviderError('there is no text to speak', 'invalid_input');
    const parts: Buffer[] = [];
    // One after another: the parts are few, and parallel requests would only meet the rate limit.
    for (const piece of pieces) {
      const audio = await post(
        '/audio/speech',
        {
          model: speechModel,
          input: piece,
          voice: input.voice,
          response_format: 'wav',
          ...(input.instructions ? { instructions: input.instructions } : {}),
        },
        input.signal,
      );
      if (checked('speech', () => inspectAudio(audio)).type !== 'wav') {
        throw new ProviderError('the speech API answered audio that is not WAV', 'api_error');
      }
      try {
        parseWav(audio);
      } catch (error) {
        throw new ProviderError(`the speech API answered no WAV audio (${(error as Error).message})`, 'api_error');
      }
      parts.push(audio);
    }
    let wav: Buffer;
    try {
      wav = concatWav(parts);
    } catch (error) {
      throw new ProviderError(`could not join the speech parts (${(error as Error).message})`, 'api_error');
    }
    await writeFileAtomic(input.outFile, wav);
  }

  async function image(input: ImageInput): Promise<void> {
    const isDallE = imageModel.startsWith('dall-e');
    const answer = await post(
      '/images/generations',
      {
        model: imageModel,
        prompt: input.prompt,
        size: input.size ?? defaultImageSize(imageModel),
        n: 1,
        // gpt-image-1 always answers base64 and refuses the parameter; DALL·E defaults to a URL.
        ...(isDallE ? { response_format: 'b64_json' } : {}),
      },
      input.signal,
    );
    let first: { b64_json?: unknown; url?: unknown } | undefined;
    try {
      const parsed = JSON.parse(answer.toString('utf8')) as { data?: unknown };
      first = Array.isArray(parsed.data) ? (parsed.data[0] as typeof first) : undefined;
    } catch {
      first = undefined;
    }
    let bytes: Buffer;
    if (typeof first?.b64_json === 'string') {
      bytes = Buffer.from(first.b64_json, 'base64');
    } else if (typeof first?.url === 'string') {
      bytes = await download(first.url, input.signal);
    } else {
      throw new ProviderError('the image API answered no image', 'api_error');
    }
    checked('image', () => inspectImage(bytes));
    await writeFileAtomic(input.outFile, bytes);
  }

  /** Fetches an image the API left at a URL: same proxy and limits, and never the API key. */
  async function download(url: string, signal: AbortSignal | undefined): Promise<Buffer> {
    if (!/^https?:\/\//i.test(url)) throw new ProviderError('the image API answered an unusable image URL', 'api_error');
    const response = await fetchWithRetry(url, { method: 'GET', ...(dispatcher ? { dispatcher } : {}) }, retry(signal));
    if (!response.ok) {
      const failure = await providerErrorFromResponse(response, apiKey ?? '');
      throw new ProviderError(`could not download the image: ${failure.message}`, 'api_error', failure.status);
    }
    return readResponseBytes(response, signal);
  }

  async function close(): Promise<void> {
    await ownDispatcher?.close();
  }

  return { speak, image, close };
}
