import type { FastifyInstance, FastifyTypeProvider } from 'fastify';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The routes' request types (body, querystring, params, headers) come from their JSON schemas
 * (json-schema-to-ts), so a handler's `request.body` is exactly what validation lets through and
 * nobody writes it again as an interface. Schemas must be literal (`as const`) for this.
 *
 * Answers are not typed here: the services build them as the types derived from the same schemas
 * (`Shape` in contracts/common.ts), and Fastify's serializer (built from the schemas) sends what the
 * OpenAPI document promises, which server/test/openapi.test.ts and the route tests check.
 */
export interface SchemaTypes extends FastifyTypeProvider {
  validator: this['schema'] extends JSONSchema ? FromSchema<this['schema']> : unknown;
  serializer: unknown;
}

/** The routes' view of the app: request types from the schemas. */
export function typed(app: FastifyInstance) {
  return app.withTypeProvider<SchemaTypes>();
}
