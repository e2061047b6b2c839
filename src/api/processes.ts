/**
 * The processes and their counters.
 *
 * Tags: getProcesses provides the Process LIST and its rows, getProcess the row, getProcessStats
 * 'Stats'. Every change invalidates 'Stats'; createProcess and deleteProcess also the Channel LIST
 * (process counts), updateProcess too when it sent a channel_id. Deleting a prompt, a voice, a
 * track, a channel or a YouTube API configuration invalidates the Process LIST from its side.
 *
 * executeProcess is optimistic (spec §4): every cached getProcesses / getProcess holding the
 * process shows it queued at step 0 with the seven steps at once; if the call fails the cache says
 * `error` with the steps cleared (not an undo), and the caller shows the message. A list or a
 * process fetched again that shows a run ended refetches the history, the executions and the
 * counters.
 */
import { apiSlice } from './apiSlice';
import { errorMessage } from './baseQuery';
import { isRunUnderWay, listTags, paged } from './shared';
import type {
  ExecutionStarted,
  ExecutionStepKey,
  Process,
  ProcessCreate,
  ProcessList,
  ProcessListArgs,
  ProcessStats,
  ProcessUpdate,
} from './types';

/**
 * `list` as it is, when it holds every member of `T` and nothing else: a member `T` gains fails
 * the type check where the list is written, naming the member it lacks.
 */
function listingEvery<T>() {
  return <const L extends readonly T[]>(
    list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> }),
  ): L => list;
}

/**
 * The seven step keys of an execution, in order (docs/api-processes.md). The keys are the server's
 * (the OpenAPI document's enum, from server/src/runLayout.ts's PROCESS_STEPS): a step added, renamed
 * or removed there fails the type check here after `npm run api:types`, and processes.test.ts holds
 * the order.
 */
export const EXECUTION_STEP_KEYS = listingEvery<ExecutionStepKey>()([
  'starting',
  'generating_texts',
  'creating_story',
  'generating_audios',
  'generating_images',
  'generating_video',
  'publishing_video',
]);

/**
 * What an execute shows at once, before the server answers (spec §4): the run waits in the queue
 * until a worker takes it. The new execution's id is not known yet, so the previous one is no
 * longer the latest.
 */
function markQueued(process: Process) {
  process.status = 'queued';
  process.execution_step = 0;
  process.execution_steps = [...EXECUTION_STEP_KEYS];
  process.latest_execution_id = null;
}

/** What a failed execute leaves: an error, the step information cleared (spec §4). */
function markFailed(message: string) {
  return (process: Process) => {
    process.status = 'error';
    process.execution_step = null;
    process.execution_steps = null;
    process.last_error = message;
  };
}

/** An answered execute or retry: the server's copy of the process. */
function replaceWith(updated: Process) {
  return (process: Process) => {
    Object.assign(process, updated);
  };
}

/**
 * Runs that a list (or a process) fetched again shows finished: they changed the history, the
 * counters and the executions, which are fetched again too (the history and the dashboard update
 * without the execution dialog open).
 */
function runsFinished(before: readonly Process[], after: readonly Process[]): boolean {
  const now = new Map(after.map((process) => [process.id, process.status]));
  return before.some((process) => isRunUnderWay(process.status) && now.has(process.id) && !isRunUnderWay(now.get(process.id)!));
}

const AFTER_A_RUN = [
  { type: 'Publication', id: 'LIST' },
  { type: 'Execution', id: 'LIST' },
  'Stats',
  { type: 'Stats', id: 'PUBLICATIONS' },
] as const;

export const processesApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
    getProcesses: builder.query<ProcessList, ProcessListArgs | void>({
      query: (args) => ({ url: '/processes/', params: paged({ active_only: false, ...(args ?? {}) }) }),
      providesTags: (result) => listTags('Process', result?.processes),
      async onQueryStarted(_args, { dispatch, getCacheEntry, queryFulfilled }) {
        const before = getCacheEntry().data?.processes ?? [];
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data && runsFinished(before, data.processes)) dispatch(processesApi.util.invalidateTags([...AFTER_A_RUN]));
      },
    }),
    getProcess: builder.query<Process, string>({
      query: (id) => `/processes/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Process', id }],
      async onQueryStarted(_id, { dispatch, getCacheEntry, queryFulfilled }) {
        const before = getCacheEntry().data;
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data && before && runsFinished([before], [data])) dispatch(processesApi.util.invalidateTags([...AFTER_A_RUN]));
      },
    }),
    /** total, active, inactive and connected channels (the dashboard's cards). */
    getProcessStats: builder.query<ProcessStats, void>({
      query: () => '/processes/stats',
      providesTags: ['Stats'],
    }),
    /** A new process counts in the stats and in its channel's process count. */
    createProcess: builder.mutation<Process, ProcessCreate>({
      query: (body) => ({ url: '/processes/', method: 'POST', body }),
      invalidatesTags: (result) => (result ? [{ type: 'Process', id: 'LIST' }, { type: 'Channel', id: 'LIST' }, 'Stats'] : []),
    }),
    /** Sends only the fields given; a moved process changes two channels' counts. */
    updateProcess: builder.mutation<Process, { id: string } & ProcessUpdate>({
      query: ({ id, ...body }) => ({ url: `/processes/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: (result, _error, { id, channel_id }) =>
        result
          ? [{ type: 'Process', id }, 'Stats', ...(channel_id !== undefined ? [{ type: 'Channel' as const, id: 'LIST' }] : [])]
          : [],
    }),
    toggleProcess: builder.mutation<Process, string>({
      query: (id) => ({ url: `/processes/${encodeURIComponent(id)}/toggle`, method: 'PUT' }),
      invalidatesTags: (result, _error, id) => (result ? [{ type: 'Process', id }, 'Stats'] : []),
    }),
    deleteProcess: builder.mutation<void, string>({
      query: (id) => ({ url: `/processes/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_result, error, id) =>
        error ? [] : [{ type: 'Process', id }, { type: 'Process', id: 'LIST' }, { type: 'Channel', id: 'LIST' }, 'Stats'],
    }),
    /**
     * Starts a run (202; 409 while running). Optimistic (spec §4): the cached process is running at
     * step 0 with the seven steps at once; a failure leaves it in error with the steps cleared.
     */
    executeProcess: builder.mutation<ExecutionStarted, string>({
      query: (id) => ({ url: `/processes/${encodeURIComponent(id)}/execute`, method: 'POST' }),
      invalidatesTags: (result, _error, id) =>
        result ? [{ type: 'Process', id }, { type: 'Process', id: 'LIST' }, 'Stats', { type: 'Execution', id: 'LIST' }] : [],
      async onQueryStarted(id, { dispatch, getState, queryFulfilled }) {
        const patchProcess = (recipe: (process: Process) => void) => {
          for (const { endpointName, originalArgs } of processesApi.util.selectInvalidatedBy(getState(), [
            { type: 'Process', id },
          ])) {
            if (endpointName === 'getProcesses') {
              dispatch(
                processesApi.util.updateQueryData('getProcesses', originalArgs as ProcessListArgs | void, (draft) => {
                  const row = draft.processes.find((process) => process.id === id);
                  if (row) recipe(row);
                }),
              );
            } else if (endpointName === 'getProcess') {
              dispatch(processesApi.util.updateQueryData('getProcess', originalArgs as string, recipe));
            }
          }
        };
        patchProcess(markQueued);
        try {
          const { data } = await queryFulfilled;
          patchProcess(replaceWith(data.process));
        } catch (failure) {
          const error = (failure as { error?: unknown }).error ?? failure;
          patchProcess(markFailed(errorMessage(error)));
        }
      },
    }),
  }),
});

export const {
  useGetProcessesQuery,
  useGetProcessQuery,
  useGetProcessStatsQuery,
  useCreateProcessMutation,
  useUpdateProcessMutation,
  useToggleProcessMutation,
  useDeleteProcessMutation,
  useExecuteProcessMutation,
} = processesApi;
