/** Names shared by the PostgreSQL side of the test setup. */
export const TEMPLATE_DB_NAME = 'svc_test_template';

/** The same server, connected to its maintenance database. */
export function adminUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}
