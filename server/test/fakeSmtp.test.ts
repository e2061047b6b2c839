import { startFakeSmtp, type FakeSmtp } from '../fakes/smtp';
import { smtpMailer } from '../src/providers/mailer';

let smtp: FakeSmtp;

beforeAll(async () => {
  smtp = await startFakeSmtp();
});

afterAll(async () => {
  await smtp.close();
});

test('the fake mail server receives what the real mailer sends, decoded, and lists it over HTTP', async () => {
  const link = `http://console.test/verify-email?token=${'A1b2C3-_'.repeat(12)}`;
  const mailer = smtpMailer(smtp.url, 'no-reply@console.test');
  await mailer.send({
    to: 'joão@example.com',
    subject: 'Confirme seu endereço de e-mail',
    text: `Olá João,\n\nAbra este link em até 24 horas:\n\n${link}\n\nObrigado.`,
  });
  expect(smtp.messages).toHaveLength(1);
  const [mail] = smtp.messages;
  expect(mail).toMatchObject({ from: 'no-reply@console.test', subject: 'Confirme seu endereço de e-mail' });
  expect(mail!.text).toContain(link);
  expect(mail!.text).toContain('Olá João');
  const listed = (await (await fetch(`${smtp.inboxUrl}/messages?to=${encodeURIComponent(mail!.to[0]!)}`)).json()) as unknown[];
  expect(listed).toHaveLength(1);
  await fetch(`${smtp.inboxUrl}/messages`, { method: 'DELETE' });
  expect(smtp.messages).toHaveLength(0);
});
