import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The session: only the bearer token, persisted (key "auth", whitelist ["token"]). The user
 * itself is server state, read through the `me` query. `ended` tells the login screen that the
 * session ended by itself (expired token, failed validation) rather than by signing out; it is
 * not persisted.
 */
export interface AuthState {
  token: string | null;
  ended: boolean;
  /** The session ended because the user deleted their account (the login screen says so). */
  accountDeleted: boolean;
}

export const initialAuthState: AuthState = { token: null, ended: false, accountDeleted: false };

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** Sign-in, sign-up and password change hand out a new token. */
    tokenReceived(state, action: PayloadAction<string>) {
      state.token = action.payload;
      state.ended = false;
      state.accountDeleted = false;
    },
    /** The user signed out, or (accountDeleted) deleted their account. */
    loggedOut: {
      reducer(state, action: PayloadAction<{ accountDeleted: boolean }>) {
        state.token = null;
        state.ended = false;
        state.accountDeleted = action.payload.accountDeleted;
      },
      prepare: (options?: { accountDeleted?: boolean }) => ({ payload: { accountDeleted: options?.accountDeleted === true } }),
    },
    /** The server refused the token (401) or the session could not be validated. */
    sessionEnded(state) {
      if (state.token !== null) state.ended = true;
      state.token = null;
    },
  },
  selectors: {
    selectToken: (state) => state.token,
    selectIsSignedIn: (state) => state.token !== null,
    selectSessionEnded: (state) => state.ended,
    selectAccountDeleted: (state) => state.accountDeleted,
  },
});

export const { tokenReceived, loggedOut, sessionEnded } = authSlice.actions;
export const { selectToken, selectIsSignedIn, selectSessionEnded, selectAccountDeleted } = authSlice.selectors;
