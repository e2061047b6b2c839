/**
 * The settings side menu (spec §2): profile, security, video-platform API, the TikTok and Instagram
 * accounts (issue #31), then for admins voices,
 * background music and proxies, then chat-model, notifications (docs/engine.md, "Alerts") and danger zone. The
 * selected one is `?tab=` in the URL.
 */
export const SECTIONS = [
  'profile',
  'security',
  'youtube-api',
  'platforms',
  'voices',
  'music',
  'proxies',
  'chat-model',
  'notifications',
  'danger-zone',
] as const;
export type Section = (typeof SECTIONS)[number];

const ADMIN_ONLY: readonly Section[] = ['voices', 'music', 'proxies'];

/** Each section's key in settings' `menu` group. */
export const MENU_KEY = {
  profile: 'profile',
  security: 'security',
  'youtube-api': 'youtube',
  platforms: 'platforms',
  voices: 'voices',
  music: 'music',
  proxies: 'proxies',
  'chat-model': 'chatModel',
  notifications: 'notifications',
  'danger-zone': 'dangerZone',
} as const satisfies Record<Section, string>;

export function sectionsFor(isAdmin: boolean): Section[] {
  return SECTIONS.filter((section) => isAdmin || !ADMIN_ONLY.includes(section));
}

/** The section a `?tab=` value opens: itself if the user may see it, else the first one. */
export function sectionOf(tab: string | null, available: readonly Section[]): Section {
  return available.find((section) => section === tab) ?? available[0];
}
