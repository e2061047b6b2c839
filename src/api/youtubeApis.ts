/**
 * The YouTube API configurations (Settings › YouTube).
 *
 * Tags: listYoutubeApis provides the YoutubeApi LIST and its rows, getYoutubeApi the row.
 * setActiveYoutubeApi and deleteYoutubeApi invalidate the LIST as well as the row (another row
 * gains or loses the active flag); deleteYoutubeApi also invalidates the Process LIST (its
 * processes lose it). A connected test invalidates the Channel LIST (it refreshed the channel's
 * counts). authorizeYoutubeApi invalidates nothing: the window's result does (the row and the
 * Channel LIST).
 */
import { apiSlice } from './apiSlice';
import { listTags, paged } from './shared';
import type {
  AuthorizationUrl,
  YoutubeApi,
  YoutubeApiCreate,
  YoutubeApiList,
  YoutubeApiListArgs,
  YoutubeApiTestResult,
  YoutubeApiUpdate,
} from './types';

export const youtubeApisApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
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
  }),
});

export const {
  useListYoutubeApisQuery,
  useGetYoutubeApiQuery,
  useCreateYoutubeApiMutation,
  useUpdateYoutubeApiMutation,
  useToggleYoutubeApiMutation,
  useSetActiveYoutubeApiMutation,
  useTestYoutubeApiMutation,
  useAuthorizeYoutubeApiMutation,
  useDeleteYoutubeApiMutation,
} = youtubeApisApi;
