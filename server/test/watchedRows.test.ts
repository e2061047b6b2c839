import { WatchedRows } from '../src/lib/watchedRows';

type Row = { id: string; version: number };

function setup() {
  const store = new Map<string, Row>([['a', { id: 'a', version: 1 }]]);
  let loads = 0;
  let emit: (id: string) => void = () => undefined;
  const rows = new WatchedRows<Row>(async (id) => {
    loads += 1;
    const row = store.get(id);
    return row && { ...row };
  });
  const watch = async (onChange: (id: string) => void) => {
    emit = onChange;
    return async () => {
      emit = () => undefined;
    };
  };
  return { store, rows, watch, loads: () => loads, change: (id: string) => emit(id) };
}

test('reads go to the database until the feed is followed, then rows are kept until they change', async () => {
  const { store, rows, watch, loads, change } = setup();
  await rows.get('a');
  await rows.get('a');
  expect(loads()).toBe(2);
  const stop = await rows.follow(watch);
  expect(await rows.get('a')).toEqual({ id: 'a', version: 1 });
  expect(await rows.get('a')).toEqual({ id: 'a', version: 1 });
  expect(loads()).toBe(3);
  store.set('a', { id: 'a', version: 2 });
  change('a');
  expect(await rows.get('a')).toEqual({ id: 'a', version: 2 });
  expect(Object.isFrozen(await rows.get('a'))).toBe(true);
  await stop();
  expect(rows.size).toBe(0);
  await rows.get('a');
  expect(loads()).toBe(5);
});

test('a row loaded while a change came in is answered but not kept', async () => {
  const { store, rows, watch, change } = setup();
  await rows.follow(watch);
  const reading = rows.get('a');
  store.set('a', { id: 'a', version: 2 });
  change('a');
  expect(await reading).toEqual({ id: 'a', version: 1 });
  expect(await rows.get('a')).toEqual({ id: 'a', version: 2 });
});

test('a missing row is not kept', async () => {
  const { store, rows, watch } = setup();
  await rows.follow(watch);
  expect(await rows.get('b')).toBeUndefined();
  store.set('b', { id: 'b', version: 1 });
  expect(await rows.get('b')).toEqual({ id: 'b', version: 1 });
});
