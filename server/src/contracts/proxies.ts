import { dateTime, nullableDateTime, type Shape } from './common';

/** Outbound proxies (routes/proxies, services/proxies.ts). */

/** A proxy as answered: the password is never there, only masked in `url` and as `has_password`. */
export const proxySchema = {
  type: 'object',
  required: ['id', 'name', 'url', 'has_password', 'is_active', 'is_connected', 'last_tested', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    /** The URL with the password replaced by a mask. */
    url: { type: 'string' },
    has_password: { type: 'boolean' },
    is_active: { type: 'boolean' },
    is_connected: { type: 'boolean' },
    last_tested: nullableDateTime,
    created_at: dateTime,
    updated_at: dateTime,
  },
} as const;
export type ProxyDto = Shape<typeof proxySchema>;

export const testResultSchema = {
  type: 'object',
  required: ['is_connected', 'last_tested', 'detail', 'latency_ms'],
  properties: {
    is_connected: { type: 'boolean' },
    last_tested: dateTime,
    detail: { type: 'string' },
    latency_ms: { type: ['integer', 'null'] },
  },
} as const;
export type ProxyTestDto = Shape<typeof testResultSchema>;

const name = { type: 'string', maxLength: 500 } as const;
const url = { type: 'string', maxLength: 2048 } as const;

export const createProxyBody = {
  type: 'object',
  required: ['name', 'url'],
  additionalProperties: false,
  properties: { name, url },
} as const;
export type CreateProxyInput = Shape<typeof createProxyBody>;

/** PUT /proxies/{id}: only the fields sent change. */
export const updateProxyBody = { type: 'object', additionalProperties: false, properties: { name, url } } as const;
export type UpdateProxyInput = Shape<typeof updateProxyBody>;
