import type { Middleware } from '@reduxjs/toolkit';
import { apiSlice } from './apiSlice';

/**
 * Every failed query is logged here, once per failed request (spec §7: failures are logged),
 * rather than by each screen that shows it: two screens reading the same list share one request
 * and one log line. A mutation's failure is logged where it is called, beside the message the
 * user gets. A query that did not start (already under way, or still fresh in the cache) or was
 * abandoned (aborted: its screen left, the session ended) is no failure and is not logged.
 */

const QUERY_REJECTED = `${apiSlice.reducerPath}/executeQuery/rejected`;

interface RejectedQuery {
  type: string;
  payload?: unknown;
  error?: unknown;
  meta?: { condition?: boolean; aborted?: boolean; arg?: { endpointName?: string } };
}

function isRejectedQuery(action: unknown): action is RejectedQuery {
  return typeof action === 'object' && action !== null && (action as { type?: unknown }).type === QUERY_REJECTED;
}

/** What a query loads, in words: "listYoutubeApis" -> "youtube apis", "getProcessStats" -> "process stats". */
export function queryLabel(endpointName: string): string {
  return endpointName
    .replace(/^(list|get)(?=[A-Z])/, '')
    .replace(/(?<=[a-z0-9])(?=[A-Z])/g, ' ')
    .toLowerCase();
}

/** The store's middleware that logs each failed query ("Failed to load voices", the error). */
export const logQueryFailures: Middleware = () => (next) => (action) => {
  if (isRejectedQuery(action) && !action.meta?.condition && !action.meta?.aborted) {
    const endpoint = action.meta?.arg?.endpointName ?? 'query';
    // The base query's ApiError, or what a response transform threw.
    console.error(`Failed to load ${queryLabel(endpoint)}`, action.payload ?? action.error);
  }
  return next(action);
};
