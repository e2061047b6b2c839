import type { MessageKey, MessageParams } from '../messages';
import { ProviderError } from './providerError';
import { SpeechError } from './speech';

/**
 * Why a provider call failed, in the product's own words: a catalogue key (and the HTTP status)
 * that fills the `{reason}` of a translated sentence. The text a provider answered never goes into
 * it: an upstream body can be HTML, English in a Portuguese page, or quote the request. That text
 * stays in the error's message, which goes to the server log only.
 */
export interface FailureReason extends MessageParams {
  reason_key: MessageKey;
}

function statusOr(status: number | undefined, withStatus: MessageKey, without: MessageKey): FailureReason {
  return typeof status === 'number' ? { reason_key: withStatus, status } : { reason_key: without };
}

/** The reason of a chat-model, speech, image or local-voice failure (anything else: "unexpected"). */
export function failureReason(error: unknown): FailureReason {
  if (error instanceof ProviderError) {
    switch (error.kind) {
      case 'unreachable':
        return { reason_key: 'reason.unreachable' };
      case 'blocked':
        return { reason_key: 'reason.addressNotAllowed' };
      case 'invalid_key':
        return statusOr(error.status, 'reason.keyRefused', 'reason.keyRefusedNoStatus');
      case 'quota':
        return { reason_key: 'reason.quota' };
      case 'too_large':
        return { reason_key: 'reason.answerTooLarge' };
      case 'invalid_input':
        return statusOr(error.status, 'reason.requestRefused', 'reason.requestRefusedNoStatus');
      default:
        return statusOr(error.status, 'reason.serviceError', 'reason.serviceErrorNoStatus');
    }
  }
  if (error instanceof SpeechError) {
    switch (error.code) {
      case 'invalidVoice':
        return { reason_key: 'reason.speech.invalidVoice' };
      case 'invalidText':
        return { reason_key: 'reason.speech.invalidText' };
      case 'timeout':
        return { reason_key: 'reason.speech.timeout' };
      default:
        return { reason_key: 'reason.speech.failed' };
    }
  }
  return { reason_key: 'reason.unexpected' };
}
