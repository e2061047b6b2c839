import type { MessageKey, MessageParams } from '../../messages';
import { assertPublicUrl, isBlockedAddressError, userDispatcher } from '../../lib/egress';
import { createOpenAIMediaClient } from '../../providers/openaiMedia';
import { ProviderError } from '../../providers/providerError';
import { failureReason } from '../../providers/reasons';
import { StepFailure, type StepContext } from '../context';

/**
 * A provider's failure as the run's error: a refused key and an empty quota say what to do; any
 * other failure names its kind (and HTTP status) in the product's words. What the provider
 * answered stays in the error's text, for the server log only.
 */
export function providerFailure(error: unknown, service: string, key: MessageKey, params: MessageParams): StepFailure {
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
export async function openaiClient(ctx: StepContext, kind: 'speech' | 'image') {
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
