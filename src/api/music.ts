/**
 * The background music (everyone reads; admins write).
 *
 * Tags: listMusic provides the Music LIST and its rows, getMusic the row. updateMusic, toggleMusic
 * and deleteMusic also invalidate the Process LIST: processes show the track's name and state, and
 * go on without it once it is deleted.
 */
import { apiSlice } from './apiSlice';
import { listTags, paged } from './shared';
import type { CatalogueDeleteResult, MusicList, MusicListArgs, MusicTrack, MusicUpdate, MusicUpload } from './types';

export const musicApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
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
  }),
});

export const {
  useListMusicQuery,
  useGetMusicQuery,
  useUploadMusicMutation,
  useUpdateMusicMutation,
  useToggleMusicMutation,
  useDeleteMusicMutation,
} = musicApi;
