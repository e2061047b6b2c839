import type { PublicationStatus } from '../../api';
import type { StatusTone } from '../../components/StatusChip';

/** One colour meaning each: published green, processing blue (waiting for its time), awaiting review amber, failed red. */
export const STATUS_TONE: Record<PublicationStatus, StatusTone> = {
  published: 'success',
  processing: 'running',
  awaiting_review: 'warning',
  failed: 'error',
};

export function isPublicationStatus(status: string): status is PublicationStatus {
  return Object.hasOwn(STATUS_TONE, status);
}

export const VISIBILITIES = ['public', 'unlisted', 'private'] as const;

export function isVisibility(value: string): value is (typeof VISIBILITIES)[number] {
  return (VISIBILITIES as readonly string[]).includes(value);
}
