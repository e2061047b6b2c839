/**
 * The proxy servers (admins only).
 *
 * Tags: listProxies provides the Proxy LIST and its rows, getProxy the row (the LIST pattern of
 * index.ts, nothing else).
 */
import { apiSlice } from './apiSlice';
import { listTags, paged } from './shared';
import type { ProxyInput, ProxyList, ProxyListArgs, ProxyServer, ProxyTestResult } from './types';

export const proxiesApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
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
  }),
});

export const {
  useListProxiesQuery,
  useGetProxyQuery,
  useCreateProxyMutation,
  useUpdateProxyMutation,
  useToggleProxyMutation,
  useTestProxyMutation,
  useDeleteProxyMutation,
} = proxiesApi;
