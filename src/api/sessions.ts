/**
 * The account's signed-in devices (Settings › Security).
 *
 * Tags: listSessions provides the Session LIST and one tag per row; revokeSession invalidates the
 * row and the LIST (revoking the current one signs out, which drops the whole cache);
 * revokeOtherSessions invalidates the LIST.
 */
import { apiSlice } from './apiSlice';
import { listTags } from './shared';
import type { OtherSessionsRevoked, Session, SessionList } from './types';

export const sessionsApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
    /** The account's signed-in devices, the most recently used first. */
    listSessions: builder.query<SessionList, void>({
      query: () => '/auth/sessions',
      providesTags: (result) => listTags('Session', result?.sessions),
    }),
    /** Signs one device out. The current one is this browser: the caller signs out here too. */
    revokeSession: builder.mutation<void, Pick<Session, 'id'>>({
      query: ({ id }) => ({ url: `/auth/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, { id }) =>
        error
          ? []
          : [
              { type: 'Session', id },
              { type: 'Session', id: 'LIST' },
            ],
    }),
    revokeOtherSessions: builder.mutation<OtherSessionsRevoked, void>({
      query: () => ({ url: '/auth/sessions/revoke-others', method: 'POST' }),
      invalidatesTags: (result) => (result ? [{ type: 'Session', id: 'LIST' }] : []),
    }),
  }),
});

export const { useListSessionsQuery, useRevokeSessionMutation, useRevokeOtherSessionsMutation } = sessionsApi;
