// SECURITY: what crosses to the renderer (call results, errors, events) and what is logged is checked against the
// stored secret values. Secrets shorter than this are not looked for: too short to be secret, and they would
// match ordinary text.
const MIN_SECRET_LENGTH = 6;

const checked = (secrets: readonly string[]) => secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);

/** True when `text` (typically a JSON serialization) contains a stored secret value. */
export function containsSecret(text: string, secrets: readonly string[]): boolean {
  return checked(secrets).some((secret) => text.includes(secret));
}

/** Replaces every occurrence of a stored secret value in a log line. */
export function redact(text: string, secrets: readonly string[]): string {
  return checked(secrets).reduce((t, s) => t.split(s).join('[secret]'), text);
}
