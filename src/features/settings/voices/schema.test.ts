import { voiceFixture } from '../../../testing';
import { formValuesOf, isSampleUrl, voiceBody, voiceSchema } from './schema';

describe('voice sample URL', () => {
  it.each([
    'https://cdn.example.com/voices/nova.mp3',
    'http://localhost:3001/sample.wav',
    '/api/v1/voice-samples/vo-1.wav',
    '/api/v1/voice-samples/{id}.wav',
  ])('accepts %s', (url) => {
    expect(isSampleUrl(url)).toBe(true);
  });

  it.each([
    '',
    'cdn.example.com/a.mp3',
    'ftp://example.com/a.wav',
    '//evil.example.com/a.wav',
    '/a b.wav',
    'https://',
    'not a url',
  ])('refuses %s', (url) => {
    expect(isSampleUrl(url)).toBe(false);
  });

  it('reports the spec’s required fields and a bad URL with the sampleUrl message', async () => {
    const values = formValuesOf();
    await expect(voiceSchema.validate(values)).rejects.toThrow('validation.fillAllFields');
    await expect(voiceSchema.validate({ ...values, name: 'A', type: 'B', sample_url: 'example.com/a.wav' })).rejects.toThrow(
      'validation.sampleUrl',
    );
    await expect(voiceSchema.validate({ ...values, name: 'A', type: 'B', sample_url: '/a.wav' })).resolves.toBeTruthy();
  });
});

describe('voice form', () => {
  it('starts a new voice with espeak and no language or gender', () => {
    expect(formValuesOf()).toMatchObject({ provider: 'espeak', language: '', gender: '' });
  });

  it('sends every field, none as null, trimmed', () => {
    const values = { ...formValuesOf(voiceFixture()), name: ' Ana ', language: '' as const, gender: '' as const };
    expect(voiceBody(values)).toEqual({
      name: 'Ana',
      type: 'Narrador',
      sample_url: '/api/v1/voice-samples/vo-1.wav',
      description: 'A warm Brazilian narrator.',
      language: null,
      gender: null,
      provider: 'espeak',
      provider_voice_id: 'pt-br+f3',
    });
  });
});
