import ChatOutlined from '@mui/icons-material/SmartToyOutlined';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import LibraryMusicOutlined from '@mui/icons-material/LibraryMusicOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import RecordVoiceOverOutlined from '@mui/icons-material/RecordVoiceOverOutlined';
import ShareOutlined from '@mui/icons-material/ShareOutlined';
import WarningAmberOutlined from '@mui/icons-material/WarningAmberOutlined';
import YouTube from '@mui/icons-material/YouTube';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useMemo, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useMeQuery } from '../../api';
import { PageHeader } from '../../components';
import { useFeedback } from '../../components/Feedback';
import type { SettingsBanner } from './banner';
import { ChatModelPanel } from './chatModel/ChatModelPanel';
import { DangerZonePanel } from './dangerZone/DangerZonePanel';
import { NotificationsPanel } from './notifications/NotificationsPanel';
import { ProfilePanel } from './profile/ProfilePanel';
import { ProxiesPanel } from './proxies/ProxiesPanel';
import { MENU_KEY, sectionOf, sectionsFor, type Section } from './sections';
import { SecurityPanel } from './security/SecurityPanel';
import { VoicesPanel } from './voices/VoicesPanel';
import { MusicPanel } from './music/MusicPanel';
import { PlatformAccountsPanel } from './platforms/PlatformAccountsPanel';
import { YoutubeApiPanel } from './youtube/YoutubeApiPanel';

const ICONS: Record<Section, ReactElement> = {
  profile: <PersonOutlined />,
  security: <LockOutlined />,
  'youtube-api': <YouTube />,
  platforms: <ShareOutlined />,
  voices: <RecordVoiceOverOutlined />,
  music: <LibraryMusicOutlined />,
  proxies: <DnsOutlined />,
  'chat-model': <ChatOutlined />,
  notifications: <NotificationsOutlined />,
  'danger-zone': <WarningAmberOutlined />,
};

/**
 * /settings: a side menu of sections (vertical tabs; a scrollable row of tabs on narrow screens),
 * the selected one in `?tab=` so it survives a reload, and a shared banner above the active panel
 * with the outcome of the last action.
 */
export default function SettingsPage() {
  const { t } = useTranslation(['settings', 'common']);
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const { data: user } = useMeQuery();
  const sections = useMemo(() => sectionsFor(user?.is_admin === true), [user?.is_admin]);
  const [params, setParams] = useSearchParams();
  const current = sectionOf(params.get('tab'), sections);
  const { feedback, show, clear } = useFeedback();
  const banner: SettingsBanner = useMemo(() => ({ show, clear }), [show, clear]);

  const select = (section: Section) => {
    clear();
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', section);
        return next;
      },
      { replace: true },
    );
  };

  let panel: ReactElement;
  switch (current) {
    case 'youtube-api':
      panel = <YoutubeApiPanel banner={banner} />;
      break;
    case 'platforms':
      panel = <PlatformAccountsPanel banner={banner} />;
      break;
    case 'proxies':
      panel = <ProxiesPanel banner={banner} />;
      break;
    case 'voices':
      panel = <VoicesPanel banner={banner} />;
      break;
    case 'music':
      panel = <MusicPanel banner={banner} />;
      break;
    case 'chat-model':
      panel = <ChatModelPanel banner={banner} />;
      break;
    case 'notifications':
      panel = <NotificationsPanel banner={banner} />;
      break;
    case 'security':
      panel = <SecurityPanel banner={banner} />;
      break;
    case 'danger-zone':
      panel = <DangerZonePanel banner={banner} />;
      break;
    default:
      panel = <ProfilePanel banner={banner} />;
  }

  return (
    <>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <Box sx={{ display: 'flex', flexDirection: wide ? 'row' : 'column', gap: 3, alignItems: 'flex-start' }}>
        <Tabs
          orientation={wide ? 'vertical' : 'horizontal'}
          variant="scrollable"
          // Always there on narrow screens: arrows that appeared after MUI scrolled the open
          // section's tab into view would cover it.
          scrollButtons={wide ? 'auto' : true}
          allowScrollButtonsMobile
          value={current}
          onChange={(_event, value: Section) => select(value)}
          aria-label={t('menu.label')}
          sx={{
            flexShrink: 0,
            width: wide ? 232 : '100%',
            borderRight: wide ? 1 : 0,
            borderBottom: wide ? 0 : 1,
            borderColor: 'divider',
            '& .MuiTab-root': { justifyContent: wide ? 'flex-start' : 'center', minHeight: 48, textAlign: 'left' },
          }}
        >
          {sections.map((section) => (
            <Tab
              key={section}
              value={section}
              label={t(`menu.${MENU_KEY[section]}`)}
              icon={ICONS[section]}
              iconPosition="start"
              id={`settings-tab-${section}`}
              aria-controls={`settings-panel-${section}`}
            />
          ))}
        </Tabs>
        <Box
          role="tabpanel"
          id={`settings-panel-${current}`}
          aria-labelledby={`settings-tab-${current}`}
          sx={{ flex: 1, minWidth: 0, width: '100%' }}
        >
          {feedback && (
            <Alert
              severity={feedback.severity}
              role={feedback.severity === 'error' ? 'alert' : 'status'}
              onClose={clear}
              closeText={t('common:actions.dismiss')}
              sx={{ mb: 2.5 }}
            >
              {feedback.message}
            </Alert>
          )}
          {panel}
        </Box>
      </Box>
    </>
  );
}
