/**
 * The ONE RTK Query api slice of the web app: the base query and every tag type, no endpoints.
 * Each resource injects its endpoints from its own file of this folder (`apiSlice.injectEndpoints`),
 * with the tags it provides and invalidates beside them; src/api/index.ts lists the files and
 * states the tag rules. Never a second `createApi`.
 */
import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './baseQuery';

export const TAG_TYPES = [
  'User',
  'Process',
  'Channel',
  'YoutubeApi',
  'PlatformAccount',
  'Prompt',
  'Voice',
  'Music',
  'Proxy',
  'ChatModelConfig',
  'Publication',
  'Execution',
  'Stats',
  'Subscription',
  'Notifications',
  'Session',
] as const;

export type TagType = (typeof TAG_TYPES)[number];

export const apiSlice = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  // Lists are fetched again when the user comes back to the tab or the network comes back.
  refetchOnFocus: true,
  refetchOnReconnect: true,
  endpoints: () => ({}),
});
