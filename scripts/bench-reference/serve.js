#!/usr/bin/env node
// Serves the built reference page of `npm run bench:bundle` as the console's server serves dist/web:
// the .br/.gz file beside each asset by Accept-Encoding (@fastify/static preCompressed), hashed assets
// immutable, the page itself no-cache.   node serve.js <folder> <port>
const Fastify = require('fastify');
const fastifyStatic = require('@fastify/static');

const [root, port] = process.argv.slice(2);
const HASHED_ASSET = /\.[0-9a-f]{8,}\.(js|css)(\.(br|gz))?$/;

async function main() {
  const app = Fastify({ logger: false });
  await app.register(fastifyStatic, {
    root,
    index: ['index.html'],
    cacheControl: false,
    preCompressed: true,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', HASHED_ASSET.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  await app.listen({ host: '127.0.0.1', port: Number(port) });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
