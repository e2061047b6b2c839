import { describeError } from '../src/services/errorText';
import { PROCESS_NEEDS } from '../src/contracts/processes';
import { describeNeeds } from '../src/services/processNeeds';
import { translate } from '../src/messages';

/** What a process lacks, in the reader's words: one table for the process service and for stored run errors. */
describe('process needs', () => {
  it('puts a stored "cannot run yet" error in the reader language, the process language named in it', () => {
    const params = { needs: 'voice,language', language: 'en' };
    expect(describeError('pipeline.needs', params, 'the process needs: voice, language', 'en')).toBe(
      'This process cannot run yet: choose a voice; choose a language the prompt has texts in (it has none in English)',
    );
    expect(describeError('pipeline.needs', params, null, 'pt')).toBe(
      'Este processo ainda não pode ser executado: escolha uma voz; escolha um idioma em que o prompt tenha textos (ele não tem textos em inglês)',
    );
  });

  it('keeps a need it does not know as it was stored, and names Portuguese when the language is missing', () => {
    expect(describeError('pipeline.needs', { needs: 'voice,constructor,teleporter' }, null, 'en')).toBe(
      'This process cannot run yet: choose a voice; constructor; teleporter',
    );
    expect(describeError('pipeline.needs', { needs: 'language' }, null, 'en')).toContain('(it has none in Portuguese)');
  });

  it('has a text in both languages for every need', () => {
    for (const into of ['en', 'pt'] as const) {
      for (const need of PROCESS_NEEDS) {
        const text = describeNeeds([need], into, 'X');
        expect(text).not.toBe(need);
        expect(text).not.toContain('processes.need');
      }
    }
    expect(describeNeeds(['prompt', 'voice'], 'en', 'English')).toBe(
      [translate('en', 'processes.need.prompt'), translate('en', 'processes.need.voice')].join('; '),
    );
  });
});
