/**
 * The TikTok and Instagram accounts a run publishes to (Settings › Platforms, issue #31).
 *
 * Tags: listPlatformAccounts provides the PlatformAccount LIST and its rows, getPlatformAccount the
 * row. update (name, or the Instagram account picked among `choices`), toggle and test invalidate
 * the row; delete invalidates the row, the LIST and the Process LIST (processes lose it as a
 * destination). authorizePlatformAccount invalidates nothing: the window's result does (the row).
 */
import { apiSlice } from './apiSlice';
import { listTags, paged } from './shared';
import type {
  AuthorizationUrl,
  PageArgs,
  PlatformAccount,
  PlatformAccountCreate,
  PlatformAccountList,
  PlatformAccountTestResult,
  PlatformAccountUpdate,
} from './types';

const path = (id: string) => `/platform-accounts/${encodeURIComponent(id)}`;

export const platformAccountsApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
    listPlatformAccounts: builder.query<PlatformAccountList, PageArgs | void>({
      query: (args) => ({ url: '/platform-accounts/', params: paged(args ?? {}) }),
      providesTags: (result) => listTags('PlatformAccount', result?.platform_accounts),
    }),
    getPlatformAccount: builder.query<PlatformAccount, string>({
      query: (id) => path(id),
      providesTags: (_result, _error, id) => [{ type: 'PlatformAccount', id }],
    }),
    createPlatformAccount: builder.mutation<PlatformAccount, PlatformAccountCreate>({
      query: (body) => ({ url: '/platform-accounts/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'PlatformAccount', id: 'LIST' }] : []),
    }),
    updatePlatformAccount: builder.mutation<PlatformAccount, { id: string } & PlatformAccountUpdate>({
      query: ({ id, ...body }) => ({ url: path(id), method: 'PUT', body }),
      invalidatesTags: (result, _error, { id }) => (result ? [{ type: 'PlatformAccount', id }] : []),
    }),
    togglePlatformAccount: builder.mutation<PlatformAccount, string>({
      query: (id) => ({ url: `${path(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'PlatformAccount', id }] : []),
    }),
    /** Stores is_connected and last_tested whatever the outcome. */
    testPlatformAccount: builder.mutation<PlatformAccountTestResult, string>({
      query: (id) => ({ url: `${path(id)}/test`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'PlatformAccount', id }] : []),
    }),
    /** The consent URL; nothing changes until the window reports back. */
    authorizePlatformAccount: builder.mutation<AuthorizationUrl, string>({
      query: (id) => ({ url: `${path(id)}/authorize`, method: 'POST' }),
    }),
    deletePlatformAccount: builder.mutation<void, string>({
      query: (id) => ({ url: path(id), method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error
          ? []
          : [
              { type: 'PlatformAccount', id },
              { type: 'PlatformAccount', id: 'LIST' },
              { type: 'Process', id: 'LIST' },
            ],
    }),
  }),
});

export const {
  useListPlatformAccountsQuery,
  useGetPlatformAccountQuery,
  useCreatePlatformAccountMutation,
  useUpdatePlatformAccountMutation,
  useTogglePlatformAccountMutation,
  useTestPlatformAccountMutation,
  useAuthorizePlatformAccountMutation,
  useDeletePlatformAccountMutation,
} = platformAccountsApi;
