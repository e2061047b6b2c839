import type { ChatMessage } from '../../providers/chatModel';
import type { MessageKey, MessageParams } from '../../messages';
import { ProviderError } from '../../providers/providerError';
import { failureReason } from '../../providers/reasons';
import { StepFailure, type StepContext } from '../context';
import { FALLBACK_TEXTS, fill, languageName } from '../story';

/**
 * One chat completion for a step, counted in the usage record, at most `maxTokens` long. A refused
 * key or an exhausted quota ends the run with what to do; anything else with `failKey` and the kind
 * of failure in the product's words (the text the server answered goes to the log only).
 */
export async function ask(
  ctx: StepContext,
  operation: string,
  system: string,
  prompt: string,
  failKey: MessageKey,
  failParams: MessageParams = {},
  maxTokens?: number,
): Promise<string> {
  const client = await ctx.chat();
  const messages: ChatMessage[] = [{ role: 'user', content: prompt }];
  let answer: string;
  try {
    answer = await client.complete({ system, messages, temperature: 0.9, ...(maxTokens ? { maxTokens } : {}) });
  } catch (error) {
    await ctx.recordCall('openai', operation);
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind === 'invalid_key') throw new StepFailure('pipeline.keyRefused', { service: 'ChatGPT' }, error.message);
    if (error.kind === 'blocked') throw new StepFailure('pipeline.addressNotAllowed', {}, error.message);
    if (error.status === 429 && /quota/i.test(error.message)) {
      throw new StepFailure('pipeline.quota', { service: 'OpenAI' }, error.message);
    }
    throw new StepFailure(failKey, { ...failParams, ...failureReason(error) }, error.message);
  }
  await ctx.recordCall('openai', operation);
  if (!answer.trim()) {
    throw new StepFailure(failKey, { ...failParams, reason_key: 'reason.emptyAnswer' }, 'the chat model answered an empty text');
  }
  return answer;
}

/** The prompt's texts in the run's language (the starting step checked they exist). */
export async function textsOf(ctx: StepContext) {
  const promptId = ctx.process.promptId;
  const texts = promptId ? await ctx.services.runs.promptTexts(promptId, ctx.language) : undefined;
  if (!texts) {
    throw new StepFailure(
      'pipeline.needs',
      { needs: 'language', language: ctx.language },
      'the prompt has no texts in the language',
    );
  }
  return texts;
}

/** The system instruction of every chat call of the story: the prompt's narrative text and base content. */
export function systemOf(texts: { narrativePrompt: string; content: string }, language: string): string {
  const narrative = fill(texts.narrativePrompt.trim() || FALLBACK_TEXTS.narrative, { language: languageName(language) });
  return `${narrative}\n\n${texts.content.trim()}`.trim();
}
