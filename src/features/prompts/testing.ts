/** Renders /prompts for the prompts tests. */
import type { PromptSummary, User } from '../../api';
import { mockApi, renderApp, reply, signedInState, testUser, type MockHandler } from '../../testing';

export function promptList(...prompts: PromptSummary[]) {
  return reply(200, { prompts, total: prompts.length });
}

export function renderPrompts(
  handlers: Record<string, MockHandler>,
  { user = testUser, language = 'en' }: { user?: User; language?: 'en' | 'pt' } = {},
) {
  const server = mockApi({ 'GET /auth/me': reply(200, user), ...handlers });
  const rendered = renderApp('/prompts', { preloadedState: { ...signedInState, preferences: { language } } });
  return { server, ...rendered };
}
