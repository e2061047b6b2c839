import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db';
import type { Mailer } from '../providers/mailer';
import type { Queue } from '../queue';
import { createAuthService } from './auth';
import { createChannelService } from './channels';

export interface ServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  queue?: Queue;
  now?: () => Date;
}

/** Composes every service; routes and jobs reach the rules only through these. */
export function createServices(deps: ServiceDeps) {
  const auth = createAuthService({
    db: deps.db,
    appSecret: deps.config.appSecret,
    adminEmails: deps.config.adminEmails,
    publicUrl: deps.config.publicUrl,
    mailer: deps.mailer,
    now: deps.now,
  });

  const now = deps.now ?? (() => new Date());
  const channels = createChannelService({ db: deps.db, now });

  async function health() {
    let database = 'ok';
    try {
      await deps.db.execute(sql`select 1`);
    } catch {
      database = 'unavailable';
    }
    const queue = deps.queue ? (deps.queue.isRunning() ? 'ok' : 'stopped') : 'disabled';
    return { status: database === 'ok' ? 'ok' : 'degraded', database, queue };
  }

  return { auth, channels, health };
}

export type Services = ReturnType<typeof createServices>;
