import path from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The web app's API types, generated from the server's OpenAPI document (openapi-typescript), into
 * a committed file. `npm run api:types` writes it; `server/test/apiTypes.test.ts` (in `npm test`)
 * fails when the committed file no longer matches the routes' schemas.
 */
export const API_TYPES_FILE = path.join(__dirname, '../../src/api/openapi.gen.ts');

/**
 * The values of the enumerations the web app lists (menus, form checks), read from the same
 * document into src/lib (which the web app's shared code may import, unlike src/api): written once,
 * in server/src/contracts, and checked by the same drift test.
 */
export const API_ENUMS_FILE = path.join(__dirname, '../../src/lib/apiEnums.gen.ts');

/** Each list: where its enum is in the document (a JSON answer's schema, then a path into it). */
const ENUMS: Record<string, { path: string; method: string; status: string; at: string[]; about: string }> = {
  LANGUAGE_CODES: {
    path: '/api/v1/prompts/{id}',
    method: 'get',
    status: '200',
    at: ['properties', 'language_codes', 'items'],
    about: 'The 20 story languages a prompt (and a voice) can be written in, in display order.',
  },
  PROMPT_CATEGORIES: {
    path: '/api/v1/prompts/{id}',
    method: 'get',
    status: '200',
    at: ['properties', 'category'],
    about: 'The prompt categories, in display order; the first is the default.',
  },
  PLAN_IDS: {
    path: '/api/v1/auth/me',
    method: 'get',
    status: '200',
    at: ['properties', 'plan'],
    about: 'The plans of the catalogue, in its order.',
  },
  BILLING_PERIODS: {
    path: '/api/v1/auth/me',
    method: 'get',
    status: '200',
    at: ['properties', 'billing_period'],
    about: 'How a plan is billed.',
  },
};

const HEADER = `/**
 * Generated from the API's OpenAPI document (the server's route schemas) by \`npm run api:types\`.
 * Do not edit: change the route's schema and run the command again (\`npm test\` checks it).
 */

`;

/** The enumerations' file for this app's document. */
export async function apiEnumsSource(app: FastifyInstance): Promise<string> {
  await app.ready();
  const document = app.swagger() as { paths: Record<string, Record<string, unknown>> };
  const lists = Object.entries(ENUMS).map(([name, { path: route, method, status, at, about }]) => {
    let node: unknown = document.paths[route]?.[method];
    for (const key of ['responses', status, 'content', 'application/json', 'schema', ...at]) {
      node = (node as Record<string, unknown> | undefined)?.[key];
    }
    const values = (node as { enum?: unknown } | undefined)?.enum;
    if (!Array.isArray(values) || !values.every((value) => typeof value === 'string')) {
      throw new Error(`no enum of strings at ${method.toUpperCase()} ${route} ${status} ${at.join('.')}`);
    }
    return `/** ${about} */\nexport const ${name} = ${JSON.stringify(values)} as const;\n`;
  });
  return HEADER + lists.join('\n');
}

/** The file's text for this app's document. */
export async function apiTypesSource(app: FastifyInstance): Promise<string> {
  await app.ready();
  const document = app.swagger();
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], { alphabetize: true, silent: true });
  return HEADER + astToString(ast);
}
