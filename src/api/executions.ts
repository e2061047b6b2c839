/**
 * The executions (runs) of a process.
 *
 * Tags: getProcessExecutions provides the Execution LIST and its rows, getExecution the row.
 * retryExecution invalidates the run, the LIST, its process, the Process LIST and 'Stats';
 * cancel, approve and reject also the Publication LIST and the publications' counters
 * (`runChanged`). When a polled getExecution sees its run end (running before, anything else now),
 * the process, the lists and the counters refetch.
 */
import { apiSlice } from './apiSlice';
import { listTags, paged, PUBLICATION_STATS_TAG } from './shared';
import type { ApprovalTime, Execution, ExecutionList, ExecutionStarted, ProcessExecutionsArgs } from './types';

/** What a cancel, approve or reject changes: the run, its process, the lists, the counters and the history. */
function runChanged(executionId: string, processId: string) {
  return [
    { type: 'Execution' as const, id: executionId },
    { type: 'Execution' as const, id: 'LIST' },
    { type: 'Process' as const, id: processId },
    { type: 'Process' as const, id: 'LIST' },
    { type: 'Publication' as const, id: 'LIST' },
    'Stats' as const,
    PUBLICATION_STATS_TAG,
  ];
}

export const executionsApi = apiSlice.injectEndpoints({
  endpoints: (builder) => ({
    getProcessExecutions: builder.query<ExecutionList, ProcessExecutionsArgs>({
      query: ({ processId, ...page }) => ({
        url: `/processes/${encodeURIComponent(processId)}/executions`,
        params: paged(page),
      }),
      providesTags: (result) => listTags('Execution', result?.executions),
    }),
    /**
     * One execution, polled by the status dialog while it runs. When a fetch sees the run end
     * (it was running, now it is not), everything the run changed refetches: the process, the
     * lists, the counters and the publications.
     */
    getExecution: builder.query<Execution, string>({
      query: (id) => `/executions/${encodeURIComponent(id)}`,
      providesTags: (_result, _error, id) => [{ type: 'Execution', id }],
      async onQueryStarted(_id, { dispatch, getCacheEntry, queryFulfilled }) {
        const before = getCacheEntry().data?.status;
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (!data || before !== 'running' || data.status === 'running') return;
        dispatch(
          executionsApi.util.invalidateTags([
            { type: 'Process', id: data.process_id },
            { type: 'Process', id: 'LIST' },
            { type: 'Execution', id: 'LIST' },
            { type: 'Publication', id: 'LIST' },
            'Stats',
          ]),
        );
      },
    }),
    /** Resumes a failed execution from its checkpoint (same id); 409 while running, 422 if it did not fail. */
    retryExecution: builder.mutation<ExecutionStarted, string>({
      query: (id) => ({ url: `/executions/${encodeURIComponent(id)}/retry`, method: 'POST' }),
      invalidatesTags: (result, _error, id) =>
        result
          ? [
              { type: 'Execution', id },
              { type: 'Execution', id: 'LIST' },
              { type: 'Process', id: result.process.id },
              { type: 'Process', id: 'LIST' },
              'Stats',
            ]
          : [],
    }),

    /** Stops a running execution (200 with the cancelled execution; 409 when it is not running). */
    cancelExecution: builder.mutation<Execution, string>({
      query: (id) => ({ url: `/executions/${encodeURIComponent(id)}/cancel`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => (result ? runChanged(id, result.process_id) : []),
    }),
    /** Publishes a video waiting for review: at the process's next publication time, or now. */
    approveExecution: builder.mutation<Execution, { id: string; when?: ApprovalTime }>({
      query: ({ id, when = 'scheduled' }) => ({
        url: `/executions/${encodeURIComponent(id)}/approve`,
        method: 'POST',
        body: { when },
      }),
      invalidatesTags: (result, _error, { id }) => (result ? runChanged(id, result.process_id) : []),
    }),
    /** Discards a video waiting for review: it is never published. */
    rejectExecution: builder.mutation<Execution, string>({
      query: (id) => ({ url: `/executions/${encodeURIComponent(id)}/reject`, method: 'POST' }),
      invalidatesTags: (result, _error, id) => (result ? runChanged(id, result.process_id) : []),
    }),
  }),
});

export const {
  useCancelExecutionMutation,
  useApproveExecutionMutation,
  useRejectExecutionMutation,
  useGetProcessExecutionsQuery,
  useGetExecutionQuery,
  useRetryExecutionMutation,
} = executionsApi;
