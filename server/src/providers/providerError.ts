/**
 * The error every outbound client throws: the chat model, speech, images, ElevenLabs. Its own
 * module so that every layer (httpBodies, retry, the clients) can throw it without importing the
 * others.
 */

/** Why a provider call failed. */
export type ProviderFailure = 'invalid_key' | 'unreachable' | 'quota' | 'api_error' | 'invalid_input' | 'blocked' | 'too_large';

/**
 * A failed provider call. `kind` says what to do about it: fix the key or the account
 * (invalid_key), try later or check the network/proxy (unreachable), buy credits (quota), change the
 * input (invalid_input), a server whose answer was larger than anything it should send (too_large),
 * or anything else the API answered (api_error); an address users may not reach is `blocked`. The
 * chat model's failures are invalid_key, unreachable, blocked, too_large and api_error. The message is short, English, and safe to show
 * and log: it never carries the API key or proxy credentials.
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ProviderFailure,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
