/**
 * The chat-model configuration (one per user; none is `null`).
 *
 * Tags: everything here provides or invalidates 'ChatModelConfig'; testChatModel only when the
 * test succeeded or tested the stored key (the server stored the result).
 */
import { apiSlice } from './apiSlice';
import type {
  ChatModelConfig,
  ChatModelConfigCreate,
  ChatModelConfigUpdate,
  ChatModelTestRequest,
  ChatModelTestResult,
} from './types';

export const chatModelApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
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
  }),
});

export const {
  useGetChatModelConfigQuery,
  useCreateChatModelConfigMutation,
  useUpdateChatModelConfigMutation,
  useDeleteChatModelConfigMutation,
  useTestChatModelMutation,
} = chatModelApi;
