/** What several resource files of the api use: the list tags, paging, the publications' counters tag. */
import { DEFAULT_PAGE } from '../lib/constants';
import type { TagType } from './apiSlice';
import type { PageArgs } from './types';

/** A list's tags: `{ type, id: 'LIST' }` plus one per row it returned. */
export function listTags<T extends TagType>(type: T, rows: readonly { id: string }[] | undefined) {
  return [{ type, id: 'LIST' } as const, ...(rows ?? []).map(({ id }) => ({ type, id }))];
}

/**
 * The publications' counters. A `Stats` tag with an id, so that publication changes refetch only
 * them, while a bare 'Stats' (process changes, a finished execution) refetches every counter.
 */
export const PUBLICATION_STATS_TAG = { type: 'Stats', id: 'PUBLICATIONS' } as const;

/** skip 0, limit 100 unless the caller says otherwise, plus any filter. */
export function paged<T extends PageArgs>(args: T | void): PageArgs & T {
  return { ...DEFAULT_PAGE, ...(args ?? ({} as T)) };
}

/** Whether a process's or an execution's status means a run is under way (waiting in the queue or running). */
export const isRunUnderWay = (status: string): boolean => status === 'queued' || status === 'running';
