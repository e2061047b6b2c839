/** JSON schemas shared by several routes. */
export const detailSchema = {
  type: 'object',
  required: ['detail'],
  properties: { detail: { type: 'string' } },
} as const;

/** The usual error answers, declared on every route. */
export const errorResponses = {
  400: detailSchema,
  401: detailSchema,
  403: detailSchema,
  404: detailSchema,
  409: detailSchema,
  413: detailSchema,
  414: detailSchema,
  415: detailSchema,
  422: detailSchema,
  429: detailSchema,
  503: detailSchema,
} as const;

export const userSchema = {
  type: 'object',
  required: [
    'id',
    'name',
    'email',
    'plan',
    'plan_name',
    'billing_period',
    'time_zone',
    'is_admin',
    'email_verified',
    'is_admin_pending',
    'created_at',
  ],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    plan: { type: 'string' },
    plan_name: { type: 'string' },
    billing_period: { type: 'string', enum: ['monthly', 'annual'] },
    time_zone: { type: 'string' },
    is_admin: { type: 'boolean' },
    email_verified: { type: 'boolean' },
    is_admin_pending: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

export const authResultSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'user'],
  properties: {
    access_token: { type: 'string' },
    token_type: { type: 'string' },
    user: userSchema,
  },
} as const;

/** The largest `skip` taken: far past any list, and well inside PostgreSQL's bigint. */
export const MAX_SKIP = 1_000_000_000;

/** `?skip=&limit=` of every list: skip 0, limit 100 by default (spec section 9). */
export const pagingQuery = {
  skip: { type: 'integer', minimum: 0, maximum: MAX_SKIP, default: 0 },
  limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
} as const;

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', format: 'uuid' } },
} as const;

export const nullableString = { type: ['string', 'null'] } as const;
export const nullableInteger = { type: ['integer', 'null'] } as const;
export const nullableDateTime = { type: ['string', 'null'], format: 'date-time' } as const;
export const dateTime = { type: 'string', format: 'date-time' } as const;

/** The query of a list: paging, plus an optional boolean filter such as active_only (default false). */
export function listQuery<F extends 'active_only' | 'enabled_only' = never>(filter?: F) {
  const filterProperty = (filter ? { [filter]: { type: 'boolean', default: false } } : {}) as {
    [K in F]: { readonly type: 'boolean'; readonly default: false };
  };
  return { type: 'object', additionalProperties: false, properties: { ...pagingQuery, ...filterProperty } } as const;
}

/** A list's answer: `{ <key>: items[], total }` (spec section 7 names the key per resource). */
export function listResponse(key: string, item: object) {
  return {
    type: 'object',
    required: [key, 'total'],
    properties: { [key]: { type: 'array', items: item }, total: { type: 'integer' } },
  } as const;
}
