/**
 * The YouTube channels.
 *
 * Tags: listChannels provides the Channel LIST and its rows, getChannel the row. Every change also
 * invalidates 'Stats' (the connected-channels counter); deleteChannel invalidates the Process LIST
 * too (its processes lose the channel). Processes, YouTube API tests and the authorization window
 * invalidate the Channel LIST from their side (process counts, refreshed channel counts).
 */
import { apiSlice } from './apiSlice';
import { listTags, paged } from './shared';
import type { Channel, ChannelCreate, ChannelList, ChannelUpdate, PageArgs } from './types';

export const channelsApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
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
  }),
});

export const {
  useListChannelsQuery,
  useGetChannelQuery,
  useCreateChannelMutation,
  useUpdateChannelMutation,
  useToggleChannelMutation,
  useDeleteChannelMutation,
} = channelsApi;
