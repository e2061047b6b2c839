import { promptFixture, promptTexts } from '../../testing';
import { formValuesOf, fullBody, newPromptValues, promptSchema } from './schema';

describe('prompt form', () => {
  it('starts a new prompt with pt and en and the default category', () => {
    const values = newPromptValues();
    expect(values.category).toBe('drama_psicologico');
    expect(values.languages.map((entry) => entry.code)).toEqual(['pt', 'en']);
    expect(Object.values(values.languages[0].texts).every((text) => text === '')).toBe(true);
  });

  it('loads the languages in the answer’s order and keeps the category', () => {
    const { values, basicOnly } = formValuesOf(promptFixture({ languages: { es: promptTexts('ES'), pt: promptTexts('PT') } }));
    expect(basicOnly).toBe(false);
    expect(values.category).toBe('suspense');
    expect(values.languages.map((entry) => entry.code)).toEqual(['es', 'pt']);
  });

  it('gives basic data pt and en, empty, and resets the category (spec §4)', () => {
    const { values, basicOnly } = formValuesOf(promptFixture({ category: 'terror', languages: {} }));
    expect(basicOnly).toBe(true);
    expect(values.category).toBe('drama_psicologico');
    expect(values.languages.map((entry) => entry.code)).toEqual(['pt', 'en']);
  });

  it('requires name, category, description and content, and at least one language', async () => {
    const values = newPromptValues();
    await expect(promptSchema.validate(values)).rejects.toThrow('validation.fillAllFields');
    const filled = { ...values, name: 'N', description: 'D', content: 'C' };
    await expect(promptSchema.validate(filled)).resolves.toBeTruthy();
    await expect(promptSchema.validate({ ...filled, category: '' })).rejects.toThrow('validation.fillAllFields');
    await expect(promptSchema.validate({ ...filled, languages: [] })).rejects.toThrow();
  });

  it('sends the languages as a map with the six texts, and trims the basic fields', () => {
    const values = { ...newPromptValues(), name: ' N ', description: ' D ', content: ' C ' };
    expect(fullBody(values)).toEqual({
      name: 'N',
      category: 'drama_psicologico',
      description: 'D',
      content: 'C',
      languages: {
        pt: { title: '', premise: '', narrative_prompt: '', chapter_1: '', next_chapters: '', final_chapter: '' },
        en: { title: '', premise: '', narrative_prompt: '', chapter_1: '', next_chapters: '', final_chapter: '' },
      },
    });
  });
});
