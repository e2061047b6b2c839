/**
 * The publications (the history) and their counters.
 *
 * Tags: getPublications provides the Publication LIST and its rows, getPublication the row,
 * getPublicationStats `{ type: 'Stats', id: 'PUBLICATIONS' }` (so publication changes refetch only
 * these counters, while a bare 'Stats' refetches every counter). Every change here invalidates
 * that counters tag; publishPublication also patches the cached rows with its answer at once;
 * refreshPublicationStats invalidates the counters and the LIST a few seconds after the 202 (views
 * and likes change). A finished run invalidates the LIST from its side.
 */
import { apiSlice } from './apiSlice';
import { listTags, paged, PUBLICATION_STATS_TAG } from './shared';
import type {
  Publication,
  PublicationCreate,
  PublicationList,
  PublicationListArgs,
  PublicationStats,
  PublicationUpdate,
  StatsRefreshQueued,
} from './types';

/** How long after a statistics refresh was queued the counters and lists are fetched again. */
export const STATS_REFRESH_SETTLE_MS = 3000;

export const publicationsApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
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
        for (const { endpointName, originalArgs } of publicationsApi.util.selectInvalidatedBy(getState(), [
          { type: 'Publication', id },
        ])) {
          if (endpointName === 'getPublications') {
            dispatch(
              publicationsApi.util.updateQueryData('getPublications', originalArgs as PublicationListArgs | void, (draft) => {
                const row = draft.publications.find((publication) => publication.id === id);
                if (row) Object.assign(row, data);
              }),
            );
          } else if (endpointName === 'getPublication') {
            dispatch(
              publicationsApi.util.updateQueryData('getPublication', originalArgs as string, (draft) =>
                Object.assign(draft, data),
              ),
            );
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
          () => dispatch(publicationsApi.util.invalidateTags([PUBLICATION_STATS_TAG, { type: 'Publication', id: 'LIST' }])),
          STATS_REFRESH_SETTLE_MS,
        );
      },
    }),
  }),
});

export const {
  useGetPublicationsQuery,
  useGetPublicationQuery,
  useGetPublicationStatsQuery,
  useCreatePublicationMutation,
  useUpdatePublicationMutation,
  usePublishPublicationMutation,
  useDeletePublicationMutation,
  useRefreshPublicationStatsMutation,
} = publicationsApi;
