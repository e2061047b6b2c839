/**
 * The ONE RTK Query api slice of the web app. Every endpoint of the API lives here, grouped per
 * resource; later features add theirs to this same `createApi` (or through `injectEndpoints` from
 * a file of this folder), never a second slice.
 *
 * Tags (the LIST pattern, after redux-toolkit's examples/query/react/mutations):
 *   - a list query provides `{ type, id: 'LIST' }` plus `{ type, id }` for every row it returned;
 *   - a single-item query provides `{ type, id }`;
 *   - create invalidates `{ type, id: 'LIST' }` (a new row appears in every list);
 *   - update / toggle / test invalidate `{ type, id }` (the lists holding that row refetch too,
 *     since they provide the row's tag);
 *   - delete invalidates `{ type, id }` and `{ type, id: 'LIST' }`;
 *   - set-active changes several rows at once, so it invalidates `{ type, id: 'LIST' }`;
 *   - a change that moves counters (process executed, channel toggled...) also invalidates 'Stats'.
 *
 * | tag              | provided by            | invalidated by                               |
 * |------------------|------------------------|----------------------------------------------|
 * | User             | me                     | updateProfile, changePassword (cache patched) |
 * | Process, Channel, YoutubeApi, Prompt, Voice, Proxy, ChatModelConfig, Publication,      |
 * | Execution, Stats | (their features' queries, added by later issues)                       |
 *
 * Login, register and changePassword store the token they receive (tokenReceived) and seed the
 * `me` cache with the user they answer, so the guard needs no extra round trip.
 */
import { createApi } from '@reduxjs/toolkit/query/react';
import { sessionEnded, tokenReceived, type AuthState } from './authSlice';
import { baseQuery } from './baseQuery';
import type {
  AuthResult,
  Detail,
  LoginRequest,
  PasswordChange,
  PasswordResetConfirm,
  ProfileUpdate,
  RegisterRequest,
  User,
} from './types';

export const TAG_TYPES = [
  'User',
  'Process',
  'Channel',
  'YoutubeApi',
  'Prompt',
  'Voice',
  'Proxy',
  'ChatModelConfig',
  'Publication',
  'Execution',
  'Stats',
] as const;

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  endpoints: (builder) => ({
    // ---- auth ---------------------------------------------------------------------------
    login: builder.mutation<AuthResult, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(api.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
        dispatch(tokenReceived(data.access_token));
      },
    }),
    register: builder.mutation<AuthResult, RegisterRequest>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(api.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
        dispatch(tokenReceived(data.access_token));
      },
    }),
    /** Validates the stored token at start-up; a failure of any kind ends the session. */
    me: builder.query<User, void>({
      query: () => '/auth/me',
      providesTags: ['User'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled, getState }) {
        try {
          await queryFulfilled;
        } catch {
          // A 401 already ended the session in the base query; any other failure ends it here.
          const state = getState() as unknown as { auth: AuthState };
          if (state.auth.token !== null) dispatch(sessionEnded());
        }
      },
    }),
    updateProfile: builder.mutation<User, ProfileUpdate>({
      query: (body) => ({ url: '/auth/profile', method: 'PUT', body }),
      invalidatesTags: ['User'],
    }),
    /** The server revokes older tokens: the answer's token replaces the stored one. */
    changePassword: builder.mutation<AuthResult & Detail, PasswordChange>({
      query: (body) => ({ url: '/auth/password', method: 'PUT', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(tokenReceived(data.access_token));
        dispatch(api.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
      },
    }),
    /** Same answer whether the email has an account or not. */
    requestPasswordReset: builder.mutation<Detail, { email: string }>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
    confirmPasswordReset: builder.mutation<Detail, PasswordResetConfirm>({
      query: (body) => ({ url: '/auth/reset-password/confirm', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useMeQuery,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
} = api;
