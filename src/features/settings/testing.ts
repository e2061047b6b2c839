/** Renders /settings at a tab for the settings tests. */
import type { User } from '../../api';
import { mockApi, renderApp, reply, signedInState, testUser, type MockHandler } from '../../testing';

export interface RenderSettingsOptions {
  user?: User;
  language?: 'en' | 'pt';
}

export function renderSettings(
  tab: string | null,
  handlers: Record<string, MockHandler> = {},
  { user = testUser, language = 'en' }: RenderSettingsOptions = {},
) {
  const server = mockApi({ 'GET /auth/me': reply(200, user), ...handlers });
  const path = tab === null ? '/settings' : `/settings?tab=${tab}`;
  const rendered = renderApp(path, { preloadedState: { ...signedInState, preferences: { language } } });
  return { server, ...rendered };
}

/** Whether the element, or an ancestor up to `within`, is drawn dimmed (opacity below 1). */
export function isDimmed(element: Element, within: Element): boolean {
  for (let node: Element | null = element; node && node !== within.parentElement; node = node.parentElement) {
    const opacity = Number(window.getComputedStyle(node).opacity || '1');
    if (opacity < 1) return true;
  }
  return false;
}
