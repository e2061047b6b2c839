import { screen, waitFor, within } from '@testing-library/react';
import type { NotificationSettings, NotificationSettingsUpdate } from '../../../api';
import { deferred, never, reply } from '../../../testing';
import { renderSettings } from '../testing';

// Full screens on a busy 2-core machine: generous time per test.
jest.setTimeout(90_000);

const defaults: NotificationSettings = {
  run_failed: true,
  authorization: true,
  quota: true,
  review: true,
  webhook_url: null,
  has_webhook_secret: false,
  webhook_secret_masked: '',
};

const withWebhook: NotificationSettings = {
  ...defaults,
  quota: false,
  webhook_url: 'https://hooks.example.com/alerts',
  has_webhook_secret: true,
  webhook_secret_masked: '••••••••cret',
};

/** A server that keeps what PUT /notifications/ sends, as the real one does. */
function statefulServer(initial: NotificationSettings) {
  let settings = initial;
  return {
    'GET /notifications/': () => reply(200, settings),
    'PUT /notifications/': (request: { body: unknown }) => {
      const body = request.body as NotificationSettingsUpdate;
      const { webhook_secret: secret, ...rest } = body;
      settings = { ...settings, ...rest };
      if (secret !== undefined)
        settings = {
          ...settings,
          has_webhook_secret: secret !== null,
          webhook_secret_masked: secret ? `••••••••${secret.slice(-4)}` : '',
        };
      return reply(200, settings);
    },
  };
}

function save() {
  return screen.getByRole('button', { name: 'Save notifications' });
}

function testButton() {
  return screen.getByRole('button', { name: 'Send a test' });
}

describe('Notifications panel', () => {
  it('is in the settings menu, with a loading state', async () => {
    renderSettings('notifications', { 'GET /notifications/': never() });

    expect(await screen.findByRole('heading', { level: 2, name: 'Notifications' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Notifications' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('status', { name: 'Loading…' })).toBeInTheDocument();
  });

  it('says when the settings could not be loaded, and tries again', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let down = true;
    const { user } = renderSettings('notifications', {
      'GET /notifications/': () => (down ? reply(503, { detail: 'The service is starting' }) : reply(200, defaults)),
    });

    expect(
      await screen.findByText('Your notification settings could not be loaded. The service is starting'),
    ).toBeInTheDocument();
    down = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('switch', { name: 'A run failed' })).toBeChecked();
    log.mockRestore();
  });

  it('shows each cause as a switch with its explanation, and an empty webhook that cannot be tested', async () => {
    renderSettings('notifications', { 'GET /notifications/': reply(200, withWebhook) });

    const causes = await screen.findByRole('region', { name: 'Alerts' });
    expect(within(causes).getAllByRole('switch')).toHaveLength(4);
    expect(within(causes).getByRole('switch', { name: 'A run failed' })).toBeChecked();
    expect(within(causes).getByRole('switch', { name: 'YouTube authorization lost' })).toBeChecked();
    expect(within(causes).getByRole('switch', { name: 'YouTube quota used up' })).not.toBeChecked();
    expect(within(causes).getByRole('switch', { name: 'A video awaits review' })).toBeChecked();
    expect(within(causes).getByRole('switch', { name: 'A run failed' })).toHaveAccessibleDescription(
      'A run of one of your processes stopped with an error.',
    );

    expect(screen.getByLabelText(/^Webhook URL/)).toHaveValue('https://hooks.example.com/alerts');
    const secret = screen.getByLabelText(/^Signing secret/);
    expect(secret).toHaveValue('');
    expect(secret).toHaveAttribute('type', 'password');
    expect(secret).toHaveAttribute('placeholder', '••••••••cret');
    expect(screen.getByText(/^Stored secret: ••••••••cret\./)).toBeInTheDocument();
    expect(save()).toBeDisabled(); // nothing changed yet
    expect(testButton()).toBeEnabled();
    expect(screen.getByText('The test message goes to the saved address: https://hooks.example.com/alerts')).toBeInTheDocument();
  });

  it('offers no test without a saved webhook', async () => {
    renderSettings('notifications', { 'GET /notifications/': reply(200, defaults) });

    await screen.findByLabelText(/^Webhook URL/);
    expect(testButton()).toBeDisabled();
    expect(screen.getByText('Save a webhook address to send a test.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Remove the stored signing secret')).not.toBeInTheDocument();
  });

  it('saves only what changed, then can test the new webhook', async () => {
    const { user, server } = renderSettings('notifications', {
      ...statefulServer(defaults),
      'POST /notifications/test': reply(200, { delivered: true, detail: 'The test message was delivered.' }),
    });

    await user.click(await screen.findByRole('switch', { name: 'YouTube quota used up' }));
    await user.type(screen.getByLabelText(/^Webhook URL/), ' https://hooks.example.com/new ');
    await user.type(screen.getByLabelText(/^Signing secret/), 'my-secret');
    await user.click(save());

    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(server.calls('PUT /notifications/')[0]!.body).toEqual({
      quota: false,
      webhook_url: 'https://hooks.example.com/new',
      webhook_secret: 'my-secret',
    });
    expect(await screen.findByText(/^Stored secret: ••••••••cret\./)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Signing secret/)).toHaveValue('');

    await waitFor(() => expect(testButton()).toBeEnabled());
    await user.click(testButton());
    expect(await screen.findByText('The test message was delivered.')).toBeInTheDocument();
    expect(server.calls('POST /notifications/test')).toHaveLength(1);
  });

  it('removes the webhook with an empty address, and the secret with its checkbox', async () => {
    const { user, server } = renderSettings('notifications', statefulServer(withWebhook));

    await user.clear(await screen.findByLabelText(/^Webhook URL/));
    await user.click(screen.getByRole('checkbox', { name: 'Remove the stored signing secret' }));
    expect(screen.getByLabelText(/^Signing secret/)).toBeDisabled();
    await user.click(save());

    expect(await screen.findByText('Notification settings saved')).toBeInTheDocument();
    expect(server.calls('PUT /notifications/')[0]!.body).toEqual({ webhook_url: null, webhook_secret: null });
    await waitFor(() => expect(testButton()).toBeDisabled());
    expect(screen.queryByRole('checkbox', { name: 'Remove the stored signing secret' })).not.toBeInTheDocument();
  });

  it('checks the address and the secret before sending anything', async () => {
    const { user, server } = renderSettings('notifications', { 'GET /notifications/': reply(200, defaults) });

    await user.type(await screen.findByLabelText(/^Webhook URL/), 'ftp://files.example.com');
    await user.type(screen.getByLabelText(/^Signing secret/), 'has spaces');
    await user.click(save());

    expect(
      await screen.findByText('Enter an http:// or https:// address without a user name or password, or leave it empty'),
    ).toBeInTheDocument();
    expect(screen.getByText('Use printable characters without spaces (at most 200)')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Webhook URL/)).toHaveAttribute('aria-invalid', 'true');

    const url = screen.getByLabelText(/^Webhook URL/);
    await user.clear(url);
    await user.type(url, 'https://user:pass@hooks.example.com');
    await user.click(save());
    expect(screen.getByLabelText(/^Webhook URL/)).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls('PUT /notifications/')).toHaveLength(0);
  });

  it('shows the server’s refusal in the form', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderSettings('notifications', {
      'GET /notifications/': reply(200, defaults),
      'PUT /notifications/': reply(422, {
        detail: 'The webhook must be an http:// or https:// address without a user name or password',
      }),
    });

    await user.type(await screen.findByLabelText(/^Webhook URL/), 'https://hooks.example.com/x');
    await user.click(save());

    const form = screen.getByLabelText(/^Webhook URL/).closest('form')!;
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'The webhook must be an http:// or https:// address without a user name or password',
    );
    log.mockRestore();
  });

  it('says when the test message was not delivered, and shows a refused test', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = deferred();
    const { user, server } = renderSettings('notifications', {
      'GET /notifications/': reply(200, withWebhook),
      'POST /notifications/test': answer.handler,
    });

    await user.click(await screen.findByRole('button', { name: 'Send a test' }));
    expect(await screen.findByRole('button', { name: 'Sending…' })).toBeDisabled();
    answer.resolve(reply(200, { delivered: false, detail: 'The test message was not delivered (HTTP 404).' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The test message was not delivered (HTTP 404).');

    server.on({ 'POST /notifications/test': reply(429, { detail: 'Too many tests. Try again in a minute.' }) });
    await user.click(testButton());
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many tests. Try again in a minute.'));
    log.mockRestore();
  });

  it('speaks Portuguese', async () => {
    renderSettings('notifications', { 'GET /notifications/': reply(200, defaults) }, { language: 'pt' });

    expect(await screen.findByRole('heading', { level: 2, name: 'Notificações' })).toBeInTheDocument();
    expect(await screen.findByRole('switch', { name: 'Uma execução falhou' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Um vídeo aguarda revisão' })).toBeChecked();
    expect(screen.getByLabelText(/^URL do webhook/)).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Enviar um teste' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Salvar notificações' })).toBeDisabled();
  });
});
