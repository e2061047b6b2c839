/**
 * The connect/edit channel form (spec §5): channel id required when creating; name optional;
 * minimum views a non-negative integer that defaults to 0 when blank or invalid. Messages are keys
 * of common's `validation` group, translated by the fields.
 */
import { object, string } from 'yup';
import type { Channel, ChannelCreate, ChannelUpdate } from '../../api';
import type { ValidationKey } from '../../components';
import { DEFAULT_MIN_VIEWS } from '../../lib/constants';

const required: ValidationKey = 'validation.fillAllFields';

export interface ChannelFormValues {
  channel_id: string;
  name: string;
  min_views: string;
}

/** When editing, the channel id is read-only and not sent, so it is not checked. */
export function channelSchema(editing: boolean) {
  return object({
    channel_id: editing ? string().default('') : string().trim().required(required),
    name: string().trim().default(''),
    min_views: string().default(''),
  });
}

/**
 * The minimum views to send: a whole number of 0 or more as typed, otherwise (blank, negative,
 * fractional, not a number) the default 0 — never a negative.
 */
export function toMinViews(value: string | number | null | undefined): number {
  const text = typeof value === 'number' ? String(value) : (value ?? '').trim();
  if (!/^\d+$/.test(text)) return DEFAULT_MIN_VIEWS;
  const parsed = Number(text);
  return Number.isSafeInteger(parsed) ? parsed : DEFAULT_MIN_VIEWS;
}

export function formValuesOf(channel?: Channel): ChannelFormValues {
  if (!channel) return { channel_id: '', name: '', min_views: String(DEFAULT_MIN_VIEWS) };
  return { channel_id: channel.channel_id, name: channel.name ?? '', min_views: String(channel.min_views) };
}

export function createBody(values: ChannelFormValues): ChannelCreate {
  const name = values.name.trim();
  return {
    channel_id: values.channel_id.trim(),
    ...(name ? { name } : {}),
    min_views: toMinViews(values.min_views),
  };
}

/** A cleared name is sent as null: the channel goes back to being shown by its id. */
export function updateBody(values: ChannelFormValues): ChannelUpdate {
  const name = values.name.trim();
  return { name: name || null, min_views: toMinViews(values.min_views) };
}

/** What a channel is called on screen: its name, or its channel id when it has none. */
export function channelLabel(channel: Pick<Channel, 'name' | 'channel_id'>): string {
  return channel.name?.trim() || channel.channel_id;
}
