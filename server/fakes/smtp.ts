import http from 'node:http';
import net from 'node:net';

/**
 * A fake mail server for tests and `npm run fakes`: it speaks enough SMTP for nodemailer (EHLO,
 * AUTH PLAIN/LOGIN accepting anything, MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS) and keeps every
 * message. An HTTP port lists them as JSON (`GET /messages`, `?to=` filters, `DELETE /messages`
 * empties), so a browser test can follow the link of a confirmation email.
 */

export interface FakeMail {
  from: string;
  to: string[];
  subject: string;
  /** The text body, decoded (quoted-printable or base64). */
  text: string;
  receivedAt: string;
}

export interface FakeSmtp {
  /** smtp://127.0.0.1:port, for SMTP_URL. */
  url: string;
  port: number;
  /** http://127.0.0.1:port of the inbox. */
  inboxUrl: string;
  messages: FakeMail[];
  close(): Promise<void>;
}

/** Decodes a header's RFC 2047 encoded words (=?utf-8?Q?...?= and =?utf-8?B?...?=). */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_whole, _charset: string, encoding: string, text: string) => {
    if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
    const bytes = text
      .replace(/_/g, ' ')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  });
}

/** The headers (unfolded) and body of a message. */
function parseMessage(raw: string): { headers: Map<string, string>; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** A body in its transfer encoding, as text. */
function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '7bit').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind === 'quoted-printable') {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The text part of a message (the first text/plain one of a multipart message). */
function textOf(raw: string): { headers: Map<string, string>; text: string } {
  const { headers, body } = parseMessage(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (boundary && /^multipart\//i.test(type)) {
    for (const part of body.split(`--${boundary}`)) {
      const parsed = parseMessage(part.replace(/^\r\n/, ''));
      if (/^text\/plain/i.test(parsed.headers.get('content-type') ?? 'text/plain') && parsed.body.trim()) {
        return { headers, text: decodeBody(parsed.body, parsed.headers.get('content-transfer-encoding')) };
      }
    }
  }
  return { headers, text: decodeBody(body, headers.get('content-transfer-encoding')) };
}

export async function startFakeSmtp(options: { port?: number; inboxPort?: number } = {}): Promise<FakeSmtp> {
  const messages: FakeMail[] = [];
  const sockets = new Set<net.Socket>();

  const smtp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('latin1');
    let buffer = '';
    let inData = false;
    let data = '';
    let from = '';
    let to: string[] = [];
    let authStep: 'user' | 'pass' | null = null;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ready');

    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          const raw = Buffer.from(data.replace(/\r\n\.\./g, '\r\n.'), 'latin1').toString('latin1');
          const { headers, text } = textOf(raw);
          messages.push({
            from,
            to,
            subject: decodeWords(headers.get('subject') ?? ''),
            text,
            receivedAt: new Date().toISOString(),
          });
          data = '';
          reply('250 queued');
          continue;
        }
        const newline = buffer.indexOf('\r\n');
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        if (authStep) {
          authStep = authStep === 'user' ? 'pass' : null;
          reply(authStep ? '334 UGFzc3dvcmQ6' : '235 authenticated');
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-fake-smtp\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO') reply('250 fake-smtp');
        else if (verb === 'AUTH') {
          if (/^AUTH LOGIN/i.test(line)) {
            authStep = 'user';
            reply('334 VXNlcm5hbWU6');
          } else reply('235 authenticated');
        } else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          to = [];
          reply('250 ok');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'RSET') {
          from = '';
          to = [];
          reply('250 ok');
        } else if (verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
          return;
        } else reply('502 not implemented');
      }
    });
  });

  const inbox = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (url.pathname !== '/messages') {
      response.writeHead(404).end();
      return;
    }
    if (request.method === 'DELETE') {
      messages.length = 0;
      response.writeHead(204).end();
      return;
    }
    const to = url.searchParams.get('to')?.toLowerCase();
    const list = to ? messages.filter((message) => message.to.some((address) => address.toLowerCase() === to)) : messages;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
  });

  await new Promise<void>((resolve) => smtp.listen(options.port ?? 0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => inbox.listen(options.inboxPort ?? 0, '127.0.0.1', resolve));
  const port = (smtp.address() as net.AddressInfo).port;
  const inboxPort = (inbox.address() as net.AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    inboxUrl: `http://127.0.0.1:${inboxPort}`,
    messages,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => smtp.close(() => resolve())),
        new Promise<void>((resolve) => inbox.close(() => resolve())),
      ]);
    },
  };
}
