/**
 * The prompts (everyone reads; admins write).
 *
 * Tags: listPrompts provides the Prompt LIST and its rows, getPrompt the row. deletePrompt also
 * invalidates the Process LIST: its processes lose the prompt and switch off.
 */
import { apiSlice } from './apiSlice';
import { listTags, paged } from './shared';
import type { CatalogueDeleteResult, Prompt, PromptBasicInput, PromptFullInput, PromptList, PromptListArgs } from './types';

export const promptsApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
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
  }),
});

export const {
  useListPromptsQuery,
  useGetPromptQuery,
  useCreatePromptMutation,
  useCreatePromptFullMutation,
  useUpdatePromptDescriptionMutation,
  useUpdatePromptFullMutation,
  useTogglePromptMutation,
  useDeletePromptMutation,
} = promptsApi;
