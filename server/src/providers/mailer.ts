import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends email: by SMTP when SMTP_URL is set, otherwise into the server log. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

interface Logger {
  info(obj: object, msg: string): void;
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

export function logMailer(logger: Logger): Mailer {
  return {
    async send(mail) {
      logger.info(
        { mail: { to: mail.to, subject: mail.subject } },
        `Email (SMTP_URL is not set, so it is logged instead):\n${mail.text}`,
      );
    },
  };
}

/** The mailer of a process (API or worker): SMTP when SMTP_URL is set, else the log. */
export function mailerFor(config: { smtpUrl: string | undefined; publicUrl: string }, logger: Logger): Mailer {
  return config.smtpUrl ? smtpMailer(config.smtpUrl, `no-reply@${new URL(config.publicUrl).hostname}`) : logMailer(logger);
}

/** Keeps sent mail in memory; for tests. */
export function memoryMailer(): Mailer & { sent: Mail[] } {
  const sent: Mail[] = [];
  return {
    sent,
    async send(mail) {
      sent.push(mail);
    },
  };
}
