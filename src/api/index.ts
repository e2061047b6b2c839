export { api, TAG_TYPES } from './apiSlice';
export {
  useLoginMutation,
  useRegisterMutation,
  useMeQuery,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useRequestPasswordResetMutation,
  useConfirmPasswordResetMutation,
} from './apiSlice';
export {
  authSlice,
  initialAuthState,
  loggedOut,
  selectIsSignedIn,
  selectSessionEnded,
  selectToken,
  sessionEnded,
  tokenReceived,
  type AuthState,
} from './authSlice';
export { API_BASE_URL, errorDetail, errorMessage, errorStatus, type ApiError } from './baseQuery';
export type * from './types';
