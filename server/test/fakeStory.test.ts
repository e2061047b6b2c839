import { createStoryResponder } from '../fakes/storyResponder';
import { titleKey } from '../src/pipeline/story';

// The multi-process scripts (test:workers, test:outage) run round after round of one process; a
// title the engine counts as repeated fails the run at once, and a round that ends at once left
// test:workers starting rounds forever. Every title the fake answers must be new as titleKey counts.
test.each([
  ['pt', 'Crie um título para a história em português.'],
  ['en', 'Write a title for the story in English.'],
])('the fake story responder answers 768 titles that the engine counts as different (%s)', async (_language, ask) => {
  const respond = createStoryResponder({ brief: true });
  const keys = new Set<string>();
  for (let i = 0; i < 768; i += 1) {
    const title = await respond({ model: 'gpt-test', messages: [{ role: 'user', content: ask }] });
    expect(title.length).toBeLessThan(60);
    keys.add(titleKey(title));
  }
  expect(keys.size).toBe(768);
});
