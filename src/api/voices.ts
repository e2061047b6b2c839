/**
 * The narration voices (everyone reads; admins write).
 *
 * Tags: listVoices provides the Voice LIST and its rows, getVoice the row. deleteVoice also
 * invalidates the Process LIST: its processes lose the voice and switch off.
 */
import { apiSlice } from './apiSlice';
import { listTags, paged } from './shared';
import type { CatalogueDeleteResult, Voice, VoiceInput, VoiceList, VoiceListArgs } from './types';

export const voicesApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
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
  }),
});

export const {
  useListVoicesQuery,
  useGetVoiceQuery,
  useCreateVoiceMutation,
  useUpdateVoiceMutation,
  useToggleVoiceMutation,
  useDeleteVoiceMutation,
} = voicesApi;
