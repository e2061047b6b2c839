import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import HistoryOutlined from '@mui/icons-material/HistoryOutlined';
import RecordVoiceOverOutlined from '@mui/icons-material/RecordVoiceOverOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SpaceDashboardOutlined from '@mui/icons-material/SpaceDashboardOutlined';
import SubscriptionsOutlined from '@mui/icons-material/SubscriptionsOutlined';
import WorkspacePremiumOutlined from '@mui/icons-material/WorkspacePremiumOutlined';
import type { ReactElement } from 'react';

export type NavKey = 'dashboard' | 'processes' | 'channels' | 'prompts' | 'voices' | 'history' | 'subscription' | 'settings';

export interface NavItem {
  key: NavKey;
  path: `/${NavKey}`;
  icon: ReactElement;
}

/** The sidebar, in the spec's order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { key: 'dashboard', path: '/dashboard', icon: <SpaceDashboardOutlined /> },
  { key: 'processes', path: '/processes', icon: <AccountTreeOutlined /> },
  { key: 'channels', path: '/channels', icon: <SubscriptionsOutlined /> },
  { key: 'prompts', path: '/prompts', icon: <ArticleOutlined /> },
  { key: 'voices', path: '/voices', icon: <RecordVoiceOverOutlined /> },
  { key: 'history', path: '/history', icon: <HistoryOutlined /> },
  { key: 'subscription', path: '/subscription', icon: <WorkspacePremiumOutlined /> },
  { key: 'settings', path: '/settings', icon: <SettingsOutlined /> },
];
