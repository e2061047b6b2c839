/**
 * The web app's api: the ONE RTK Query slice (apiSlice.ts: base query, every tag type) and each
 * resource's endpoints, injected from its own file with the tags they provide and invalidate:
 *
 *   auth.ts           sign-in, sign-up, profile, password, email verification, reset, the account
 *   sessions.ts       the signed-in devices (Settings › Security)
 *   subscription.ts   the plan
 *   channels.ts       YouTube channels
 *   youtubeApis.ts    YouTube API configurations
 *   platformAccounts.ts  TikTok and Instagram accounts
 *   chatModel.ts      the chat-model configuration
 *   proxies.ts        proxy servers (admins)
 *   prompts.ts        prompts
 *   voices.ts         voices
 *   music.ts          background music
 *   processes.ts      processes, their counters, the optimistic execute
 *   executions.ts     a process's runs: poll, retry, cancel, approve, reject
 *   publications.ts   the history and its counters
 *   notifications.ts  notification settings, the webhook test
 *
 * Tags (the LIST pattern, after redux-toolkit's examples/query/react/mutations):
 *   - a list query provides `{ type, id: 'LIST' }` plus `{ type, id }` for every row it returned;
 *   - a single-item query provides `{ type, id }`;
 *   - create invalidates `{ type, id: 'LIST' }` (a new row appears in every list);
 *   - update / toggle / test invalidate `{ type, id }` (the lists holding that row refetch too,
 *     since they provide the row's tag);
 *   - delete invalidates `{ type, id }` and `{ type, id: 'LIST' }`;
 *   - set-active changes several rows at once, so it invalidates `{ type, id: 'LIST' }`;
 *   - a change that moves counters (process executed, channel toggled...) also invalidates 'Stats';
 *   - a call that failed changed nothing, so it invalidates nothing.
 * A change that reaches another resource (a deleted prompt switches processes off...) invalidates
 * that resource's tags from the changing endpoint; each file's header says which.
 * src/api/apiSlice.test.ts, processes.test.ts and refetch.test.ts hold the behaviour.
 */
import type { DefinitionsFromApi } from '@reduxjs/toolkit/query';
import { apiSlice } from './apiSlice';
import { authApi } from './auth';
import { channelsApi } from './channels';
import { chatModelApi } from './chatModel';
import { executionsApi } from './executions';
import { musicApi } from './music';
import { notificationsApi } from './notifications';
import { platformAccountsApi } from './platformAccounts';
import { processesApi } from './processes';
import { promptsApi } from './prompts';
import { proxiesApi } from './proxies';
import { publicationsApi } from './publications';
import { sessionsApi } from './sessions';
import { subscriptionApi } from './subscription';
import { voicesApi } from './voices';
import { youtubeApisApi } from './youtubeApis';

type EveryEndpoint = DefinitionsFromApi<typeof authApi> &
  DefinitionsFromApi<typeof sessionsApi> &
  DefinitionsFromApi<typeof subscriptionApi> &
  DefinitionsFromApi<typeof channelsApi> &
  DefinitionsFromApi<typeof youtubeApisApi> &
  DefinitionsFromApi<typeof platformAccountsApi> &
  DefinitionsFromApi<typeof chatModelApi> &
  DefinitionsFromApi<typeof proxiesApi> &
  DefinitionsFromApi<typeof promptsApi> &
  DefinitionsFromApi<typeof voicesApi> &
  DefinitionsFromApi<typeof musicApi> &
  DefinitionsFromApi<typeof processesApi> &
  DefinitionsFromApi<typeof executionsApi> &
  DefinitionsFromApi<typeof publicationsApi> &
  DefinitionsFromApi<typeof notificationsApi>;

/** The slice typed with every endpoint (what `injectEndpoints` would answer for all of them at once). */
export type AppApi = ReturnType<typeof apiSlice.injectEndpoints<EveryEndpoint>>;

/**
 * `injectEndpoints` adds to the one slice and answers that same object, typed with what it added.
 * Naming every resource's answer here also keeps every file in the bundle, loaded before anything
 * uses the api (the main chunk, as when one file declared every endpoint): webpack treats src/ as
 * free of side effects, so a bare `import './auth'` would be dropped.
 */
function withEveryResource(...resources: readonly object[]): AppApi {
  if (resources.some((resource) => resource !== apiSlice)) throw new Error('Every resource injects into the one api slice.');
  return apiSlice as unknown as AppApi;
}

export const api = withEveryResource(
  authApi,
  sessionsApi,
  subscriptionApi,
  channelsApi,
  youtubeApisApi,
  platformAccountsApi,
  chatModelApi,
  proxiesApi,
  promptsApi,
  voicesApi,
  musicApi,
  processesApi,
  executionsApi,
  publicationsApi,
  notificationsApi,
);

export { TAG_TYPES, type TagType } from './apiSlice';
export { isRunUnderWay } from './shared';
export { logQueryFailures } from './queryFailures';
export * from './auth';
export * from './sessions';
export * from './subscription';
export * from './channels';
export * from './youtubeApis';
export * from './platformAccounts';
export * from './chatModel';
export * from './proxies';
export * from './prompts';
export * from './voices';
export * from './music';
export * from './processes';
export * from './executions';
export * from './publications';
export * from './notifications';
export {
  authSlice,
  initialAuthState,
  loggedOut,
  selectAccountDeleted,
  selectIsSignedIn,
  selectSessionEnded,
  selectToken,
  sessionEnded,
  tokenReceived,
  type AuthState,
} from './authSlice';
export { API_BASE_URL, errorDetail, errorMessage, errorStatus, type ApiError } from './baseQuery';
export type * from './types';
