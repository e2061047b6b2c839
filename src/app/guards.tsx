import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, type Location } from 'react-router-dom';
import { selectToken, useMeQuery } from '../api';
import { FullScreenSpinner } from '../components';
import { useAppSelector } from './hooks';

/** Where a signed-out visitor was going, kept in the location state of /login. */
export interface FromState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

/**
 * Everything under / needs a user. No token: off to /login (remembering the page). A stored
 * token is validated with /auth/me first, behind a full-screen spinner; if that fails the token
 * is cleared (the `me` query, api/auth.ts) and this guard sends the visitor to /login.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const token = useAppSelector(selectToken);
  const location = useLocation();
  const { data: user } = useMeQuery(undefined, { skip: !token });
  if (!token) {
    const state: FromState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    return <Navigate to="/login" replace state={state} />;
  }
  if (!user) return <FullScreenSpinner label={t('checkingSession')} />;
  return <Outlet />;
}

/** /login, /signup and /forgot-password: a signed-in visitor goes to /dashboard (or back). */
export function PublicOnly() {
  const token = useAppSelector(selectToken);
  const location = useLocation();
  if (token) {
    const from = (location.state as FromState | null)?.from;
    const target = from ? `${from.pathname}${from.search}${from.hash}` : '/dashboard';
    return <Navigate to={target} replace />;
  }
  return <Outlet />;
}
