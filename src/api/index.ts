// The api slice and every generated hook (the list lives once, in apiSlice.ts).
export * from './apiSlice';
export {
  authSlice,
  initialAuthState,
  loggedOut,
  selectAccountDeleted,
  selectIsSignedIn,
  selectSessionEnded,
  selectToken,
  sessionEnded,
  tokenReceived,
  type AuthState,
} from './authSlice';
export { API_BASE_URL, errorDetail, errorMessage, errorStatus, type ApiError } from './baseQuery';
export type * from './types';
