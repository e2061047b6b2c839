import { VersionedCache, stringBytes } from '../src/lib/versionedCache';

const make = (value: string) => async () => value;

test('a value is reused for its key and version only, and the least recently used goes first', async () => {
  // Room for two entries of a one-letter key (2 bytes) and a two-letter value (4 bytes).
  const cache = new VersionedCache<string>({ maxBytes: 12, sizeOf: stringBytes });
  let made = 0;
  const counted = (value: string) => async () => {
    made += 1;
    return value;
  };
  expect(await cache.get('a', '1', counted('a1'))).toBe('a1');
  expect(await cache.get('a', '1', counted('unused'))).toBe('a1');
  expect(await cache.get('a', '2', counted('a2'))).toBe('a2');
  expect(made).toBe(2);
  await cache.get('b', '1', make('b1'));
  await cache.get('a', '2', make('unused')); // a is now the most recent
  await cache.get('c', '1', make('c1')); // b goes
  expect(cache.size).toBe(2);
  expect(cache.bytes).toBe(12);
  expect(await cache.get('a', '2', make('unused'))).toBe('a2');
  expect(await cache.get('b', '1', make('b1 again'))).toBe('b1 again');
});

test('the budget is in bytes: one large value pushes out many small ones, one too large is not kept', async () => {
  const cache = new VersionedCache<string>({ maxBytes: 1000, sizeOf: stringBytes });
  for (let i = 0; i < 40; i += 1) await cache.get(`k${i}`, '1', make('x'.repeat(5)));
  expect(cache.bytes).toBeLessThanOrEqual(1000);
  const before = cache.size;
  await cache.get('big', '1', make('y'.repeat(300)));
  expect(cache.size).toBeLessThan(before);
  expect(cache.bytes).toBeLessThanOrEqual(1000);

  expect(await cache.get('huge', '1', make('z'.repeat(600)))).toBe('z'.repeat(600));
  expect(cache.bytes).toBeLessThanOrEqual(1000);
  let remade = false;
  await cache.get('huge', '1', async () => {
    remade = true;
    return 'z';
  });
  expect(remade).toBe(true);
});

test('whatever is asked, the kept bytes never pass the budget (random keys, versions and sizes)', async () => {
  const cache = new VersionedCache<string>({ maxBytes: 5000, sizeOf: stringBytes });
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < 2000; i += 1) {
    const value = 'v'.repeat(random(1200));
    await cache.get(`key-${random(50)}`, String(random(3)), make(value));
    expect(cache.bytes).toBeLessThanOrEqual(5000);
  }
});

test('a failure to make a value keeps nothing', async () => {
  const cache = new VersionedCache<string>({ maxBytes: 1000, sizeOf: stringBytes });
  await expect(cache.get('a', '1', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
  expect(cache.size).toBe(0);
});
