/**
 * The ONE RTK Query api slice of the web app. Every endpoint of the API lives here, grouped per
 * resource; later features add theirs to this same `createApi` (or through `injectEndpoints` from
 * a file of this folder), never a second slice.
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
 *
 * | tag              | provided by                          | invalidated by                                  |
 * |------------------|--------------------------------------|-------------------------------------------------|
 * | User             | me                                   | updateProfile, changePassword (cache patched),  |
 * |                  |                                      | changePlan (the plan name in the top bar)       |
 * | Subscription     | getSubscription                      | changePlan; deleteAccount ends the session,     |
 * |                  |                                      | which drops the whole cache                     |
 * | Session          | listSessions (LIST + rows)           | revokeSession (id + LIST; the current one signs |
 * |                  |                                      | out, which drops the whole cache);              |
 * |                  |                                      | revokeOtherSessions, changePassword,            |
 * |                  |                                      | updateProfile (LIST: several rows go)           |
 * | Channel          | listChannels (LIST + rows),          | createChannel (LIST); updateChannel,            |
 * |                  | getChannel (id)                      | toggleChannel (id); deleteChannel (id + LIST)   |
 * |                  |                                      | createProcess, deleteProcess (LIST: process     |
 * |                  |                                      | counts); updateProcess with a channel_id (LIST) |
 * | YoutubeApi       | listYoutubeApis (LIST + rows),       | createYoutubeApi (LIST); updateYoutubeApi,      |
 * |                  | getYoutubeApi (id)                   | toggleYoutubeApi, testYoutubeApi (id, when it   |
 * |                  |                                      | answered); setActiveYoutubeApi (id + LIST: the  |
 * |                  |                                      | previous active row changes too);               |
 * |                  |                                      | deleteYoutubeApi (id + LIST: deleting the       |
 * |                  |                                      | active one activates another; and Process LIST: |
 * |                  |                                      | its processes lose it);                         |
 * |                  |                                      | authorizeYoutubeApi none (the window's result   |
 * |                  |                                      | invalidates the id and the Channel LIST)        |
 * |                  |                                      | A connected test also invalidates Channel LIST: |
 * |                  |                                      | it refreshed the channel's counts.              |
 * | ChatModelConfig  | getChatModelConfig (null on 404:     | create/update/deleteChatModelConfig;            |
 * |                  | "not configured")                    | testChatModel when the test succeeded or tested |
 * |                  |                                      | the stored key (the server stored the result)   |
 * | Proxy            | listProxies (LIST + rows),           | createProxy (LIST); updateProxy, toggleProxy,   |
 * |                  | getProxy (id)                        | testProxy (id, when it answered);               |
 * |                  |                                      | deleteProxy (id + LIST)                         |
 * | Prompt           | listPrompts (LIST + rows),           | createPrompt, createPromptFull (LIST);          |
 * |                  | getPrompt (id)                       | updatePromptDescription, updatePromptFull,      |
 * |                  |                                      | togglePrompt (id); deletePrompt (id + LIST,     |
 * |                  |                                      | and Process LIST: its processes switch off)     |
 * | Voice            | listVoices (LIST + rows),            | createVoice (LIST); updateVoice, toggleVoice    |
 * |                  | getVoice (id)                        | (id); deleteVoice (id + LIST, and Process LIST: |
 * |                  |                                      | its processes switch off)                       |
 * | Music            | listMusic (LIST + rows),             | uploadMusic (LIST); updateMusic, toggleMusic    |
 * |                  | getMusic (id)                        | (id, and Process LIST: processes show the name  |
 * |                  |                                      | and state); deleteMusic (id + LIST, and Process |
 * |                  |                                      | LIST: its processes go on without music)        |
 * | Stats            | getProcessStats ('Stats'),           | createChannel, toggleChannel, updateChannel,    |
 * |                  | getPublicationStats                  | deleteChannel (connected-channels counter);     |
 * |                  | ({Stats, id: 'PUBLICATIONS'})        | createProcess, updateProcess, toggleProcess,    |
 * |                  |                                      | deleteProcess, executeProcess, retryExecution;  |
 * |                  |                                      | a finished execution (getExecution, see below): |
 * |                  |                                      | all of these invalidate 'Stats', i.e. both.     |
 * |                  |                                      | createPublication, updatePublication,           |
 * |                  |                                      | publishPublication, deletePublication and       |
 * |                  |                                      | refreshPublicationStats (a moment later)        |
 * |                  |                                      | invalidate {Stats, id: 'PUBLICATIONS'} only.    |
 * | Process          | getProcesses (LIST + rows),          | createProcess (LIST, and Channel LIST: its      |
 * |                  | getProcess (id)                      | process count); updateProcess, toggleProcess    |
 * |                  |                                      | (id; Channel LIST when channel_id was sent);    |
 * |                  |                                      | deleteProcess (id + LIST + Channel LIST);       |
 * |                  |                                      | executeProcess, retryExecution (id + LIST);     |
 * |                  |                                      | deletePrompt, deleteVoice, deleteChannel,       |
 * |                  |                                      | deleteYoutubeApi (LIST: processes lose the      |
 * |                  |                                      | record); a finished execution (id + LIST)       |
 * | Execution        | getProcessExecutions (LIST + rows),  | executeProcess (LIST); retryExecution (id +     |
 * |                  | getExecution (id)                    | LIST); a finished execution (LIST)              |
 * | Publication      | getPublications (LIST + rows),       | a finished execution (LIST: it may have         |
 * |                  | getPublication (id)                  | published a video); createPublication (LIST);   |
 * |                  |                                      | updatePublication, publishPublication (id; the  |
 * |                  |                                      | answer also patches the cached rows at once);   |
 * |                  |                                      | deletePublication (id + LIST);                  |
 * |                  |                                      | refreshPublicationStats (LIST, a few seconds    |
 * |                  |                                      | after the 202: views and likes change)          |
 *
 * executeProcess is optimistic (spec §4): every cached getProcesses / getProcess holding the
 * process shows it `running` at step 0 with the seven steps at once; if the call fails the cache
 * says `error` with the steps cleared (not an undo), and the caller shows the message. When a
 * polled getExecution sees its run end (running before, anything else now), the process, the
 * lists and the counters refetch.
 *
 * Login, register and changePassword store the token they receive (tokenReceived) and seed the
 * `me` cache with the user they answer, so the guard needs no extra round trip.
 */
import { createApi } from '@reduxjs/toolkit/query/react';
import { DEFAULT_PAGE } from '../lib/constants';
import { loggedOut, sessionEnded, tokenReceived, type AuthState } from './authSlice';
import { baseQuery, errorMessage } from './baseQuery';
import type {
  AccountDeletion,
  ApprovalTime,
  AuthorizationUrl,
  AuthResult,
  Channel,
  ChannelCreate,
  ChannelList,
  ChannelUpdate,
  ChatModelConfig,
  ChatModelConfigCreate,
  ChatModelConfigUpdate,
  ChatModelTestRequest,
  ChatModelTestResult,
  CatalogueDeleteResult,
  Detail,
  Execution,
  ExecutionList,
  ExecutionStarted,
  ExecutionStepKey,
  LoginRequest,
  NotificationSettings,
  NotificationSettingsUpdate,
  PageArgs,
  PasswordChange,
  PlanChange,
  PasswordResetConfirm,
  PasswordResetDone,
  Process,
  ProcessCreate,
  ProcessExecutionsArgs,
  ProcessList,
  ProcessListArgs,
  ProcessStats,
  ProcessUpdate,
  ProfileUpdate,
  Publication,
  PublicationCreate,
  PublicationList,
  PublicationListArgs,
  PublicationStats,
  PublicationUpdate,
  Prompt,
  PromptBasicInput,
  PromptFullInput,
  PromptList,
  PromptListArgs,
  ProxyInput,
  ProxyList,
  ProxyListArgs,
  ProxyServer,
  ProxyTestResult,
  RegisterRequest,
  EmailVerification,
  OtherSessionsRevoked,
  Session,
  SessionList,
  StatsRefreshQueued,
  Subscription,
  User,
  Voice,
  VoiceInput,
  VoiceList,
  VoiceListArgs,
  MusicList,
  MusicListArgs,
  MusicTrack,
  MusicUpdate,
  MusicUpload,
  WebhookTestResult,
  YoutubeApi,
  YoutubeApiCreate,
  YoutubeApiList,
  YoutubeApiListArgs,
  YoutubeApiTestResult,
  YoutubeApiUpdate,
} from './types';

export const TAG_TYPES = [
  'User',
  'Process',
  'Channel',
  'YoutubeApi',
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

/** A list's tags: `{ type, id: 'LIST' }` plus one per row it returned. */
function listTags<T extends TagType>(type: T, rows: readonly { id: string }[] | undefined) {
  return [{ type, id: 'LIST' } as const, ...(rows ?? []).map(({ id }) => ({ type, id }))];
}

/**
 * The publications' counters. A `Stats` tag with an id, so that publication changes refetch only
 * them, while a bare 'Stats' (process changes, a finished execution) refetches every counter.
 */
const PUBLICATION_STATS_TAG = { type: 'Stats', id: 'PUBLICATIONS' } as const;

/** How long after a statistics refresh was queued the counters and lists are fetched again. */
export const STATS_REFRESH_SETTLE_MS = 3000;

/** skip 0, limit 100 unless the caller says otherwise, plus any filter. */
function paged<T extends PageArgs>(args: T | void): PageArgs & T {
  return { ...DEFAULT_PAGE, ...(args ?? ({} as T)) };
}

/** The seven step keys of an execution, in order (docs/api-processes.md). */
export const EXECUTION_STEP_KEYS: readonly ExecutionStepKey[] = [
  'starting',
  'generating_texts',
  'creating_story',
  'generating_audios',
  'generating_images',
  'generating_video',
  'publishing_video',
];

/**
 * What an execute shows at once, before the server answers (spec §4): the run waits in the queue
 * until a worker takes it. The new execution's id is not known yet, so the previous one is no
 * longer the latest.
 */
function markQueued(process: Process) {
  process.status = 'queued';
  process.execution_step = 0;
  process.execution_steps = [...EXECUTION_STEP_KEYS];
  process.latest_execution_id = null;
}

/** What a failed execute leaves: an error, the step information cleared (spec §4). */
function markFailed(message: string) {
  return (process: Process) => {
    process.status = 'error';
    process.execution_step = null;
    process.execution_steps = null;
    process.last_error = message;
  };
}

/** An answered execute or retry: the server's copy of the process. */
function replaceWith(updated: Process) {
  return (process: Process) => {
    Object.assign(process, updated);
  };
}

/** What a cancel, approve or reject changes: the run, its process, the lists, the counters and the history. */
function runChanged(executionId: string, processId: string) {
  return [
    { type: 'Execution' as const, id: executionId },
    { type: 'Execution' as const, id: 'LIST' },
    { type: 'Process' as const, id: processId },
    { type: 'Process' as const, id: 'LIST' },
    { type: 'Publication' as const, id: 'LIST' },
    'Stats' as const,
    PUBLICATION_STATS_TAG,
  ];
}

/** Whether a process's or an execution's status means a run is under way (waiting in the queue or running). */
export const isRunUnderWay = (status: string): boolean => status === 'queued' || status === 'running';

/**
 * Runs that a list (or a process) fetched again shows finished: they changed the history, the
 * counters and the executions, which are fetched again too (the history and the dashboard update
 * without the execution dialog open).
 */
function runsFinished(before: readonly Process[], after: readonly Process[]): boolean {
  const now = new Map(after.map((process) => [process.id, process.status]));
  return before.some((process) => isRunUnderWay(process.status) && now.has(process.id) && !isRunUnderWay(now.get(process.id)!));
}

const AFTER_A_RUN = [
  { type: 'Publication', id: 'LIST' },
  { type: 'Execution', id: 'LIST' },
  'Stats',
  { type: 'Stats', id: 'PUBLICATIONS' },
] as const;

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  // Lists are fetched again when the user comes back to the tab or the network comes back.
  refetchOnFocus: true,
  refetchOnReconnect: true,
  endpoints: (builder) => ({
    // ---- auth ---------------------------------------------------------------------------
    login: builder.mutation<AuthResult, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(api.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
        dispatch(tokenReceived(data.access_token));
      },
    }),
    register: builder.mutation<AuthResult, RegisterRequest>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(api.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
        dispatch(tokenReceived(data.access_token));
      },
    }),
    /** Validates the stored token at start-up; a failure of any kind ends the session. */
    me: builder.query<User, void>({
      query: () => '/auth/me',
      providesTags: ['User'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled, getState }) {
        try {
          await queryFulfilled;
        } catch {
          // A 401 already ended the session in the base query; any other failure ends it here.
          const state = getState() as unknown as { auth: AuthState };
          if (state.auth.token !== null) dispatch(sessionEnded());
        }
      },
    }),
    updateProfile: builder.mutation<User, ProfileUpdate>({
      query: (body) => ({ url: '/auth/profile', method: 'PUT', body }),
      // A new email ends the other sessions.
      invalidatesTags: ['User', { type: 'Session', id: 'LIST' }],
    }),
    /** The server revokes older tokens: the answer's token replaces the stored one. */
    changePassword: builder.mutation<AuthResult & Detail, PasswordChange>({
      query: (body) => ({ url: '/auth/password', method: 'PUT', body }),
      // Every earlier session ended; this browser has a new one. The session list is fetched again
      // only once the new token is in: a tag invalidated by the answer itself would refetch it with
      // the old token, whose 401 signs the browser out.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(tokenReceived(data.access_token));
        dispatch(api.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
        dispatch(api.util.invalidateTags([{ type: 'Session', id: 'LIST' }]));
      },
    }),
    /** Settings › danger zone. Once the account is gone the session ends (and the cache with it). */
    deleteAccount: builder.mutation<Detail, AccountDeletion>({
      query: (body) => ({ url: '/auth/account', method: 'DELETE', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(loggedOut({ accountDeleted: true }));
      },
    }),
    /**
     * Ends a session on the server: its token answers 401 from then on. The token is passed in, so
     * the caller can end the session here at once (a user who signs out is signed out, even
     * offline) while this request still names the token it revokes.
     */
    logout: builder.mutation<Detail, string>({
      query: (token) => ({ url: '/auth/logout', method: 'POST', headers: { authorization: `Bearer ${token}` } }),
    }),
    /**
     * The link of the confirmation email; needs no session. The profile refetches (email_verified,
     * is_admin). An administrator address also needs the account's password: without it the
     * server answers 422 with `password_required: true`.
     */
    verifyEmail: builder.mutation<Detail, EmailVerification>({
      query: (body) => ({ url: '/auth/verify-email', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['User'] : []),
    }),
    /** Sends the confirmation link again (202; throttled with 429). */
    resendVerification: builder.mutation<Detail, void>({
      query: () => ({ url: '/auth/verify-email/resend', method: 'POST' }),
    }),
    /** Same answer whether the email has an account or not. */
    requestPasswordReset: builder.mutation<Detail, { email: string }>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
    confirmPasswordReset: builder.mutation<PasswordResetDone, PasswordResetConfirm>({
      query: (body) => ({ url: '/auth/reset-password/confirm', method: 'POST', body }),
    }),

    // ---- sessions (Settings › Security) ----------------------------------------------------
    /** The account's signed-in devices, the most recently used first. */
    listSessions: builder.query<SessionList, void>({
      query: () => '/auth/sessions',
      providesTags: (result) => listTags('Session', result?.sessions),
    }),
    /** Signs one device out. The current one is this browser: the caller signs out here too. */
    revokeSession: builder.mutation<void, Pick<Session, 'id'>>({
      query: ({ id }) => ({ url: `/auth/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { id }) =>
        error
          ? []
          : [
              { type: 'Session', id },
              { type: 'Session', id: 'LIST' },
            ],
    }),
    revokeOtherSessions: builder.mutation<OtherSessionsRevoked, void>({
      query: () => ({ url: '/auth/sessions/revoke-others', method: 'POST' }),
      invalidatesTags: (result) => (result ? [{ type: 'Session', id: 'LIST' }] : []),
    }),

    // ---- subscription ---------------------------------------------------------------------
    /** Usage moves with channels and runs: the page asks afresh each time it opens. */
    getSubscription: builder.query<Subscription, void>({
      query: () => '/subscription/',
      providesTags: ['Subscription'],
    }),
    /** Recorded, never charged; the plan name in the top bar changes with it. */
    changePlan: builder.mutation<Subscription, PlanChange>({
      query: (body) => ({ url: '/subscription/', method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['Subscription', 'User'] : []),
    }),

    // ---- channels -----------------------------------------------------------------------
    listChannels: builder.query<ChannelList, PageArgs | void>({
      query: (args) => ({ url: '/channels/', params: paged(args) }),
      providesTags: (result) => listTags('Channel', result?.channels),
    }),
    getChannel: builder.query<Channel, string>({
      query: (id) => `/channels/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Channel', id }],
    }),
    createChannel: builder.mutation<Channel, ChannelCreate>({
      query: (body) => ({ url: '/channels/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'Channel', id: 'LIST' }, 'Stats'] : []),
    }),
    updateChannel: builder.mutation<Channel, { id: string } & ChannelUpdate>({
      query: ({ id, ...body }) => ({ url: `/channels/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'Channel', id }, 'Stats'] : []),
    }),
    toggleChannel: builder.mutation<Channel, string>({
      query: (id) => ({ url: `/channels/${encodeURIComponent(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'Channel', id }, 'Stats'] : []),
    }),
    deleteChannel: builder.mutation<void, string>({
      query: (id) => ({ url: `/channels/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error ? [] : [{ type: 'Channel', id }, { type: 'Channel', id: 'LIST' }, 'Stats', { type: 'Process', id: 'LIST' }],
    }),

    // ---- YouTube API configurations -----------------------------------------------------
    listYoutubeApis: builder.query<YoutubeApiList, YoutubeApiListArgs | void>({
      query: (args) => ({ url: '/youtube-apis/', params: paged({ enabled_only: false, ...(args ?? {}) }) }),
      providesTags: (result) => listTags('YoutubeApi', result?.youtube_apis),
    }),
    getYoutubeApi: builder.query<YoutubeApi, string>({
      query: (id) => `/youtube-apis/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'YoutubeApi', id }],
    }),
    createYoutubeApi: builder.mutation<YoutubeApi, YoutubeApiCreate>({
      query: (body) => ({ url: '/youtube-apis/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'YoutubeApi', id: 'LIST' }] : []),
    }),
    updateYoutubeApi: builder.mutation<YoutubeApi, { id: string } & YoutubeApiUpdate>({
      query: ({ id, ...body }) => ({ url: `/youtube-apis/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'YoutubeApi', id }] : []),
    }),
    toggleYoutubeApi: builder.mutation<YoutubeApi, string>({
      query: (id) => ({ url: `/youtube-apis/${encodeURIComponent(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'YoutubeApi', id }] : []),
    }),
    /** Several rows change (the previous active one loses the flag): the whole list refetches. */
    setActiveYoutubeApi: builder.mutation<YoutubeApi, string>({
      query: (id) => ({ url: `/youtube-apis/${encodeURIComponent(id)}/set-active`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) =>
        result
          ? [
              { type: 'YoutubeApi', id },
              { type: 'YoutubeApi', id: 'LIST' },
            ]
          : [],
    }),
    /** Stores is_connected and last_tested whatever the outcome. */
    testYoutubeApi: builder.mutation<YoutubeApiTestResult, string>({
      query: (id) => ({ url: `/youtube-apis/${encodeURIComponent(id)}/test`, method: 'POST' }),
      // A successful test also refreshes the channel's subscriber, video and view counts.
      invalidatesTags: (result, _error, id) =>
        result ? [{ type: 'YoutubeApi', id }, ...(result.is_connected ? [{ type: 'Channel' as const, id: 'LIST' }] : [])] : [],
    }),
    /** The consent URL; nothing changes until the window reports back. */
    authorizeYoutubeApi: builder.mutation<AuthorizationUrl, string>({
      query: (id) => ({ url: `/youtube-apis/${encodeURIComponent(id)}/authorize`, method: 'POST' }),
    }),
    /** Deleting the active configuration activates the oldest remaining one: the list refetches. */
    deleteYoutubeApi: builder.mutation<void, string>({
      query: (id) => ({ url: `/youtube-apis/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error
          ? []
          : [
              { type: 'YoutubeApi', id },
              { type: 'YoutubeApi', id: 'LIST' },
              { type: 'Process', id: 'LIST' },
            ],
    }),

    // ---- chat-model configuration -------------------------------------------------------
    /** The user's configuration, or null when there is none (the server answers 404). */
    getChatModelConfig: builder.query<ChatModelConfig | null, void>({
      async queryFn(_arg, _queryApi, _extraOptions, fetchWithBaseQuery) {
        const result = await fetchWithBaseQuery('/chatgpt/config');
        if (result.error) return result.error.status === 404 ? { data: null } : { error: result.error };
        return { data: result.data as ChatModelConfig };
      },
      providesTags: ['ChatModelConfig'],
    }),
    createChatModelConfig: builder.mutation<ChatModelConfig, ChatModelConfigCreate>({
      query: (body) => ({ url: '/chatgpt/config', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['ChatModelConfig'] : []),
    }),
    updateChatModelConfig: builder.mutation<ChatModelConfig, ChatModelConfigUpdate>({
      query: (body) => ({ url: '/chatgpt/config', method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['ChatModelConfig'] : []),
    }),
    deleteChatModelConfig: builder.mutation<void, void>({
      query: () => ({ url: '/chatgpt/config', method: 'DELETE' }),
      invalidatesTags: (_result, error) => (error ? [] : ['ChatModelConfig']),
    }),
    /**
     * A successful test reloads the config (spec §4); so does any answered test of the stored key
     * (no key sent), whose outcome the server stored. A failed test of another key changes nothing.
     */
    testChatModel: builder.mutation<ChatModelTestResult, ChatModelTestRequest>({
      query: (body) => ({ url: '/chatgpt/test', method: 'POST', body }),
      invalidatesTags: (result, _error, arg) => (result && (result.is_connected || !arg.api_key) ? ['ChatModelConfig'] : []),
    }),

    // ---- proxies (admins only) ----------------------------------------------------------
    listProxies: builder.query<ProxyList, ProxyListArgs | void>({
      query: (args) => ({ url: '/proxies/', params: paged({ active_only: false, ...(args ?? {}) }) }),
      providesTags: (result) => listTags('Proxy', result?.proxies),
    }),
    getProxy: builder.query<ProxyServer, string>({
      query: (id) => `/proxies/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Proxy', id }],
    }),
    createProxy: builder.mutation<ProxyServer, ProxyInput>({
      query: (body) => ({ url: '/proxies/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'Proxy', id: 'LIST' }] : []),
    }),
    updateProxy: builder.mutation<ProxyServer, { id: string } & Partial<ProxyInput>>({
      query: ({ id, ...body }) => ({ url: `/proxies/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'Proxy', id }] : []),
    }),
    toggleProxy: builder.mutation<ProxyServer, string>({
      query: (id) => ({ url: `/proxies/${encodeURIComponent(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'Proxy', id }] : []),
    }),
    testProxy: builder.mutation<ProxyTestResult, string>({
      query: (id) => ({ url: `/proxies/${encodeURIComponent(id)}/test`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'Proxy', id }] : []),
    }),
    deleteProxy: builder.mutation<void, string>({
      query: (id) => ({ url: `/proxies/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error
          ? []
          : [
              { type: 'Proxy', id },
              { type: 'Proxy', id: 'LIST' },
            ],
    }),

    // ---- prompts (everyone reads; admins write) ------------------------------------------
    listPrompts: builder.query<PromptList, PromptListArgs | void>({
      query: (args) => ({ url: '/prompts/', params: paged({ active_only: false, ...(args ?? {}) }) }),
      providesTags: (result) => listTags('Prompt', result?.prompts),
    }),
    /** The full data, with the languages. */
    getPrompt: builder.query<Prompt, string>({
      query: (id) => `/prompts/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Prompt', id }],
    }),
    createPrompt: builder.mutation<Prompt, PromptBasicInput>({
      query: (body) => ({ url: '/prompts/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'Prompt', id: 'LIST' }] : []),
    }),
    createPromptFull: builder.mutation<Prompt, PromptFullInput>({
      query: (body) => ({ url: '/prompts/full', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'Prompt', id: 'LIST' }] : []),
    }),
    /** PUT /prompts/{id} changes the description only. */
    updatePromptDescription: builder.mutation<Prompt, { id: string; description: string }>({
      query: ({ id, description }) => ({ url: `/prompts/${encodeURIComponent(id)}`, method: 'PUT', body: { description } }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'Prompt', id }] : []),
    }),
    /** Replaces everything, the languages as a whole. */
    updatePromptFull: builder.mutation<Prompt, { id: string } & PromptFullInput>({
      query: ({ id, ...body }) => ({ url: `/prompts/${encodeURIComponent(id)}/full`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'Prompt', id }] : []),
    }),
    togglePrompt: builder.mutation<Prompt, string>({
      query: (id) => ({ url: `/prompts/${encodeURIComponent(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'Prompt', id }] : []),
    }),
    /** Processes using the prompt lose it and are switched off: their list refetches too. */
    deletePrompt: builder.mutation<CatalogueDeleteResult, string>({
      query: (id) => ({ url: `/prompts/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error
          ? []
          : [
              { type: 'Prompt', id },
              { type: 'Prompt', id: 'LIST' },
              { type: 'Process', id: 'LIST' },
            ],
    }),

    // ---- voices (everyone reads; admins write) -------------------------------------------
    listVoices: builder.query<VoiceList, VoiceListArgs | void>({
      query: (args) => ({ url: '/voices/', params: paged({ active_only: false, ...(args ?? {}) }) }),
      providesTags: (result) => listTags('Voice', result?.voices),
    }),
    getVoice: builder.query<Voice, string>({
      query: (id) => `/voices/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Voice', id }],
    }),
    createVoice: builder.mutation<Voice, VoiceInput>({
      query: (body) => ({ url: '/voices/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'Voice', id: 'LIST' }] : []),
    }),
    updateVoice: builder.mutation<Voice, { id: string } & Partial<VoiceInput>>({
      query: ({ id, ...body }) => ({ url: `/voices/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'Voice', id }] : []),
    }),
    toggleVoice: builder.mutation<Voice, string>({
      query: (id) => ({ url: `/voices/${encodeURIComponent(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'Voice', id }] : []),
    }),
    /** Processes using the voice lose it and are switched off: their list refetches too. */
    deleteVoice: builder.mutation<CatalogueDeleteResult, string>({
      query: (id) => ({ url: `/voices/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error
          ? []
          : [
              { type: 'Voice', id },
              { type: 'Voice', id: 'LIST' },
              { type: 'Process', id: 'LIST' },
            ],
    }),
    // ---- background music (everyone reads; admins write) ---------------------------------
    listMusic: builder.query<MusicList, MusicListArgs | void>({
      query: (args) => ({ url: '/music/', params: paged({ active_only: false, ...(args ?? {}) }) }),
      providesTags: (result) => listTags('Music', result?.music),
    }),
    getMusic: builder.query<MusicTrack, string>({
      query: (id) => `/music/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Music', id }],
    }),
    /** The file itself is the body (its type from the file, or a generic one: the server reads its bytes). */
    uploadMusic: builder.mutation<MusicTrack, MusicUpload>({
      query: ({ file, name, mood }) => ({
        url: '/music/',
        method: 'POST',
        params: { name, mood },
        body: file,
        headers: { 'content-type': file.type || 'application/octet-stream' },
      }),
      invalidatesTags: (result) => (result ? [{ type: 'Music', id: 'LIST' }] : []),
    }),
    updateMusic: builder.mutation<MusicTrack, { id: string } & MusicUpdate>({
      query: ({ id, ...body }) => ({ url: `/music/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id }) =>
        result
          ? [
              { type: 'Music', id },
              { type: 'Process', id: 'LIST' },
            ]
          : [],
    }),
    toggleMusic: builder.mutation<MusicTrack, string>({
      query: (id) => ({ url: `/music/${encodeURIComponent(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) =>
        result
          ? [
              { type: 'Music', id },
              { type: 'Process', id: 'LIST' },
            ]
          : [],
    }),
    /** Processes using the track lose it (they go on without music): their list refetches too. */
    deleteMusic: builder.mutation<CatalogueDeleteResult, string>({
      query: (id) => ({ url: `/music/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error
          ? []
          : [
              { type: 'Music', id },
              { type: 'Music', id: 'LIST' },
              { type: 'Process', id: 'LIST' },
            ],
    }),
    // ---- processes ----------------------------------------------------------------------
    getProcesses: builder.query<ProcessList, ProcessListArgs | void>({
      query: (args) => ({ url: '/processes/', params: paged({ active_only: false, ...(args ?? {}) }) }),
      providesTags: (result) => listTags('Process', result?.processes),
      async onQueryStarted(_args, { dispatch, getCacheEntry, queryFulfilled }) {
        const before = getCacheEntry().data?.processes ?? [];
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data && runsFinished(before, data.processes)) dispatch(api.util.invalidateTags([...AFTER_A_RUN]));
      },
    }),
    getProcess: builder.query<Process, string>({
      query: (id) => `/processes/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Process', id }],
      async onQueryStarted(_id, { dispatch, getCacheEntry, queryFulfilled }) {
        const before = getCacheEntry().data;
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data && before && runsFinished([before], [data])) dispatch(api.util.invalidateTags([...AFTER_A_RUN]));
      },
    }),
    /** total, active, inactive and connected channels (the dashboard's cards). */
    getProcessStats: builder.query<ProcessStats, void>({
      query: () => '/processes/stats',
      providesTags: ['Stats'],
    }),
    /** A new process counts in the stats and in its channel's process count. */
    createProcess: builder.mutation<Process, ProcessCreate>({
      query: (body) => ({ url: '/processes/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'Process', id: 'LIST' }, { type: 'Channel', id: 'LIST' }, 'Stats'] : []),
    }),
    /** Sends only the fields given; a moved process changes two channels' counts. */
    updateProcess: builder.mutation<Process, { id: string } & ProcessUpdate>({
      query: ({ id, ...body }) => ({ url: `/processes/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id, channel_id }) =>
        result
          ? [{ type: 'Process', id }, 'Stats', ...(channel_id !== undefined ? [{ type: 'Channel' as const, id: 'LIST' }] : [])]
          : [],
    }),
    toggleProcess: builder.mutation<Process, string>({
      query: (id) => ({ url: `/processes/${encodeURIComponent(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'Process', id }, 'Stats'] : []),
    }),
    deleteProcess: builder.mutation<void, string>({
      query: (id) => ({ url: `/processes/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error ? [] : [{ type: 'Process', id }, { type: 'Process', id: 'LIST' }, { type: 'Channel', id: 'LIST' }, 'Stats'],
    }),
    /**
     * Starts a run (202; 409 while running). Optimistic (spec §4): the cached process is running at
     * step 0 with the seven steps at once; a failure leaves it in error with the steps cleared.
     */
    executeProcess: builder.mutation<ExecutionStarted, string>({
      query: (id) => ({ url: `/processes/${encodeURIComponent(id)}/execute`, method: 'POST' }),
      invalidatesTags: (result, _error, id) =>
        result ? [{ type: 'Process', id }, { type: 'Process', id: 'LIST' }, 'Stats', { type: 'Execution', id: 'LIST' }] : [],
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const patchProcess = (recipe: (process: Process) => void) => {
          for (const { endpointName, originalArgs } of api.util.selectInvalidatedBy(getState(), [{ type: 'Process', id }])) {
            if (endpointName === 'getProcesses') {
              dispatch(
                api.util.updateQueryData('getProcesses', originalArgs as ProcessListArgs | void, (draft) => {
                  const row = draft.processes.find((process) => process.id === id);
                  if (row) recipe(row);
                }),
              );
            } else if (endpointName === 'getProcess') {
              dispatch(api.util.updateQueryData('getProcess', originalArgs as string, recipe));
            }
          }
        };
        patchProcess(markQueued);
        try {
          const { data } = await queryFulfilled;
          patchProcess(replaceWith(data.process));
        } catch (failure) {
          const error = (failure as { error?: unknown }).error ?? failure;
          patchProcess(markFailed(errorMessage(error)));
        }
      },
    }),
    getProcessExecutions: builder.query<ExecutionList, ProcessExecutionsArgs>({
      query: ({ processId, ...page }) => ({
        url: `/processes/${encodeURIComponent(processId)}/executions`,
        params: paged(page),
      }),
      providesTags: (result) => listTags('Execution', result?.executions),
    }),
    /**
     * One execution, polled by the status dialog while it runs. When a fetch sees the run end
     * (it was running, now it is not), everything the run changed refetches: the process, the
     * lists, the counters and the publications.
     */
    getExecution: builder.query<Execution, string>({
      query: (id) => `/executions/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Execution', id }],
      async onQueryStarted(_id, { dispatch, getCacheEntry, queryFulfilled }) {
        const before = getCacheEntry().data?.status;
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data || before !== 'running' || data.status === 'running') return;
        dispatch(
          api.util.invalidateTags([
            { type: 'Process', id: data.process_id },
            { type: 'Process', id: 'LIST' },
            { type: 'Execution', id: 'LIST' },
            { type: 'Publication', id: 'LIST' },
            'Stats',
          ]),
        );
      },
    }),
    /** Resumes a failed execution from its checkpoint (same id); 409 while running, 422 if it did not fail. */
    retryExecution: builder.mutation<ExecutionStarted, string>({
      query: (id) => ({ url: `/executions/${encodeURIComponent(id)}/retry`, method: 'POST' }),
      invalidatesTags: (result, _error, id) =>
        result
          ? [
              { type: 'Execution', id },
              { type: 'Execution', id: 'LIST' },
              { type: 'Process', id: result.process.id },
              { type: 'Process', id: 'LIST' },
              'Stats',
            ]
          : [],
    }),

    /** Stops a running execution (200 with the cancelled execution; 409 when it is not running). */
    cancelExecution: builder.mutation<Execution, string>({
      query: (id) => ({ url: `/executions/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => (result ? runChanged(id, result.process_id) : []),
    }),
    /** Publishes a video waiting for review: at the process's next publication time, or now. */
    approveExecution: builder.mutation<Execution, { id: string; when?: ApprovalTime }>({
      query: ({ id, when = 'scheduled' }) => ({
        url: `/executions/${encodeURIComponent(id)}/approve`,
        method: 'POST',
        body: { when },
      }),
      invalidatesTags: (result, _error, { id }) => (result ? runChanged(id, result.process_id) : []),
    }),
    /** Discards a video waiting for review: it is never published. */
    rejectExecution: builder.mutation<Execution, string>({
      query: (id) => ({ url: `/executions/${encodeURIComponent(id)}/reject`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => (result ? runChanged(id, result.process_id) : []),
    }),

    // ---- publications -------------------------------------------------------------------
    /** The history (newest first): a page, plus any of the filters status, search, date_range. */
    getPublications: builder.query<PublicationList, PublicationListArgs | void>({
      query: (args) => ({ url: '/publications/', params: paged(args) }),
      providesTags: (result) => listTags('Publication', result?.publications),
    }),
    getPublication: builder.query<Publication, string>({
      query: (id) => `/publications/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Publication', id }],
    }),
    /** Counters per status, total views and likes (all the user's publications). */
    getPublicationStats: builder.query<PublicationStats, void>({
      query: () => '/publications/stats',
      providesTags: [PUBLICATION_STATS_TAG],
    }),
    /** A record of a video made elsewhere. */
    createPublication: builder.mutation<Publication, PublicationCreate>({
      query: (body) => ({ url: '/publications/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'Publication', id: 'LIST' }, PUBLICATION_STATS_TAG] : []),
    }),
    /** Its status may change, and with it the counters. */
    updatePublication: builder.mutation<Publication, { id: string } & PublicationUpdate>({
      query: ({ id, ...body }) => ({ url: `/publications/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'Publication', id }, PUBLICATION_STATS_TAG] : []),
    }),
    /**
     * Makes the video public on YouTube (502 when YouTube refuses, 422 without a video id; either
     * way nothing changed). The answer replaces the row in every cached list at once.
     */
    publishPublication: builder.mutation<Publication, string>({
      query: (id) => ({ url: `/publications/${encodeURIComponent(id)}/publish-public`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'Publication', id }, PUBLICATION_STATS_TAG] : []),
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        for (const { endpointName, originalArgs } of api.util.selectInvalidatedBy(getState(), [{ type: 'Publication', id }])) {
          if (endpointName === 'getPublications') {
            dispatch(
              api.util.updateQueryData('getPublications', originalArgs as PublicationListArgs | void, (draft) => {
                const row = draft.publications.find((publication) => publication.id === id);
                if (row) Object.assign(row, data);
              }),
            );
          } else if (endpointName === 'getPublication') {
            dispatch(api.util.updateQueryData('getPublication', originalArgs as string, (draft) => Object.assign(draft, data)));
          }
        }
      },
    }),
    /** Deletes the video on YouTube too (502 when YouTube refuses: nothing changed). */
    /** Deletes the video on YouTube, then the record; with keepVideo the record only. */
    deletePublication: builder.mutation<void, string | { id: string; keepVideo?: boolean }>({
      query: (arg) => {
        const { id, keepVideo } = typeof arg === 'string' ? { id: arg, keepVideo: false } : arg;
        return {
          url: `/publications/${encodeURIComponent(id)}`,
          method: 'DELETE',
          ...(keepVideo ? { params: { keep_video: true } } : {}),
        };
      },
      invalidatesTags: (_result, error, arg) => {
        const id = typeof arg === 'string' ? arg : arg.id;
        return error ? [] : [{ type: 'Publication', id }, { type: 'Publication', id: 'LIST' }, PUBLICATION_STATS_TAG];
      },
    }),
    /**
     * Queues the statistics job for this user (202). The job runs in the background, so the
     * counters and the lists' views and likes refetch a moment later, not at once.
     */
    refreshPublicationStats: builder.mutation<StatsRefreshQueued, void>({
      query: () => ({ url: '/publications/stats/refresh', method: 'POST' }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        setTimeout(
          () => dispatch(api.util.invalidateTags([PUBLICATION_STATS_TAG, { type: 'Publication', id: 'LIST' }])),
          STATS_REFRESH_SETTLE_MS,
        );
      },
    }),

    // ---- notifications --------------------------------------------------------------------
    getNotificationSettings: builder.query<NotificationSettings, void>({
      query: () => '/notifications/',
      providesTags: ['Notifications'],
    }),
    updateNotificationSettings: builder.mutation<NotificationSettings, NotificationSettingsUpdate>({
      query: (body) => ({ url: '/notifications/', method: 'PUT', body }),
      invalidatesTags: (result) => (result ? ['Notifications'] : []),
    }),
    /** Sends a signed test event to the saved webhook; answers whether it was delivered. */
    testWebhook: builder.mutation<WebhookTestResult, void>({
      query: () => ({ url: '/notifications/test', method: 'POST' }),
    }),
  }),
});

export const {
  useLoginMutation,
  useLogoutMutation,
  useVerifyEmailMutation,
  useResendVerificationMutation,
  useCancelExecutionMutation,
  useApproveExecutionMutation,
  useRejectExecutionMutation,
  useGetNotificationSettingsQuery,
  useUpdateNotificationSettingsMutation,
  useTestWebhookMutation,
  useRegisterMutation,
  useMeQuery,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useDeleteAccountMutation,
  useGetSubscriptionQuery,
  useChangePlanMutation,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
  useListSessionsQuery,
  useRevokeSessionMutation,
  useRevokeOtherSessionsMutation,
  useListChannelsQuery,
  useGetChannelQuery,
  useCreateChannelMutation,
  useUpdateChannelMutation,
  useToggleChannelMutation,
  useDeleteChannelMutation,
  useListYoutubeApisQuery,
  useGetYoutubeApiQuery,
  useCreateYoutubeApiMutation,
  useUpdateYoutubeApiMutation,
  useToggleYoutubeApiMutation,
  useSetActiveYoutubeApiMutation,
  useTestYoutubeApiMutation,
  useAuthorizeYoutubeApiMutation,
  useDeleteYoutubeApiMutation,
  useGetChatModelConfigQuery,
  useCreateChatModelConfigMutation,
  useUpdateChatModelConfigMutation,
  useDeleteChatModelConfigMutation,
  useTestChatModelMutation,
  useListProxiesQuery,
  useGetProxyQuery,
  useCreateProxyMutation,
  useUpdateProxyMutation,
  useToggleProxyMutation,
  useTestProxyMutation,
  useDeleteProxyMutation,
  useListPromptsQuery,
  useGetPromptQuery,
  useCreatePromptMutation,
  useCreatePromptFullMutation,
  useUpdatePromptDescriptionMutation,
  useUpdatePromptFullMutation,
  useTogglePromptMutation,
  useDeletePromptMutation,
  useListVoicesQuery,
  useGetVoiceQuery,
  useCreateVoiceMutation,
  useUpdateVoiceMutation,
  useToggleVoiceMutation,
  useDeleteVoiceMutation,
  useListMusicQuery,
  useGetMusicQuery,
  useUploadMusicMutation,
  useUpdateMusicMutation,
  useToggleMusicMutation,
  useDeleteMusicMutation,
  useGetProcessesQuery,
  useGetProcessQuery,
  useGetProcessStatsQuery,
  useCreateProcessMutation,
  useUpdateProcessMutation,
  useToggleProcessMutation,
  useDeleteProcessMutation,
  useExecuteProcessMutation,
  useGetProcessExecutionsQuery,
  useGetExecutionQuery,
  useRetryExecutionMutation,
  useGetPublicationsQuery,
  useGetPublicationQuery,
  useGetPublicationStatsQuery,
  useCreatePublicationMutation,
  useUpdatePublicationMutation,
  usePublishPublicationMutation,
  useDeletePublicationMutation,
  useRefreshPublicationStatsMutation,
} = api;
