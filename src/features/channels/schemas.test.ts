import { ValidationError } from 'yup';
import { channelLabel, channelSchema, createBody, toMinViews, updateBody } from './schemas';

async function failures(editing: boolean, value: unknown): Promise<Record<string, string>> {
  try {
    await channelSchema(editing).validate(value, { abortEarly: false });
    return {};
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return Object.fromEntries(error.inner.map((inner) => [inner.path ?? '', inner.message]));
  }
}

describe('channel form', () => {
  it('requires the channel id only when creating', async () => {
    expect(await failures(false, { channel_id: '  ', name: '', min_views: '' })).toEqual({
      channel_id: 'validation.fillAllFields',
    });
    expect(await failures(true, { channel_id: '', name: '', min_views: '' })).toEqual({});
  });

  it('turns blank or invalid minimum views into 0 and never a negative', () => {
    expect(toMinViews('')).toBe(0);
    expect(toMinViews('  ')).toBe(0);
    expect(toMinViews('abc')).toBe(0);
    expect(toMinViews('-5')).toBe(0);
    expect(toMinViews('2.5')).toBe(0);
    expect(toMinViews(undefined)).toBe(0);
    expect(toMinViews('1500')).toBe(1500);
    expect(toMinViews(' 42 ')).toBe(42);
    expect(toMinViews(7)).toBe(7);
  });

  it('builds the create body without a blank name, and the update body without the channel id', () => {
    expect(createBody({ channel_id: ' UC123 ', name: '  ', min_views: '' })).toEqual({ channel_id: 'UC123', min_views: 0 });
    expect(createBody({ channel_id: 'UC123', name: ' Main ', min_views: '10' })).toEqual({
      channel_id: 'UC123',
      name: 'Main',
      min_views: 10,
    });
    expect(updateBody({ channel_id: 'UC123', name: '', min_views: '3' })).toEqual({ name: null, min_views: 3 });
  });

  it('names a channel by its channel id when it has no name', () => {
    expect(channelLabel({ name: null, channel_id: 'UC123' })).toBe('UC123');
    expect(channelLabel({ name: ' ', channel_id: 'UC123' })).toBe('UC123');
    expect(channelLabel({ name: 'Main', channel_id: 'UC123' })).toBe('Main');
  });
});
