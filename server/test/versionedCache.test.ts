import { VersionedCache } from '../src/lib/versionedCache';

test('a value is reused for its key and version only, and the least recently used goes first', async () => {
  const cache = new VersionedCache<string>(2);
  let made = 0;
  const make = (value: string) => async () => {
    made += 1;
    return value;
  };
  expect(await cache.get('a', '1', make('a1'))).toBe('a1');
  expect(await cache.get('a', '1', make('unused'))).toBe('a1');
  expect(await cache.get('a', '2', make('a2'))).toBe('a2');
  expect(made).toBe(2);
  await cache.get('b', '1', make('b1'));
  await cache.get('a', '2', make('unused')); // a is now the most recent
  await cache.get('c', '1', make('c1')); // b goes
  expect(cache.size).toBe(2);
  expect(await cache.get('a', '2', make('unused'))).toBe('a2');
  expect(await cache.get('b', '1', make('b1 again'))).toBe('b1 again');
});

test('a failure to make a value keeps nothing', async () => {
  const cache = new VersionedCache<string>();
  await expect(cache.get('a', '1', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
  expect(cache.size).toBe(0);
});
