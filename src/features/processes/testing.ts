/** Fixtures and a renderer for the processes tests. */
import { EXECUTION_STEP_KEYS, type Execution, type Process, type User } from '../../api';
import { mockApi, processFixture, renderApp, reply, signedInState, testUser, type MockHandler } from '../../testing';

export { processFixture };

const DAY_MS = 24 * 60 * 60 * 1000;

/** An ISO date `days` days before now. */
export function daysBefore(days: number): string {
  return new Date(Date.now() - days * DAY_MS).toISOString();
}

/** An execution at `current_step` with the steps before it done (durations 1.5 s each). */
export function executionFixture(overrides: Partial<Execution> = {}): Execution {
  const status = overrides.status ?? 'running';
  const current = overrides.current_step ?? 0;
  const steps = EXECUTION_STEP_KEYS.map((key, index) => {
    let stepStatus: Execution['steps'][number]['status'] = 'pending';
    if (index < current || status === 'completed') stepStatus = 'done';
    else if (index === current) stepStatus = status === 'error' ? 'error' : status === 'running' ? 'running' : 'pending';
    const done = stepStatus === 'done';
    return {
      key,
      status: stepStatus,
      started_at: done || stepStatus !== 'pending' ? '2025-03-07T12:00:00.000Z' : null,
      finished_at: done ? '2025-03-07T12:00:01.500Z' : null,
      duration_ms: done ? 1500 : null,
    };
  });
  return {
    id: 'ex-1',
    process_id: 'p-1',
    status,
    trigger: 'manual',
    current_step: current,
    steps,
    story_title: null,
    error: null,
    queued_at: '2025-03-07T12:00:00.000Z',
    started_at: '2025-03-07T12:00:00.000Z',
    finished_at: null,
    queue_position: null,
    estimated_seconds_left: null,
    video_url: null,
    thumbnail_url: null,
    video_duration_seconds: null,
    warnings: [],
    progress: null,
    created_at: '2025-03-07T12:00:00.000Z',
    ...overrides,
  };
}

export function processList(...processes: Process[]) {
  return reply(200, { processes, total: processes.length });
}

export function renderProcesses(
  handlers: Record<string, MockHandler>,
  { user = testUser, language = 'en' }: { user?: User; language?: 'en' | 'pt' } = {},
) {
  const server = mockApi({ 'GET /auth/me': reply(200, user), ...handlers });
  const rendered = renderApp('/processes', { preloadedState: { ...signedInState, preferences: { language } } });
  return { server, ...rendered };
}
