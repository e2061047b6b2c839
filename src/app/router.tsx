import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router-dom';
import { FullScreenSpinner, PageSpinner } from '../components';
import { LoginPage } from '../features/auth';
import { PublicOnly, RequireAuth } from './guards';
import { AuthShell } from './layout/AuthShell';

// The login screen is in the entry chunk; every other screen is a chunk of its own.
const SignUpPage = lazy(() => import(/* webpackChunkName: "signup" */ '../features/auth/SignUpPage'));
const ForgotPasswordPage = lazy(() => import(/* webpackChunkName: "forgot-password" */ '../features/auth/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import(/* webpackChunkName: "reset-password" */ '../features/auth/ResetPasswordPage'));
const SignedInLayout = lazy(() => import(/* webpackChunkName: "layout" */ './layout/SignedInLayout'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "layout" */ './NotFoundPage'));
const DashboardPage = lazy(() => import(/* webpackChunkName: "dashboard" */ '../features/dashboard/DashboardPage'));
const ProcessesPage = lazy(() => import(/* webpackChunkName: "processes" */ '../features/processes/ProcessesPage'));
const ChannelsPage = lazy(() => import(/* webpackChunkName: "channels" */ '../features/channels/ChannelsPage'));
const PromptsPage = lazy(() => import(/* webpackChunkName: "prompts" */ '../features/prompts/PromptsPage'));
const VoicesPage = lazy(() => import(/* webpackChunkName: "voices" */ '../features/voices/VoicesPage'));
const HistoryPage = lazy(() => import(/* webpackChunkName: "history" */ '../features/history/HistoryPage'));
const SubscriptionPage = lazy(() => import(/* webpackChunkName: "subscription" */ '../features/subscription/SubscriptionPage'));
const SettingsPage = lazy(() => import(/* webpackChunkName: "settings" */ '../features/settings/SettingsPage'));

/** A lazily loaded signed-out screen: a spinner in place of the card while its chunk arrives. */
function LazyCard({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageSpinner />}>{children}</Suspense>;
}

function LazyLayout() {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<FullScreenSpinner label={t('loading')} />}>
      <SignedInLayout />
    </Suspense>
  );
}

/** The route table of spec §2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<AuthShell />}>
        <Route element={<PublicOnly />}>
          <Route path="login" element={<LoginPage />} />
          <Route
            path="signup"
            element={
              <LazyCard>
                <SignUpPage />
              </LazyCard>
            }
          />
          <Route
            path="forgot-password"
            element={
              <LazyCard>
                <ForgotPasswordPage />
              </LazyCard>
            }
          />
        </Route>
        <Route
          path="reset-password"
          element={
            <LazyCard>
              <ResetPasswordPage />
            </LazyCard>
          }
        />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<LazyLayout />}>
          <Route index element={<Navigate to="/dashboard" replace />} />
          <Route path="dashboard" element={<DashboardPage />} />
          <Route path="processes" element={<ProcessesPage />} />
          <Route path="channels" element={<ChannelsPage />} />
          <Route path="history" element={<HistoryPage />} />
          <Route path="prompts" element={<PromptsPage />} />
          <Route path="subscription" element={<SubscriptionPage />} />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="voices" element={<VoicesPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
