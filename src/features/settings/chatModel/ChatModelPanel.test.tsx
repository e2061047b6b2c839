import { screen, waitFor, within } from '@testing-library/react';
import { chatModelConfigFixture, reply } from '../../../testing';
import { renderSettings } from '../testing';

// Full screens on a busy 2-core machine: generous time per test.
jest.setTimeout(90_000);

const notFound = reply(404, { detail: 'No ChatGPT configuration' });

function status() {
  return screen.getByRole('region', { name: 'Status' });
}

describe('ChatGPT API panel', () => {
  it('without a configuration: not configured, a masked sk- field, buttons off until a key is typed', async () => {
    const { user } = renderSettings('chat-model', { 'GET /chatgpt/config': notFound });

    const key = await screen.findByLabelText(/^API key/);
    expect(key).toHaveAttribute('type', 'password');
    expect(key.getAttribute('placeholder')).toMatch(/^sk-/);
    expect(within(status()).getByText('Not configured')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    const test = screen.getByRole('button', { name: 'Test connection' });
    const save = screen.getByRole('button', { name: 'Save' });
    expect(test).toBeDisabled();
    expect(save).toBeDisabled();

    await user.type(key, '   ');
    expect(test).toBeDisabled();
    expect(save).toBeDisabled();

    await user.type(key, 'sk-test-123');
    expect(test).toBeEnabled();
    expect(save).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Show API key' }));
    expect(key).toHaveAttribute('type', 'text');

    const usage = screen.getByRole('region', { name: 'What the key is used for' });
    expect(
      within(usage)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Content generation', 'Script creation', 'Title optimization', 'Description writing']);
  });

  it('asks for the key when the field is left blank', async () => {
    const { user } = renderSettings('chat-model', { 'GET /chatgpt/config': notFound }, { language: 'pt' });

    const key = await screen.findByLabelText(/^Chave da API/);
    await user.type(key, 'x');
    await user.clear(key);
    await user.tab();

    expect(await screen.findByRole('alert')).toHaveTextContent('Por favor, informe sua chave da API do ChatGPT');
    expect(screen.getAllByText('Por favor, informe sua chave da API do ChatGPT')).toHaveLength(1);
    expect(key).toHaveAttribute('aria-invalid', 'true');
  });

  it('saves a new key, then offers update and delete', async () => {
    let config: ReturnType<typeof chatModelConfigFixture> | null = null;
    const saved = chatModelConfigFixture({ is_connected: false, last_tested: null });
    const { user, server } = renderSettings('chat-model', {
      'GET /chatgpt/config': () => (config ? reply(200, config) : notFound),
      'POST /chatgpt/config': () => {
        config = saved;
        return reply(201, saved);
      },
    });

    await user.type(await screen.findByLabelText(/^API key/), ' sk-new-key ');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByRole('status')).toHaveTextContent('ChatGPT API Key saved');
    expect(server.calls('POST /chatgpt/config')[0].body).toEqual({ api_key: 'sk-new-key' });
    expect(await screen.findByRole('button', { name: 'Update' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^API key/)).toHaveValue('');
    expect(screen.getByText('Stored key: ••••••••wxyz. Leave blank to keep it.')).toBeInTheDocument();
    expect(within(status()).getByText('Not tested')).toBeInTheDocument();
    expect(within(status()).getByText('Never tested')).toBeInTheDocument();
  });

  it('shows the server’s message, else the generic one, when saving fails', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user, server } = renderSettings('chat-model', {
      'GET /chatgpt/config': notFound,
      'POST /chatgpt/config': reply(422, { detail: 'The API key looks malformed' }),
    });

    await user.type(await screen.findByLabelText(/^API key/), 'sk-bad');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The API key looks malformed');

    server.on({ 'POST /chatgpt/config': reply(500, {}) });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to save ChatGPT API Key'));
    log.mockRestore();
  });

  it.each<[Partial<ReturnType<typeof chatModelConfigFixture>>, string]>([
    [{ is_connected: true }, 'Connected'],
    [{ is_connected: false }, 'Disconnected'],
    [{ is_connected: false, last_tested: null }, 'Not tested'],
  ])('shows the status of a configuration %o as %s', async (overrides, label) => {
    renderSettings('chat-model', { 'GET /chatgpt/config': reply(200, chatModelConfigFixture(overrides)) });

    expect(await within(await screen.findByRole('region', { name: 'Status' })).findByText(label)).toBeInTheDocument();
    expect(within(status()).getByText(overrides.last_tested === null ? 'Never tested' : /^Last tested /)).toBeInTheDocument();
    expect(within(status()).getByText('Model: gpt-4o-mini')).toBeInTheDocument();
  });

  it('tests the stored key when the field is blank; a successful test reloads the config', async () => {
    let config = chatModelConfigFixture({ is_connected: false, last_tested: null });
    const { user, server } = renderSettings('chat-model', {
      'GET /chatgpt/config': () => reply(200, config),
      'POST /chatgpt/test': () => {
        config = chatModelConfigFixture({ is_connected: true, last_tested: '2025-03-08T10:00:00.000Z' });
        return reply(200, { is_connected: true, last_tested: '2025-03-08T10:00:00.000Z', detail: null });
      },
    });

    const update = await screen.findByRole('button', { name: 'Update' });
    expect(update).toBeDisabled(); // nothing to change yet
    await user.click(screen.getByRole('button', { name: 'Test connection' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Connected to ChatGPT successfully');
    expect(server.calls('POST /chatgpt/test')[0].body).toEqual({});
    expect(await within(status()).findByText('Connected')).toBeInTheDocument();
    expect(server.calls('GET /chatgpt/config')).toHaveLength(2);
  });

  it('reports a failed connection', async () => {
    const { user, server } = renderSettings('chat-model', {
      'GET /chatgpt/config': notFound,
      'POST /chatgpt/test': reply(200, {
        is_connected: false,
        last_tested: '2025-03-08T10:00:00.000Z',
        detail: 'Incorrect API key',
      }),
    });

    await user.type(await screen.findByLabelText(/^API key/), 'sk-wrong');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to connect to ChatGPT. Please check your API Key.');
    expect(server.calls('POST /chatgpt/test')[0].body).toEqual({ api_key: 'sk-wrong' });
    // A failed test of another key changed nothing on the server: no reload.
    expect(server.calls('GET /chatgpt/config')).toHaveLength(1);
  });

  it('updates the base URL and model with the stored key kept', async () => {
    const config = chatModelConfigFixture();
    const { user, server } = renderSettings('chat-model', {
      'GET /chatgpt/config': reply(200, config),
      'PUT /chatgpt/config': reply(200, { ...config, base_url: 'http://llm.local:8000/v1', model: 'llama3' }),
    });

    await user.click(await screen.findByRole('button', { name: 'Advanced' }));
    await user.type(screen.getByLabelText('Base URL'), 'http://llm.local:8000/v1');
    const model = screen.getByLabelText('Model');
    await user.clear(model);
    await user.type(model, 'llama3');
    await user.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByRole('status')).toHaveTextContent('ChatGPT configuration updated');
    expect(server.calls('PUT /chatgpt/config')[0].body).toEqual({ base_url: 'http://llm.local:8000/v1', model: 'llama3' });
  });

  it('points speech and images at other OpenAI-compatible servers, and clears one back to the chat API', async () => {
    const config = chatModelConfigFixture({ image_base_url: 'http://images.local:8080/v1', image_model: 'sdxl' });
    const { user, server } = renderSettings('chat-model', {
      'GET /chatgpt/config': reply(200, config),
      'PUT /chatgpt/config': reply(200, {
        ...config,
        speech_base_url: 'http://kokoro.local:8880/v1',
        speech_model: 'kokoro',
        image_base_url: null,
      }),
    });

    // Open already: a server is set.
    const imageUrl = await screen.findByLabelText('Image server URL');
    expect(imageUrl).toHaveValue('http://images.local:8080/v1');
    const speechUrl = screen.getByLabelText('Speech server URL');
    await user.type(speechUrl, 'kokoro.local');
    await user.tab();
    expect(await screen.findByText('Enter an http:// or https:// address, or leave it empty')).toBeInTheDocument();
    await user.clear(speechUrl);
    await user.type(speechUrl, 'http://kokoro.local:8880/v1');
    await user.type(screen.getByLabelText('Speech model'), 'kokoro');
    await user.clear(imageUrl);
    await user.click(screen.getByRole('button', { name: 'Update' }));

    expect(await screen.findByRole('status')).toHaveTextContent('ChatGPT configuration updated');
    expect(server.calls('PUT /chatgpt/config')[0].body).toEqual({
      speech_base_url: 'http://kokoro.local:8880/v1',
      speech_model: 'kokoro',
      image_base_url: null,
    });
  });

  it('names the speech and image servers in Portuguese', async () => {
    const { user } = renderSettings(
      'chat-model',
      { 'GET /chatgpt/config': reply(200, chatModelConfigFixture()) },
      { language: 'pt' },
    );
    await user.click(await screen.findByRole('button', { name: 'Servidores de voz e de imagem' }));
    expect(screen.getByLabelText('URL do servidor de voz')).toBeInTheDocument();
    expect(screen.getByLabelText('Modelo de imagem')).toBeInTheDocument();
  });

  it('deletes the configuration after a confirmation, back to not configured', async () => {
    let config: ReturnType<typeof chatModelConfigFixture> | null = chatModelConfigFixture();
    const { user, server } = renderSettings('chat-model', {
      'GET /chatgpt/config': () => (config ? reply(200, config) : notFound),
      'DELETE /chatgpt/config': () => {
        config = null;
        return reply(204);
      },
    });

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the ChatGPT API key?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('ChatGPT configuration deleted')).toBeInTheDocument();
    expect(server.calls('DELETE /chatgpt/config')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(within(status()).getByText('Not configured')).toBeInTheDocument());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('reports a failed deletion with the spec’s message', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderSettings(
      'chat-model',
      { 'GET /chatgpt/config': reply(200, chatModelConfigFixture()), 'DELETE /chatgpt/config': reply(500, {}) },
      { language: 'pt' },
    );

    await user.click(await screen.findByRole('button', { name: 'Excluir' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao excluir configuração');
    log.mockRestore();
  });

  it('treats a load failure as not configured, logged, with a retry', async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderSettings('chat-model', { 'GET /chatgpt/config': reply(500, {}) });

    expect(await screen.findByText(/Your ChatGPT configuration could not be loaded/)).toBeInTheDocument();
    expect(within(status()).getByText('Not configured')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(log).toHaveBeenCalled();
    log.mockRestore();
  });

  it('asks for the key again when the stored one can no longer be read, in Portuguese too', async () => {
    const unreadable = chatModelConfigFixture({ has_api_key: false, api_key_masked: '', secret_unreadable: true });
    const { user, server } = renderSettings(
      'chat-model',
      {
        'GET /chatgpt/config': reply(200, unreadable),
        'PUT /chatgpt/config': reply(200, chatModelConfigFixture()),
      },
      { language: 'pt' },
    );

    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent(
      'A chave da API armazenada não pode mais ser lida (o segredo do servidor mudou). Informe a chave novamente e salve.',
    );
    const key = screen.getByLabelText(/^Chave da API/);
    expect(key).toBeRequired();
    expect(screen.getByText('Digite a chave novamente: a armazenada não pode mais ser lida.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Atualizar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Testar conexão' })).toBeDisabled();

    await user.type(key, 'sk-again');
    await user.click(screen.getByRole('button', { name: 'Atualizar' }));

    await waitFor(() => expect(server.calls('PUT /chatgpt/config')).toHaveLength(1));
    expect(server.calls('PUT /chatgpt/config')[0]!.body).toEqual({ api_key: 'sk-again' });
  });

  it('says nothing about an unreadable key when the stored one reads fine', async () => {
    renderSettings('chat-model', { 'GET /chatgpt/config': reply(200, chatModelConfigFixture()) });

    expect(await screen.findByText('Stored key: ••••••••wxyz. Leave blank to keep it.')).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
