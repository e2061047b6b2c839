import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The API's shapes, written once as JSON schemas: the routes validate requests and serialize
 * answers with them, and the services take their inputs and build their answers as the types
 * derived from them (`Shape<typeof schema>`), so neither writes the shape again. Below services,
 * beside lib: a contract imports only lib (the plan catalogue) and other contracts.
 */

/**
 * What a schema lets through, as a type (json-schema-to-ts): an object without
 * `additionalProperties: false` loses the `[x: string]: unknown` json-schema-to-ts gives it, so a
 * misspelt field is a type error (a map, `additionalProperties: <schema>`, keeps its keys). A date-time stays a string (the services answer ISO strings).
 */
export type Shape<S extends JSONSchema> = Exact<FromSchema<S>>;

type Exact<T> = T extends readonly (infer U)[]
  ? Exact<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? (unknown extends T[K] ? never : K) : K]: Exact<T[K]> }
    : T;

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

/** What deleting a catalogue entry (a prompt, a voice, a music track) answers: the processes it leaves without one. */
export const deleteResultSchema = {
  type: 'object',
  required: ['detail', 'affected_processes'],
  properties: { detail: { type: 'string' }, affected_processes: { type: 'integer' } },
} as const;
export type DeleteResult = Shape<typeof deleteResultSchema>;

/** Text without NUL characters, which PostgreSQL text cannot store (a pattern). */
export const NO_NUL = '^[^\\u0000]*$';

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
