/**
 * Sign-in, sign-up, the profile, the password, email verification, password reset and the account.
 *
 * Tags: `me` provides 'User'; updateProfile invalidates 'User' and the Session LIST (a new email
 * ends the other sessions); verifyEmail invalidates 'User'. changePassword patches the `me` cache
 * and refetches the Session LIST once the new token is in. deleteAccount ends the session, which
 * drops the whole cache.
 *
 * Login, register and changePassword store the token they receive (tokenReceived) and seed the
 * `me` cache with the user they answer, so the guard needs no extra round trip.
 */
import { apiSlice } from './apiSlice';
import { loggedOut, sessionEnded, tokenReceived, type AuthState } from './authSlice';
import type {
  AccountDeletion,
  AuthResult,
  Detail,
  EmailVerification,
  LoginRequest,
  PasswordChange,
  PasswordResetConfirm,
  PasswordResetDone,
  ProfileUpdate,
  RegisterRequest,
  User,
} from './types';

export const authApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
    login: builder.mutation<AuthResult, LoginRequest>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(authApi.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
        dispatch(tokenReceived(data.access_token));
      },
    }),
    register: builder.mutation<AuthResult, RegisterRequest>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(authApi.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
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
      // A new email ends the other sessions.
      invalidatesTags: ['User', { type: 'Session', id: 'LIST' }],
    }),
    /** The server revokes older tokens: the answer's token replaces the stored one. */
    changePassword: builder.mutation<AuthResult & Detail, PasswordChange>({
      query: (body) => ({ url: '/auth/password', method: 'PUT', body }),
      // Every earlier session ended; this browser has a new one. The session list is fetched again
      // only once the new token is in: a tag invalidated by the answer itself would refetch it with
      // the old token, whose 401 signs the browser out.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data) return;
        dispatch(tokenReceived(data.access_token));
        dispatch(authApi.util.upsertQueryEntries([{ endpointName: 'me', arg: undefined, value: data.user }]));
        dispatch(authApi.util.invalidateTags([{ type: 'Session', id: 'LIST' }]));
      },
    }),
    /** Settings › danger zone. Once the account is gone the session ends (and the cache with it). */
    deleteAccount: builder.mutation<Detail, AccountDeletion>({
      query: (body) => ({ url: '/auth/account', method: 'DELETE', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(loggedOut({ accountDeleted: true }));
      },
    }),
    /**
     * Ends a session on the server: its token answers 401 from then on. The token is passed in, so
     * the caller can end the session here at once (a user who signs out is signed out, even
     * offline) while this request still names the token it revokes.
     */
    logout: builder.mutation<Detail, string>({
      query: (token) => ({ url: '/auth/logout', method: 'POST', headers: { authorization: `Bearer ${token}` } }),
    }),
    /**
     * The link of the confirmation email; needs no session. The profile refetches (email_verified,
     * is_admin). An administrator address also needs the account's password: without it the
     * server answers 422 with `password_required: true`.
     */
    verifyEmail: builder.mutation<Detail, EmailVerification>({
      query: (body) => ({ url: '/auth/verify-email', method: 'POST', body }),
      invalidatesTags: (result) => (result ? ['User'] : []),
    }),
    /** Sends the confirmation link again (202; throttled with 429). */
    resendVerification: builder.mutation<Detail, void>({
      query: () => ({ url: '/auth/verify-email/resend', method: 'POST' }),
    }),
    /** Same answer whether the email has an account or not. */
    requestPasswordReset: builder.mutation<Detail, { email: string }>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
    confirmPasswordReset: builder.mutation<PasswordResetDone, PasswordResetConfirm>({
      query: (body) => ({ url: '/auth/reset-password/confirm', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useLogoutMutation,
  useVerifyEmailMutation,
  useResendVerificationMutation,
  useRegisterMutation,
  useMeQuery,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useDeleteAccountMutation,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
} = authApi;
