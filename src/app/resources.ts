/**
 * Every translation the web app ships: one namespace for shared strings (common), one for the auth
 * screens and one per feature. The shape of `en` types the keys (i18next.d.ts), and tests use them
 * all at once; the app itself never imports this module at run time: it bundles `common` and loads
 * the others with the screens that use them (locales.ts, pages.ts).
 */
import authEn from '../../locales/en/auth.json';
import channelsEn from '../../locales/en/channels.json';
import commonEn from '../../locales/en/common.json';
import dashboardEn from '../../locales/en/dashboard.json';
import historyEn from '../../locales/en/history.json';
import processesEn from '../../locales/en/processes.json';
import promptsEn from '../../locales/en/prompts.json';
import settingsEn from '../../locales/en/settings.json';
import subscriptionEn from '../../locales/en/subscription.json';
import voicesEn from '../../locales/en/voices.json';
import authPt from '../../locales/pt/auth.json';
import channelsPt from '../../locales/pt/channels.json';
import commonPt from '../../locales/pt/common.json';
import dashboardPt from '../../locales/pt/dashboard.json';
import historyPt from '../../locales/pt/history.json';
import processesPt from '../../locales/pt/processes.json';
import promptsPt from '../../locales/pt/prompts.json';
import settingsPt from '../../locales/pt/settings.json';
import subscriptionPt from '../../locales/pt/subscription.json';
import voicesPt from '../../locales/pt/voices.json';
import type { Language } from '../lib/language';

export const en = {
  common: commonEn,
  auth: authEn,
  dashboard: dashboardEn,
  processes: processesEn,
  channels: channelsEn,
  prompts: promptsEn,
  voices: voicesEn,
  history: historyEn,
  subscription: subscriptionEn,
  settings: settingsEn,
};

/** English is the reference shape: a key missing in Portuguese fails to compile. */
export const pt: typeof en = {
  common: commonPt,
  auth: authPt,
  dashboard: dashboardPt,
  processes: processesPt,
  channels: channelsPt,
  prompts: promptsPt,
  voices: voicesPt,
  history: historyPt,
  subscription: subscriptionPt,
  settings: settingsPt,
};

export const resources: Record<Language, typeof en> = { en, pt };
export type Resources = typeof en;
export type Namespace = keyof Resources;
export const NAMESPACES = Object.keys(en) as Namespace[];
