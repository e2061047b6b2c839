/**
 * Runs one of the backup commands (server/src/backup/commands.ts) as a program: Ctrl-C or SIGTERM stops it (the
 * command cleans up, leaves nothing half-done and answers 130), its answer is the exit code.
 */
export type Command = (
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: { out(line: string): void; err(line: string): void },
  signal: AbortSignal,
) => Promise<number>;

export function runCommand(command: Command): void {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`${signal}: stopping…`);
      controller.abort();
    });
  }
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  command(process.argv.slice(2), process.env, io, controller.signal).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
