import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, type ClientOptions } from 'openai';
import { Headers, Response, type Dispatcher, type RequestInfo, type RequestInit } from 'undici';
import { writeFileAtomic } from '../lib/atomicWrite';
import { parseWav } from '../lib/wav';
import {
  MAX_IMAGE_ANSWER_BYTES,
  MAX_IMAGE_JSON_ANSWER_BYTES,
  errorBodyText,
  networkCode,
  outsideFetch,
  providerErrorFromBody,
  readResponseBytes,
  speechAnswerCap,
  urlOf,
} from './httpBodies';
import { ProviderError } from './providerError';
import { proxyDispatcher } from './proxies';
import {
  DEFAULT_MEDIA_MAX_RETRIES,
  DEFAULT_MEDIA_TIMEOUT_MS,
  MAX_RETRY_AFTER_MS,
  connectionFailure,
  retryAfterMs,
  timeoutFailure,
} from './retry';
import { MediaInputError, inspectAudio, inspectImage } from '../lib/mediaInput';

/**
 * Narration and images from the OpenAI API (or a server that speaks its protocol), over the
 * official `openai` package: `audio.speech.create` and `images.generate`, with the client's own
 * time-out and retries (429, 5xx and lost connections, honouring `retry-after`). Its requests are
 * sent with undici's `fetch` through the client's dispatcher (a proxy, or lib/egress' guard), the
 * download of an image answered as a URL through `downloadDispatcher`. Errors are ProviderErrors,
 * mapped as the other media clients map theirs (retry.ts, httpBodies.ts), and never carry the API key.
 *
 * Every answer is bounded (httpBodies): speech audio by the longest the text can take to say
 * (speechAnswerCap), an image answer to 25 MB (its JSON, with the image in base64, to 4/3 of that),
 * an error answer to its first 8 KiB; the time-out covers the whole exchange, body included;
 * redirects are followed by hand, each hop through the same dispatcher (so checked again).
 */
export interface OpenAIMediaClientOptions {
  /**
   * Sent as a bearer token to `baseUrl` only. None for a server that needs no key (a local speech
   * server such as Kokoro-FastAPI): then no Authorization header is sent at all.
   */
  apiKey?: string;
  /** The API root, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  /** A proxy, http://, https:// or socks5://, credentials in the URL (see proxyDispatcher). */
  proxyUrl?: string;
  /** A dispatcher to use instead of one made for `proxyUrl` (shared; `close()` leaves it open). */
  dispatcher?: Dispatcher;
  /**
   * The dispatcher of image downloads (an image answered as a URL: the answer's address, not the
   * operator's): lib/egress' userDispatcher, so a private address is refused. Default `dispatcher`.
   */
  downloadDispatcher?: Dispatcher;
  /** Per attempt, reading the answer included; default 180 s. */
  timeoutMs?: number;
  /** Retries of connection failures, time-outs, 408, 409, 429 and 5xx (the client's); default 2. */
  maxRetries?: number;
  /** Default 'gpt-4o-mini-tts'. */
  speechModel?: string;
  /** Default 'gpt-image-1'. */
  imageModel?: string;
}

export interface SpeakInput {
  /** At most OPENAI_SPEECH_MAX_CHARS characters (the engine narrates in pieces: narrationPieces). */
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
  /** Speaks the text (one request, at most OPENAI_SPEECH_MAX_CHARS characters) into a WAV file. */
  speak(input: SpeakInput): Promise<void>;
  /** Draws the prompt into an image file (PNG for gpt-image-1 and DALL·E). */
  image(input: ImageInput): Promise<void>;
  /** Releases the connections of the proxy agent the client made (not of a given `dispatcher`). */
  close(): Promise<void>;
}

export const DEFAULT_SPEECH_MODEL = 'gpt-4o-mini-tts';
export const DEFAULT_IMAGE_MODEL = 'gpt-image-1';
/** The API refuses a longer `input` (counted here in UTF-16 units, never fewer than the API's characters). */
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

/** Statuses whose answers have no body (a Response made with one throws). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * The ProviderError of each error answer, made by the fetch below from the whole body, kept by the
 * Headers object of the Response handed to the client. The client's APIError keeps that object,
 * but of the body only its JSON `error` field (not FastAPI's `detail` of a local server, nor the
 * text of an HTML page).
 */
const errorAnswers = new WeakMap<object, ProviderError>();

/** One call of the client (its retries included), and what its requests learnt. */
interface Call {
  /** Aborted by the fetch when a failure would only repeat: the client stops retrying at once. */
  stop: AbortController;
  /** The most bytes a successful answer of this call may have. */
  maxBytes: number;
  /** The dispatcher of this call's requests, when not the client's. */
  dispatcher?: Dispatcher | undefined;
  /** That failure, which is what the caller gets. */
  failure?: ProviderError;
}

/** Rejects with the caller's reason as soon as `signal` aborts, even while the client waits between attempts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    if (signal.aborted) onAbort();
  });
}

export function createOpenAIMediaClient(options: OpenAIMediaClientOptions): OpenAIMediaClient {
  const { apiKey } = options;
  const baseURL = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_MEDIA_TIMEOUT_MS;
  const speechModel = options.speechModel ?? DEFAULT_SPEECH_MODEL;
  const imageModel = options.imageModel ?? DEFAULT_IMAGE_MODEL;
  const ownDispatcher = options.dispatcher ? undefined : proxyDispatcher(options.proxyUrl);
  const dispatcher: Dispatcher | undefined = options.dispatcher ?? ownDispatcher;

  /**
   * The client's fetch for one call: httpBodies' outsideFetch over undici's own fetch (Node's
   * global fetch bundles another undici, whose dispatcher interface need not match the package's
   * agents), with the dispatcher of `fetchOptions`: redirects by hand, a time-out that keeps
   * running while the body is read (the client's stops when the headers arrive), a successful
   * body capped to the call's `maxBytes`, an error answer cut to 8 KiB. An error answer is read
   * here, once: its ProviderError is kept for the error the client throws, a 429 that reports an
   * exhausted quota is marked not to be retried (`x-should-retry: false`; the client retries any
   * 429), and a `retry-after` longer than 60 s is cut to that (the client would wait any). A
   * failure that the next attempt would meet again (a blocked address, a refusing proxy, too many
   * redirects) stops the call.
   */
  function fetchFor(call: Call) {
    const send = outsideFetch({ timeoutMs, maxBytes: call.maxBytes });
    return async (input: RequestInfo, init: RequestInit = {}): Promise<Response> => {
      let response: Response;
      try {
        response = await send(urlOf(input as string | URL | { url: string }), {
          ...init,
          ...(call.dispatcher ? { dispatcher: call.dispatcher } : {}),
        });
      } catch (error) {
        const failure =
          error instanceof ProviderError
            ? { error, final: true }
            : error instanceof DOMException || init.signal?.aborted
              ? undefined
              : connectionFailure(error);
        if (failure?.final) {
          call.failure = failure.error;
          call.stop.abort();
        }
        throw error;
      }
      if (response.ok) return response;
      const { status, statusText } = response;
      const text = await errorBodyText(response);
      const failure = providerErrorFromBody(status, statusText, text, apiKey);
      const headers = new Headers(response.headers);
      if (failure.kind === 'quota') headers.set('x-should-retry', 'false');
      const asked = retryAfterMs(headers);
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
        headers.delete('retry-after');
        headers.set('retry-after-ms', String(MAX_RETRY_AFTER_MS));
      }
      const answer = new Response(NULL_BODY_STATUSES.has(status) ? null : text, { status, statusText, headers });
      errorAnswers.set(answer.headers, failure);
      return answer;
    };
  }

  function clientFor(call: Call): OpenAI {
    return new OpenAI({
      // The client insists on a credential: without a key it gets a placeholder that is never sent.
      apiKey: apiKey || 'no-key',
      ...(apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      baseURL,
      timeout: timeoutMs,
      maxRetries: options.maxRetries ?? DEFAULT_MEDIA_MAX_RETRIES,
      fetch: fetchFor(call) as unknown as ClientOptions['fetch'],
      ...(dispatcher ? { fetchOptions: { dispatcher } as ClientOptions['fetchOptions'] } : {}),
      // Never pick up an admin key, organization or project from this process's environment.
      adminAPIKey: null,
      organization: null,
      project: null,
    });
  }

  /** What anything the client or the reading of an answer threw means, as a ProviderError. */
  function toProviderError(error: unknown, call: Call): unknown {
    if (error instanceof ProviderError) return error;
    if (call.failure) return call.failure;
    if (error instanceof APIError && typeof error.status === 'number') {
      const read = error.headers ? errorAnswers.get(error.headers) : undefined;
      return read ?? providerErrorFromBody(error.status, undefined, JSON.stringify({ error: error.error }), apiKey);
    }
    if (error instanceof APIConnectionTimeoutError) return timeoutFailure(timeoutMs);
    if (error instanceof APIConnectionError) {
      return connectionFailure(error.cause)?.error ?? new ProviderError('could not reach the server', 'unreachable');
    }
    // The time-out or a broken connection while the client read a JSON answer.
    if (error instanceof Error && error.name === 'TimeoutError') {
      return new ProviderError('could not reach the server (the answer took too long)', 'unreachable');
    }
    const code = networkCode(error);
    if (error instanceof TypeError && code) return new ProviderError(`could not reach the server (${code})`, 'unreachable');
    // Anything else is a bug here (or in the client): as it is.
    return error;
  }

  /**
   * Runs `send` with a client of its own (see fetchFor) and the options of its request; throws
   * ProviderErrors, or the caller's abort reason at once when `signal` aborts.
   */
  async function call<T>(
    signal: AbortSignal | undefined,
    limits: { maxBytes: number; dispatcher?: Dispatcher | undefined },
    send: (client: OpenAI, request: { signal: AbortSignal }) => Promise<T>,
  ): Promise<T> {
    if (signal?.aborted) throw signal.reason;
    const state: Call = { stop: new AbortController(), ...limits };
    const requestSignal = signal ? AbortSignal.any([signal, state.stop.signal]) : state.stop.signal;
    try {
      return await untilAborted(send(clientFor(state), { signal: requestSignal }), signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw toProviderError(error, state);
    }
  }

  async function speak(input: SpeakInput): Promise<void> {
    const text = input.text.trim();
    if (!text) throw new ProviderError('there is no text to speak', 'invalid_input');
    if (text.length > OPENAI_SPEECH_MAX_CHARS) {
      throw new ProviderError(
        `the text is ${text.length} characters long; the speech API takes at most ${OPENAI_SPEECH_MAX_CHARS}`,
        'invalid_input',
      );
    }
    const maxBytes = speechAnswerCap(text.length);
    const audio = await call(input.signal, { maxBytes }, async (client, request) => {
      const response = await client.audio.speech.create(
        {
          model: speechModel,
          input: text,
          voice: input.voice,
          response_format: 'wav',
          ...(input.instructions ? { instructions: input.instructions } : {}),
        },
        request,
      );
      return readResponseBytes(response, maxBytes, input.signal);
    });
    if (checked('speech', () => inspectAudio(audio)).type !== 'wav') {
      throw new ProviderError('the speech API answered audio that is not WAV', 'api_error');
    }
    try {
      parseWav(audio);
    } catch (error) {
      throw new ProviderError(`the speech API answered no WAV audio (${(error as Error).message})`, 'api_error');
    }
    await writeFileAtomic(input.outFile, audio);
  }

  async function image(input: ImageInput): Promise<void> {
    const isDallE = imageModel.startsWith('dall-e');
    const answer: unknown = await call(input.signal, { maxBytes: MAX_IMAGE_JSON_ANSWER_BYTES }, (client, request) =>
      client.images.generate(
        {
          model: imageModel,
          prompt: input.prompt,
          size: input.size ?? defaultImageSize(imageModel),
          n: 1,
          // gpt-image-1 always answers base64 and refuses the parameter; DALL·E defaults to a URL.
          ...(isDallE ? { response_format: 'b64_json' as const } : {}),
        },
        request,
      ),
    ).catch((error: unknown) => {
      // An answer that is not JSON at all: as if it had no image.
      if (error instanceof SyntaxError) return undefined;
      throw error;
    });
    // The client answers the text of an answer that is not JSON; anything but `{data: [...]}` has no image.
    const data = answer && typeof answer === 'object' ? (answer as { data?: unknown }).data : undefined;
    const first = Array.isArray(data) ? (data[0] as { b64_json?: unknown; url?: unknown } | undefined) : undefined;
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

  /**
   * Fetches an image the API left at a URL: through `downloadDispatcher` (a user's address: checked
   * by lib/egress, every redirect hop too), same time-out and retries, at most 25 MB, and never the
   * API key.
   */
  async function download(url: string, signal: AbortSignal | undefined): Promise<Buffer> {
    if (!/^https?:\/\//i.test(url)) throw new ProviderError('the image API answered an unusable image URL', 'api_error');
    const limits = { maxBytes: MAX_IMAGE_ANSWER_BYTES, dispatcher: options.downloadDispatcher };
    try {
      return await call(signal, limits, async (client, request) => {
        const response = await client.get(url, { ...request, headers: { Authorization: null, Accept: 'image/*' } }).asResponse();
        return readResponseBytes(response, MAX_IMAGE_ANSWER_BYTES, signal);
      });
    } catch (error) {
      // An error answer of the file's host is the API's failure, whatever its status says of keys.
      if (error instanceof ProviderError && error.status !== undefined) {
        throw new ProviderError(`could not download the image: ${error.message}`, 'api_error', error.status);
      }
      throw error;
    }
  }

  async function close(): Promise<void> {
    await ownDispatcher?.close();
  }

  return { speak, image, close };
}
