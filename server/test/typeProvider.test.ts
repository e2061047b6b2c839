import Fastify from 'fastify';
import { typed } from '../src/routes/typeProvider';

/**
 * The routes' request types come from their schemas (routes/typeProvider.ts). The
 * `@ts-expect-error` lines below make `npm run typecheck` fail if a schema stops typing its request.
 */
describe('request types from the route schemas', () => {
  test('body, querystring and params are what the schemas let through', async () => {
    const app = typed(Fastify());
    const seen: unknown[] = [];
    app.post(
      '/things/:id',
      {
        schema: {
          params: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const,
          querystring: {
            type: 'object',
            properties: { limit: { type: 'integer', default: 10 }, mode: { type: 'string', enum: ['a', 'b'] } },
          } as const,
          body: {
            type: 'object',
            required: ['name'],
            additionalProperties: false,
            properties: { name: { type: 'string' }, note: { type: ['string', 'null'] } },
          } as const,
        },
      },
      async (request) => {
        const name: string = request.body.name;
        const note: string | null | undefined = request.body.note;
        const mode: 'a' | 'b' | undefined = request.query.mode;
        const id: string = request.params.id;
        // @ts-expect-error the schema has no such property
        void request.body.other;
        // @ts-expect-error a string, not a number
        const wrong: number = request.body.name;
        // @ts-expect-error only 'a' or 'b'
        const notAMode: 'c' = request.query.mode;
        seen.push({ name, note, mode, id, limit: request.query.limit, wrong, notAMode });
        return { ok: true };
      },
    );
    const answer = await app.inject({ method: 'POST', url: '/things/7?mode=b', payload: { name: 'Ana', note: null } });
    expect(answer.statusCode).toBe(200);
    expect(seen).toEqual([{ name: 'Ana', note: null, mode: 'b', id: '7', limit: 10, wrong: 'Ana', notAMode: 'b' }]);
    await app.close();
  });
});
