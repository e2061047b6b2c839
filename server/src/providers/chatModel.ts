import OpenAI, { APIConnectionError, APIError, type ClientOptions } from 'openai';
import type { Dispatcher, RequestInit, Response } from 'undici';
import { isBlockedAddressError } from '../lib/egress';
import { findCause } from '../lib/errorCause';
import { MAX_JSON_ANSWER_BYTES, outsideFetch, type SendOnce } from './httpBodies';
import { ProviderError, type ProviderFailure } from './providerError';
import { fetchThrough } from './proxies';

/**
 * A small client of an OpenAI-compatible chat-model API (OpenAI itself or any server that speaks
 * its protocol), over the official `openai` package. Errors never carry the API key.
 *
 * Every request is sent through httpBodies' outsideFetch: redirects followed by hand (each hop
 * through the same checked fetch or dispatcher), the time-out over the whole exchange (the
 * client's own stops at the headers), answers of at most MAX_JSON_ANSWER_BYTES (4 MiB; a longer
 * one fails as 'too_large' without being read) and error answers cut to 8 KiB.
 */
export interface ChatModelClientOptions {
  apiKey: string;
  /** The API root, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  model: string;
  /** Per request; default 20 s. */
  timeoutMs?: number;
  /** Retries of connection errors, timeouts, 408, 409, 429 and 5xx; default 2. */
  maxRetries?: number;
  /** An undici dispatcher (a proxy's agent: proxyDispatcher) the requests go through. */
  dispatcher?: object;
  /** A fetch to send the requests with instead (the checked one for a user's own base URL: lib/egress). */
  fetch?: ClientOptions['fetch'];
  /** The most tokens one answer may have, when a call does not say (every call is bounded). */
  defaultMaxTokens?: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompleteInput {
  /** Sent first, as a system message. */
  system?: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
}

export interface ConnectionResult {
  ok: boolean;
  /** A short English reason, without the key: 'invalid key', 'could not reach the server', or `status message`. */
  error?: string;
  /** The HTTP status of the failed answer, when there was one. */
  status?: number;
  /** Why: invalid_key, unreachable, blocked, too_large or api_error (ProviderError's kinds). */
  kind?: ProviderFailure;
}

export interface ChatModelClient {
  /** Lists models (first page); a server without /models (404) is tried with a one-token completion. */
  testConnection(): Promise<ConnectionResult>;
  /** One chat completion; answers the assistant's text. Throws ProviderError. */
  complete(input: CompleteInput): Promise<string>;
}

export const DEFAULT_CHAT_MODEL_TIMEOUT_MS = 20_000;
/** No answer is longer than this unless the call asks (a chapter is ~1,500 tokens; a model left unbounded can run on). */
export const DEFAULT_MAX_TOKENS = 4096;
const MAX_REASON_LENGTH = 300;

/** Removes every occurrence of the key from a text that came back from the network. */
function scrub(text: string, apiKey: string): string {
  return apiKey.length >= 4 ? text.split(apiKey).join('***') : text;
}

/**
 * Maps anything `openai` throws to a ProviderError whose message is safe to show and log: it
 * names the kind of failure and the HTTP status, never the body the server answered (which may be
 * anything: HTML, a stack trace, the key echoed back). A ProviderError the bounded fetch threw
 * (found among the causes) is mapped too, to the chat model's shorter words.
 */
function toChatModelError(error: unknown, apiKey: string): ProviderError {
  if (isBlockedAddressError(error)) return new ProviderError('this address is not allowed', 'blocked');
  // What the bounded fetch refused: thrown by it (redirects), or by the reading of the answer.
  const refused = findCause(error, (cause): cause is ProviderError => cause instanceof ProviderError);
  if (refused?.kind === 'too_large') return new ProviderError("the server's answer was too large", 'too_large');
  if (refused?.kind === 'unreachable') return new ProviderError('could not reach the server', 'unreachable');
  if (refused) return new ProviderError(scrub(refused.message, apiKey).slice(0, MAX_REASON_LENGTH), 'api_error', refused.status);
  // Connection errors, timeouts and aborts: no HTTP answer at all.
  if (error instanceof APIConnectionError || (error instanceof APIError && error.status === undefined)) {
    return new ProviderError('could not reach the server', 'unreachable');
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    if (error.status === 401 || error.status === 403) return new ProviderError('invalid key', 'invalid_key', error.status);
    // OpenAI says why a 429 is final in the error's code; only that word is kept, never the text.
    if (error.status === 429 && (error.code === 'insufficient_quota' || error.type === 'insufficient_quota')) {
      return new ProviderError('the account has no quota left', 'api_error', 429);
    }
    return new ProviderError(`the server answered HTTP ${error.status}`, 'api_error', error.status);
  }
  const message = error instanceof Error ? error.name : 'error';
  return new ProviderError(scrub(`the call failed (${message})`, apiKey).slice(0, MAX_REASON_LENGTH), 'api_error');
}

export function createChatModelClient(options: ChatModelClientOptions): ChatModelClient {
  const { apiKey, model } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHAT_MODEL_TIMEOUT_MS;
  // undici's own fetch sends the requests (with a dispatcher: a run's proxy): Node's global fetch
  // bundles another undici, whose dispatcher interface need not match the package's agents.
  const send: SendOnce | undefined = options.fetch
    ? (options.fetch as unknown as SendOnce)
    : options.dispatcher
      ? (fetchThrough(options.dispatcher as Dispatcher) as (url: string, init: RequestInit) => Promise<Response>)
      : undefined;
  const client = new OpenAI({
    apiKey,
    baseURL: options.baseUrl.replace(/\/+$/, ''),
    timeout: timeoutMs,
    maxRetries: options.maxRetries ?? 2,
    fetch: outsideFetch({
      ...(send ? { send } : {}),
      timeoutMs,
      maxBytes: MAX_JSON_ANSWER_BYTES,
    }) as unknown as ClientOptions['fetch'],
    // Never pick up an organization or project from this process's environment.
    organization: null,
    project: null,
  });

  async function testConnection(): Promise<ConnectionResult> {
    try {
      try {
        await client.models.list();
      } catch (error) {
        // Some OpenAI-compatible servers have no /models: one token of a completion proves the key.
        if (!(error instanceof APIError && error.status === 404)) throw error;
        await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'ping' }], max_tokens: 1 });
      }
      return { ok: true };
    } catch (error) {
      const failure = toChatModelError(error, apiKey);
      return {
        ok: false,
        error: failure.message,
        kind: failure.kind,
        ...(failure.status === undefined ? {} : { status: failure.status }),
      };
    }
  }

  async function complete(input: CompleteInput): Promise<string> {
    const messages: ChatMessage[] = input.system
      ? [{ role: 'system', content: input.system }, ...input.messages]
      : input.messages;
    let content: string | null | undefined;
    try {
      const completion = await client.chat.completions.create({
        model,
        messages,
        ...(input.temperature === undefined ? {} : { temperature: input.temperature }),
        max_tokens: input.maxTokens ?? options.defaultMaxTokens ?? DEFAULT_MAX_TOKENS,
      });
      content = completion.choices[0]?.message.content;
    } catch (error) {
      throw toChatModelError(error, apiKey);
    }
    if (typeof content !== 'string') throw new ProviderError('the chat model answered no text', 'api_error');
    return content;
  }

  return { testConnection, complete };
}
