/** The IANA time zones the browser knows, with the current one and UTC always among them. */
export function timeZoneOptions(current: string): string[] {
  let zones: string[] = [];
  try {
    zones = (Intl as unknown as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  return [...new Set([...zones, 'UTC', current].filter(Boolean))].sort((a, b) => a.localeCompare(b));
}

const offsets = new Map<string, string>();

/** "GMT-03:00" for America/Sao_Paulo today ("" when the browser cannot tell). */
export function offsetLabel(timeZone: string, at = new Date()): string {
  const cached = offsets.get(timeZone);
  if (cached !== undefined) return cached;
  let label = '';
  try {
    label =
      new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    label = '';
  }
  offsets.set(timeZone, label);
  return label;
}

/** "America/Sao_Paulo (GMT-03:00)", with spaces for the underscores. */
export function timeZoneLabel(timeZone: string): string {
  const offset = offsetLabel(timeZone);
  const name = timeZone.replace(/_/g, ' ');
  return offset ? `${name} (${offset})` : name;
}
