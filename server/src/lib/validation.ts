import Ajv, { type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

/**
 * Request validation. Two compilers: bodies are JSON and are taken as they are typed (a number
 * sent for a string is refused, never stored as "123"); the query string and the path are text by
 * nature, so their values are coerced to the schema's types there ("?skip=20" is 20). Unknown
 * fields are refused (removeAdditional off; schemas say additionalProperties: false), defaults are
 * filled in.
 */
const BASE: Options = { removeAdditional: false, useDefaults: true, allErrors: false, allowUnionTypes: true, strict: false };

export function createValidatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const body = new Ajv({ ...BASE, coerceTypes: false });
  const text = new Ajv({ ...BASE, coerceTypes: 'array' });
  addFormats(body);
  addFormats(text);
  return ({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema as object);
}

/**
 * The first string (value or key) in `value` that holds a control character nothing in this API
 * takes: C0 controls other than tab, line feed and carriage return, and DEL. NUL in particular,
 * which PostgreSQL refuses in text. Answers the path of the field ("body.name"), or null.
 */
export function findControlCharacter(value: unknown, where: string, depth = 0): string | null {
  if (typeof value === 'string') return FORBIDDEN.test(value) ? where : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findControlCharacter(item, `${where}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (FORBIDDEN.test(key)) return where;
    const found = findControlCharacter(item, `${where}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
