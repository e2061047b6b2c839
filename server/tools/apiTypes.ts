import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The web app's API types, generated from the server's OpenAPI document (openapi-typescript), into
 * a committed file. `npm run api:types` writes it; `server/test/apiTypes.test.ts` (in `npm test`)
 * fails when the committed file no longer matches the routes' schemas.
 */
export const API_TYPES_FILE = path.join(__dirname, '../../src/api/openapi.gen.ts');

const HEADER = `/**
 * Generated from the API's OpenAPI document (the server's route schemas) by \`npm run api:types\`.
 * Do not edit: change the route's schema and run the command again (\`npm test\` checks it).
 */

`;

/** The file's text for this app's document. */
export async function apiTypesSource(app: FastifyInstance): Promise<string> {
  await app.ready();
  const document = app.swagger();
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true, silent: true });
  return HEADER + astToString(ast);
}
