import type { Feedback } from '../../components/Feedback';

/**
 * The settings page's shared banner (spec §2): the panels report the outcome of their actions
 * here, and clear it before each submit.
 */
export interface SettingsBanner {
  show: (severity: Feedback['severity'], message: string) => void;
  clear: () => void;
}

export interface PanelProps {
  banner: SettingsBanner;
}
