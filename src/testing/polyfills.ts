// jsdom lacks these Node globals that the app's libraries expect.
import { TextDecoder, TextEncoder } from 'node:util';
import { runInThisContext } from 'node:vm';

Object.assign(globalThis, { TextEncoder, TextDecoder });
if (typeof globalThis.structuredClone !== 'function') {
  Object.assign(globalThis, { structuredClone: (value: unknown) => JSON.parse(JSON.stringify(value)) });
}

/*
 * The Fetch API. jsdom has none, but Node's own (undici) lives in the outer realm, outside the
 * jsdom window Jest installs as the global: `vm.runInThisContext` evaluates in that outer realm.
 * Request resolves relative URLs against the page's location, as a browser does, so RTK Query's
 * fetchBaseQuery works with baseUrl '/api/v1'. `fetch` itself refuses to run: component tests
 * answer calls with src/testing/mockApi.ts.
 */
type FetchGlobals = Pick<typeof globalThis, 'fetch' | 'Request' | 'Response' | 'Headers' | 'FormData' | 'Blob'>;
const outer = runInThisContext('globalThis') as FetchGlobals;

if (typeof globalThis.Request === 'undefined') {
  const NodeRequest = outer.Request;
  class Request extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, globalThis.location?.href ?? 'http://localhost/').href : input, init);
    }
  }
  Object.assign(globalThis, { Request, Response: outer.Response, Headers: outer.Headers });
}
if (typeof globalThis.fetch === 'undefined') {
  Object.assign(globalThis, {
    fetch: () => Promise.reject(new TypeError('fetch is not mocked in this test: use mockApi() from src/testing/mockApi')),
  });
}

/*
 * matchMedia, which MUI's useMediaQuery reads. Widths are evaluated against `window.innerWidth`
 * (jsdom: 1024, i.e. a wide screen with the permanent sidebar); a test can set innerWidth
 * before rendering to get the narrow layout.
 */
if (typeof window !== 'undefined' && typeof window.matchMedia !== 'function') {
  const matches = (query: string): boolean => {
    const width = window.innerWidth;
    return query.split(',').some((part) => {
      const min = /min-width:\s*([\d.]+)px/.exec(part);
      const max = /max-width:\s*([\d.]+)px/.exec(part);
      if (!min && !max) return false;
      return (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    });
  };
  window.matchMedia = (query: string) =>
    ({
      media: query,
      matches: matches(query),
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
