/** Paging of every list (spec section 9): skip 0 and limit 100 by default. */
export interface Page {
  skip: number;
  limit: number;
}

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
