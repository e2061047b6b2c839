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
 * | User             | me                                   | updateProfile, changePassword (cache patched)   |
 * | Channel          | listChannels (LIST + rows),          | createChannel (LIST); updateChannel,            |
 * |                  | getChannel (id)                      | toggleChannel (id); deleteChannel (id + LIST)   |
 * | YoutubeApi       | listYoutubeApis (LIST + rows),       | createYoutubeApi (LIST); updateYoutubeApi,      |
 * |                  | getYoutubeApi (id)                   | toggleYoutubeApi, testYoutubeApi (id, when it   |
 * |                  |                                      | answered); setActiveYoutubeApi (id + LIST: the  |
 * |                  |                                      | previous active row changes too);               |
 * |                  |                                      | deleteYoutubeApi (id + LIST: deleting the       |
 * |                  |                                      | active one activates another);                  |
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
 * | Stats            | (dashboard, later issue)             | createChannel, toggleChannel, updateChannel,    |
 * |                  |                                      | deleteChannel (connected-channels counter)      |
 * | Process          | (processes feature, later issue)     | deletePrompt, deleteVoice (LIST)                |
 * | Publication, Execution | (their features' queries, added by later issues)                          |
 *
 * Login, register and changePassword store the token they receive (tokenReceived) and seed the
 * `me` cache with the user they answer, so the guard needs no extra round trip.
 */
import { createApi } from '@reduxjs/toolkit/query/react';
import { DEFAULT_PAGE } from '../lib/constants';
import { sessionEnded, tokenReceived, type AuthState } from './authSlice';
import { baseQuery } from './baseQuery';
import type {
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
  LoginRequest,
  PageArgs,
  PasswordChange,
  PasswordResetConfirm,
  ProfileUpdate,
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
  User,
  Voice,
  VoiceInput,
  VoiceList,
  VoiceListArgs,
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
  'Proxy',
  'ChatModelConfig',
  'Publication',
  'Execution',
  'Stats',
] as const;

export type TagType = (typeof TAG_TYPES)[number];

/** A list's tags: `{ type, id: 'LIST' }` plus one per row it returned. */
function listTags<T extends TagType>(type: T, rows: readonly { id: string }[] | undefined) {
  return [{ type, id: 'LIST' } as const, ...(rows ?? []).map(({ id }) => ({ type, id }))];
}

/** skip 0, limit 100 unless the caller says otherwise, plus any filter. */
function paged<T extends PageArgs>(args: T | void): PageArgs & T {
  return { ...DEFAULT_PAGE, ...(args ?? ({} as T)) };
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
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
      invalidatesTags: ['User'],
    }),
    /** The server revokes older tokens: the answer's token replaces the stored one. */
    changePassword: builder.mutation<AuthResult & Detail, PasswordChange>({
      query: (body) => ({ url: '/auth/password', method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(tokenReceived(data.access_token));
        dispatch(api.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
      },
    }),
    /** Same answer whether the email has an account or not. */
    requestPasswordReset: builder.mutation<Detail, { email: string }>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
    confirmPasswordReset: builder.mutation<Detail, PasswordResetConfirm>({
      query: (body) => ({ url: '/auth/reset-password/confirm', method: 'POST', body }),
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
        error ? [] : [{ type: 'Channel', id }, { type: 'Channel', id: 'LIST' }, 'Stats'],
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
        result ? [{ type: 'YoutubeApi', id }, { type: 'YoutubeApi', id: 'LIST' }] : [],
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
        error ? [] : [{ type: 'YoutubeApi', id }, { type: 'YoutubeApi', id: 'LIST' }],
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
      invalidatesTags: (_result, error, id) => (error ? [] : [{ type: 'Proxy', id }, { type: 'Proxy', id: 'LIST' }]),
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
        error ? [] : [{ type: 'Prompt', id }, { type: 'Prompt', id: 'LIST' }, { type: 'Process', id: 'LIST' }],
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
        error ? [] : [{ type: 'Voice', id }, { type: 'Voice', id: 'LIST' }, { type: 'Process', id: 'LIST' }],
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useMeQuery,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
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
} = api;
